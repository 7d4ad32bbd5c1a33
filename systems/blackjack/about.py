"""What blackjack says of itself when the installed systems are listed: read by the package's
``__init__`` (listing) and by :mod:`systems.blackjack.plugin` (``about = ABOUT``), so neither imports the other.
"""

from tracker.plugin import About

ABOUT = About(
    id="blackjack",
    name="Blackjack (weird-west Core Rules)",
    version="1.2",
    summary="Blackjack saves (DV < d20 ≤ stat), injury slots that escalate, shots and lead, lead-working powderburn",
)
