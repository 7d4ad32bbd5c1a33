"""What bnb says of itself when the installed systems are listed: read by the package's
``__init__`` (listing) and by :mod:`systems.bnb.plugin` (``about = ABOUT``), so neither imports the other.
"""

from tracker.plugin import About

ABOUT = About(
    id="bnb",
    name="Blood & Bullets",
    version="1.0",
    summary="Old West: d20 vs Defence Class, exploding d6 damage, Gun-play, death saves",
)
