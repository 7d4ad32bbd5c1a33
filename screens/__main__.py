"""``python -m screens``: the same as the ``tracker`` command."""

from screens.cli import main

raise SystemExit(main())
