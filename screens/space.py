"""The fight screen's one-line texts fitted to the terminal's width (#44 item 5: space at 80×24).

Each line is one row whatever the width (the prompts, two at most): what is cut
is named here, and it is never the part the GM reads the line for.

- the bar keeps "turn: NAME" whole: the fight's name is cut first, then the
  system's, then the dice;
- the open prompts take one line, or two when the first one's text is long:
  how many, the first one's text (cut only past two lines: the number to
  roll against is at its end), and the keys (``!`` lists them all, ``p``
  resolves the first, ``P`` settles it);
- the fallen, folded away from the list (``F``), take one line: how many,
  their names (cut), and the key that shows them again;
- the system's keys line shows whole keys only ("s Saving throw", never
  "s Saving throw · l"): those that do not fit are under ``x`` (all actions),
  which is always shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

from tracker.text import visible

ELLIPSIS = "…"
SEP = " · "


def cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns with an ellipsis (nothing when there is no room)."""
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)].rstrip() + ELLIPSIS if width > 0 else ""


def bar_line(title: str, system: str, phase: str, dice: str, width: int) -> str:
    """The bar: ``title · system · phase · dice``, the phase ("round 2 · turn: NAME") kept whole."""
    parts = [title, system, phase, dice]

    def joined() -> str:
        return SEP.join(p for p in parts if p)

    # the system's name, then the fight's, cut to what is left (to nothing if need be): the GM's own name for the
    # fight went first ("Canyon" cut to "Can…", then gone, beside "Blackjack (weird-west Core Rules)" whole)
    for n in (1, 0):
        over = len(joined()) - width
        if over > 0 and parts[n]:
            keep = len(parts[n]) - over
            parts[n] = cut(parts[n], keep) if keep >= 4 else ""
    if len(joined()) > width:
        parts[3] = ""
    return joined()


def prompts_line(texts: Sequence[str], width: int, keys: bool = True) -> str:
    """The open prompts: "⚠ 3 prompts: <the first> (! all · p resolve · P ruling)" (``keys``: with the keys
    that act on them; a replay has none), in one line or, when the first does not fit, two (its bar grows to
    two lines): cut to one, "save vs death (d20 + CON +0 − 2 +2…" lost the number to roll against."""
    if not texts:
        return ""
    many = len(texts) > 1
    head = f"⚠ {len(texts)} prompts: " if many else "⚠ "
    tail = ("  (! all · p resolve · P ruling)" if many else "  (p resolve · P ruling)") if keys else ""
    text = head + visible(texts[0])
    if cell_len(text + tail) <= width:
        return text + tail
    if cell_len(text) <= width:  # two lines: the prompt, then the keys
        return text + "\n" + tail.lstrip()
    # two lines: the prompt broken at a word, then the rest of it and the keys, whole, at the end
    at = text.rfind(" ", 0, width + 1)
    if at <= len(head):
        at = width
    return text[:at].rstrip() + "\n" + cut(text[at:].lstrip(), width - cell_len(tail)) + tail


def keys_line(items: Sequence[str], width: int, keep: int = 3) -> str:
    """The first ``keep`` items always, then as many whole items as fit in ``width`` columns."""
    shown = list(items[:keep])
    for item in items[keep:]:
        if len(SEP.join([*shown, item])) > width:
            break
        shown.append(item)
    return SEP.join(shown)


def folded_line(names: Sequence[str], width: int) -> str:
    """The fallen folded away from the list in one line: "✝ 4 fallen: Outlaw 5, Outlaw 6, … (F unfolds)"."""
    if not names:
        return ""
    head, tail = f"✝ {len(names)} fallen: ", "  (F unfolds)"
    return head + cut(", ".join(names), width - len(head) - len(tail)) + tail
