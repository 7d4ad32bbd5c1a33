"""The key bar: the screen's keys on one line, drawn as Textual's compact footer draws them, as one widget.

Kept instead of Textual's ``Footer`` (#43 item 3) for a behaviour it lacks: the
keys in the first frame.  ``Footer`` composes its keys only once the screen's
bindings signal has fired after mounting (a recompose after a refresh), so the
first frame of a fight, and of the start screen, showed an empty bar: swapped
in, ``Footer(compact=True)`` failed tests/ui/test_frames.py's first-frame tests
(5 of them) and nothing else.  A click on a key presses it (the mouse, #46).

Textual's ``Footer`` is a container of one widget per key (eleven on the fight
screen): each is composed, mounted, styled and laid out as the fight opens, and
restyled each time a dialog closes over the screen (the screen resumes and
every widget on it is styled again).  This bar is one widget that draws the
line itself (``render_line``), with the footer's own theme colours, spacing and
looks: a key and its description, a key the screen refuses dimmed, the key
under the mouse lit (a click on it presses it), its tooltip.  It is redrawn
when the keys it shows change, never rebuilt.

With ``palette``, the command palette's key is drawn at the right end, after
a thin rule, as the footer draws it.  Key groups (``Binding.group``) are drawn
as single keys: no key of ours has one.

With ``tight``, a screen whose keys do not all fit in the width (the replay's
at 80 columns: the palette's key hid "? Help", the last) names the keys drawn
instead, in its order, with shorter words, hidden keys among them if it
wants: the fight screen's keys fit in 80 columns, short words, Help last; a
tight bar is made the same.  Test: tests/ui/test_keys_round3.py.  ``tight`` is
one set or more, the roomiest first: the first that fits is drawn (the last in
any case).  A screen that says its own keys are not enough at its width
(:meth:`KeysFooter.prefer_tight`: the replay, below its hint line's width) gets
the tight keys even where its own fit.  Test: tests/ui/test_replay_keys_widths.py.

``spare`` keys (:data:`screens.keys.SPARE`: Why?) are not marked to be shown (the help and the palette list them
with the rest), yet the bar draws them at its end, in a short word, where every key of the screen fits with them:
where they do not fit, the bar is drawn as without them, so they never push out a key.  Test:
tests/ui/test_why_key_shown.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.color import Color
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from screens.keys import SPARE


class Key(NamedTuple):
    """One key the bar shows, and where: columns ``x`` to ``x + width``."""

    key: str  # what pressing it sends (the binding's key)
    display: str  # how the key is shown ("^p", "-")
    description: str
    enabled: bool
    tooltip: str
    x: int
    width: int


def keys_shown(
    bindings: Iterable[Any],
    display: Callable[[Binding], str],
    only: Sequence[tuple[str, str]] | None = None,
    also: Mapping[str, str] | None = None,
) -> tuple[Key, ...]:
    """The keys a footer shows of a screen's active bindings (``Screen.active_bindings.values()``): those marked
    to be shown, the first binding of each action, laid out as the compact footer lays them (key, a space,
    description; one column between keys).  With ``only``, (action, description) pairs: the first binding of each
    of those actions, shown or not, in that order, with that description ("": the key alone).  With ``also``,
    binding id -> description: those bindings' keys too, shown or not, after the others (the spare keys)."""
    bindings = list(bindings)
    first: dict[str, tuple[Binding, bool, str]] = {}
    for _node, binding, enabled, tooltip in bindings:
        if (binding.show or only is not None) and binding.action not in first:
            first[binding.action] = (binding, enabled, tooltip)
    if only is None:
        chosen = [(b, enabled, tooltip, b.description) for b, enabled, tooltip in first.values()]
    else:
        chosen = []
        for action, words in only:
            if action in first:
                b, on, tip = first[action]
                chosen.append((b, on, tip or b.description, words))  # (under the mouse: its whole description)
    for _node, binding, enabled, tooltip in bindings if also is not None else ():
        said = also.get(binding.id or "") if also is not None else None
        if said is not None and binding.action not in first:
            first[binding.action] = (binding, enabled, tooltip)
            chosen.append((binding, enabled, tooltip or binding.description, said))
    out: list[Key] = []
    x = 0
    for binding, enabled, tooltip, description in chosen:
        shown = display(binding)
        width = cell_len(shown) + (1 + cell_len(description) if description else 0)
        out.append(Key(binding.key, shown, description, enabled, tooltip, x, width))
        x += width + 1
    return tuple(out)


