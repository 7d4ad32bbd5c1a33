"""What zludge says of itself when the installed systems are listed: read by the package's
``__init__`` (listing) and by :mod:`systems.zludge.plugin` (``about = ABOUT``), so neither imports the other.
"""

from tracker.plugin import About

ABOUT = About(
    id="zludge",
    name="Zludge",
    version="1.0",
    summary="Zludge 1.0 Alpha: 4dF ladder, attack vs defense rolls, wound boxes by damage level, fatigue track",
)
