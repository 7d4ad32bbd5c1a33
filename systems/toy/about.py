"""What toy says of itself when the installed systems are listed: read by the package's
``__init__`` (listing) and by :mod:`systems.toy.plugin` (``about = ABOUT``), so neither imports the other.
"""

from tracker.plugin import About

ABOUT = About(id="toy", name="Toy", version="1", summary="A test system: d20 vs 10, dice damage, HP")