def fits(keys: Sequence[Key], width: int) -> bool:
    """Whether the keys (the palette's, at the right end, among them) are drawn whole in ``width`` columns."""
    own = [k for k in keys if k.x >= 0]
    right = sum(k.width + 2 for k in keys if k.x < 0)  # the palette's key, its rule and its margin
    return not own or own[-1].x + own[-1].width <= width - right


class KeysFooter(Widget, can_focus=False):
    """The screen's keys, docked at the bottom (see the module's docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "keys-footer--item",
        "keys-footer--key",
        "keys-footer--description",
        "keys-footer--hover",
        "keys-footer--rule",
    }
    # Textual's footer's looks (Footer and FooterKey, compact), in the theme's footer colours
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        &.-pointing { pointer: pointer; }
        & > .keys-footer--item { background: $footer-item-background; }
        & > .keys-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keys-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .keys-footer--hover { color: $footer-key-foreground; background: $block-hover-background; }
        & > .keys-footer--rule { color: $foreground 20%; }
    }
    """

    def __init__(
        self,
        *,
        palette: bool = False,
        tight: Sequence[Sequence[tuple[str, str]]] = (),
        spare: Mapping[str, str] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.palette = palette  # the command palette's key at the right end
        # sets of (action, description) of the keys drawn when the screen's do not fit, the roomiest first (see the
        # module's docstring)
        self.tight = tuple(tuple(each) for each in tight)
        self.spare = dict(SPARE if spare is None else spare)  # binding id -> the bar's word
        self.full: tuple[Key, ...] = ()  # the screen's keys
        self.roomy: tuple[Key, ...] = ()  # the screen's keys and the spare ones (none: no spare key is active)
        self.shorts: tuple[tuple[Key, ...], ...] = ()  # the tight keys, a tuple of keys for each set
        self.tight_always = False  # the screen's say: its keys are not enough at this width (prefer_tight)
        self.hover = -1  # the index of the key under the mouse (-1: none)

    @property
    def keys(self) -> tuple[Key, ...]:
        """The keys drawn: the screen's, or the tight ones when the screen's do not fit in the bar's width (or the
        screen prefers them): of the tight sets, the first that fits, else the last.  The screen's with the spare
        keys where they all fit."""
        width = self.size.width
        if self.shorts and width and (self.tight_always or not fits(self.full, width)):
            return next((keys for keys in self.shorts if fits(keys, width)), self.shorts[-1])
        if self.roomy and width and fits(self.roomy, width):
            return self.roomy
        return self.full

    def prefer_tight(self, tight: bool) -> None:
        """Draw the tight keys even where the screen's fit (``tight``), or only where they do not: the replay below
        its hint line's width, whose own keys name no way back a round or to the end."""
        if tight != self.tight_always:
            self.tight_always = tight
            self._light(-1)
            self.refresh()

    @property
    def descriptions(self) -> list[str]:
        """What the keys shown say, as the GM reads them."""
        return [k.description for k in self.keys]

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        if screen is not self.screen:
            return
        active = screen.active_bindings  # (worked out from the focus chain each time it is asked for)
        keys = keys_shown(active.values(), self.app.get_key_display)
        shorts = tuple(keys_shown(active.values(), self.app.get_key_display, each) for each in self.tight)
        roomy = keys_shown(active.values(), self.app.get_key_display, also=self.spare) if self.spare else ()
        if len(roomy) == len(keys):
            roomy = ()  # (no spare key among the screen's)
        found = active.get(self.app.COMMAND_PALETTE_BINDING)
        if self.palette and self.app.ENABLE_COMMAND_PALETTE and found is not None:
            _node, binding, enabled, _tooltip = found
            shown = self.app.get_key_display(binding)
            width = cell_len(shown) + 1 + cell_len(binding.description)
            # at the right end (x counted from it, see placed), after its rule
            palette = Key(
                binding.key,
                shown,
                binding.description,
                enabled,
                binding.tooltip or binding.description,
                -width,
                width,
            )
            keys += (palette,)
            shorts = tuple((*short, palette) for short in shorts)
            roomy = (*roomy, palette) if roomy else ()
        if keys != self.full or shorts != self.shorts or roomy != self.roomy:
            self.full, self.shorts, self.roomy = keys, shorts, roomy
            self._light(-1)
            self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        if self.shorts or self.roomy:  # the tight keys, the spare or the screen's: what the mouse is over may move
            self._light(-1)
            self.refresh()

    def placed(self) -> tuple[Key, ...]:
        """The keys at their columns (the palette's, counted from the right end, placed at the width)."""
        width = self.size.width
        return tuple(k if k.x >= 0 else k._replace(x=width + k.x - 1) for k in self.keys)  # (its margin: 1)

    # -- drawing -----------------------------------------------------------
    def _layer(self, name: str, background: Color, color: Color) -> tuple[Color, Color]:
        """A component's background laid over ``background``, and its colour (else ``color``)."""
        styles = self.get_component_styles(name)
        if styles.has_rule("background"):
            background = background + styles.background
        if styles.has_rule("color"):
            color = styles.color
        return background, color

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        _, background = self.background_colors
        base = Style(bgcolor=background.rich_color)  # between the keys and after them: the footer's background
        if y != 0 or not self.keys:
            return Strip.blank(width, base)
        segments: list[Segment] = []
        palette: Strip | None = None
        placed = self.placed()
        at = 0
        for n, key in enumerate(placed):
            if self.keys[n].x < 0:  # the palette's key, after its rule: drawn over the others below
                palette = Strip(self._drawn(n, key, background, rule=True))
                continue
            if key.x > at:
                segments.append(Segment(" " * (key.x - at), base))
            segments += self._drawn(n, key, background)
            at = key.x + key.width
        line = Strip(segments).adjust_cell_length(width, base)
        if palette is not None:
            x = placed[-1].x - 1  # (its rule's column)
            line = Strip.join([line.crop(0, x), palette, line.crop(x + palette.cell_length)])
        return line.crop(0, width)

    def _drawn(self, n: int, key: Key, background: Color, rule: bool = False) -> list[Segment]:
        """A key as the footer draws it: its key, a space and its description (its rule before it)."""
        bg, fg = self._layer(
            "keys-footer--hover" if n == self.hover else "keys-footer--item", background, self.styles.color
        )
        dim = None if key.enabled else True
        out = []
        if rule:
            # (a rule's colour is laid over the bar's background, as Textual lays a border's, not the key's)
            color = background + self.get_component_styles("keys-footer--rule").color
            out.append(Segment("▏", Style(color=color.rich_color, bgcolor=bg.rich_color if bg.a else None, dim=dim)))
        key_bg, key_fg = self._layer("keys-footer--key", bg, fg)
        bold = self.get_component_styles("keys-footer--key").text_style.bold
        out.append(Segment(key.display, _style(key_bg, key_fg, bold=bold, dim=dim)))
        if key.description:
            text_bg, text_fg = self._layer("keys-footer--description", bg, fg)
            out.append(Segment(" " + key.description, _style(text_bg, text_fg, dim=dim)))
        return out

    # -- the mouse ---------------------------------------------------------
    def _key_at(self, x: int) -> int:
        found = -1
        for n, key in enumerate(self.placed()):
            if key.x - (1 if self.keys[n].x < 0 else 0) <= x < key.x + key.width:
                found = n  # (the palette's key is over the others)
        return found

    def _light(self, n: int) -> None:
        if n != self.hover:
            self.hover = n
            self.set_class(n >= 0, "-pointing")
            self.tooltip = (self.keys[n].tooltip or None) if n >= 0 else None
            self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._light(self._key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._light(-1)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        n = self._key_at(event.x)
        if n < 0:
            return
        if self.keys[n].enabled:
            self.app.simulate_key(self.keys[n].key)
        else:
            self.app.bell()


def _style(background: Color, color: Color, *, bold: bool | None = None, dim: bool | None = None) -> Style:
    """A Rich style of a colour over a background (the colour's alpha blended as Textual blends it)."""
    return Style(
        color=(background + color).rich_color if (background.a or color.a) else None,
        bgcolor=background.rich_color if background.a else None,
        bold=bold,
        dim=dim,
    )
