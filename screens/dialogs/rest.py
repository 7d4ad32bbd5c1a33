"""The time-passing form: how long (hours, days), how well (the system's rest qualities), for whom.

Opened by the fight screen's ``L`` key on a fight not started or ended (never
during one: there time passes only by turns).  It builds the core
:class:`~tracker.commands.Rest`; each system decides what its combatants recover.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from screens import logic
from screens.dialogs.form import FormDialog
from screens.guard import call
from tracker import commands as C
from tracker.errors import Refused

if TYPE_CHECKING:
    from screens.forms import Context

WHO = "ids"


def rest_form(ctx: Context) -> FormDialog:
    """Let time pass for the marked combatants (none marked: everyone)."""
    qualities = tuple(call(lambda: getattr(ctx.system, "rest_qualities", ()), default=(), what="its rest qualities"))
    params: list[C.Param] = [
        C.Param(name="days", kind=C.INT, label="Days", default=0, min=0, max=3650, help="a week is 7"),
        C.Param(name="hours", kind=C.INT, label="Hours", default=0, min=0, max=24 * 3650),
    ]
    if qualities:
        params.append(C.Param(name="quality", kind=C.CHOICE, choices=qualities, default=qualities[0], label="How well"))
    params.append(C.Param(name=WHO, kind=C.COMBATANTS, label="Who", required=False, help="empty: everyone"))
    values: dict[str, Any] = {"days": 1, "hours": 0, WHO: ctx.marked}
    if qualities:
        values["quality"] = qualities[0]

    def check(raw: dict[str, Any]) -> Any:
        parsed = logic.form_values(ctx.state, tuple(params), raw)
        days, hours = int(parsed.get("days") or 0), int(parsed.get("hours") or 0)
        if days + hours == 0:
            raise Refused("let at least 1 hour or 1 day pass")
        ids = tuple(parsed.get(WHO) or ())
        return ctx.probe(C.Rest(ids=ids, days=days, hours=hours, quality=str(parsed.get("quality") or "")))

    return FormDialog(
        "Let time pass",
        tuple(params),
        check,
        values=values,
        state=ctx.state,
        help="Each system's recovery by its book; the log says what each recovered.",
        choices=ctx.choices,
        who=(None, WHO),
    )
