"""What zludge says of itself when the installed systems are listed: read by the package's
``__init__`` (listing) and by :mod:`systems.zludge.plugin` (``about = ABOUT``), so neither imports the other.
"""

from tracker.plugin import About

ABOUT = About(
    id="zludge",
    name="Zludge",
    # 1.1: contests take modifiers, aspects and plot points and are open to a revision after the roll; an ambush's
    # rolls may wait for the surprise action (the fight's record gained ``ambush_waits``): 1.0's checkpoints hold
    # the records in the older shape, a cache not read. Events of 1.0 files fold as they did (new fields' defaults).
    # 1.2: a contest in the running fight is the first side's action (ContestRolled gained ``counts_as_action``) and
    # takes the GM's "allows it though prone" for each side; quick damage may count armor (WoundMarked gained
    # ``weapon_level``, ``armor_level``, ``location``, ``location_roll``).  1.1 files fold as they did (the new field's default).
    version="1.2",
    summary="Zludge 1.0 Alpha: 4dF ladder, attack vs defense rolls, wound boxes by damage level, fatigue track",
)
