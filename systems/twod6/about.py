"""What twod6 says of itself when the installed systems are listed: read by the package's
``__init__`` (listing) and by :mod:`systems.twod6.plugin` (``about = ABOUT``), so neither imports the other.
"""

from tracker.plugin import About

ABOUT = About(
    id="twod6",
    name="2d6 Core Rules Gamma",
    # 1.1: a failed check stays open to a cinematic until the combatant's own next turn (eb9e530); a checkpoint
    # written by 1.0 holds the older fold's open checks: a cache of another version, not read (saves.checkpoint)
    # 1.2: CinematicSpent names whom the check it buys was against (``against``, for the players' view) and a grapple's
    # end says how (``EffectApplied.source``: broke free / let go); 1.1 cannot read a 1.2 file's new field
    version="1.2",
    summary="2d6 opposed checks, critical 11s that roll again, wounds with resolve thresholds, action economy",
)
