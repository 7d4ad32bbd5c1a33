"""Ready-made sheets: the critters of the toy "book"."""

from tracker.plugin import Preset

PRESETS: tuple[Preset, ...] = (Preset(id="goblin", name="Goblin", sheet={"hp": 4}, summary="weak"),)
