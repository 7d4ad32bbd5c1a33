"""``python -m screens``: the same as the ``tracker`` command."""

from screens.launch import main

raise SystemExit(main())
