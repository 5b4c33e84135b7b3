"""An entry's verdict combined over the runtimes (``prover._combined``), kept on the first
runtime's plan across the values a batch decides: the same entries come back in file after
file, and combining their verdicts again costs more than deciding each (a remembered one).

A verdict is kept only when it is a function of the entry and the plans alone: every decision
in it is remembered (``PreparedPlan.remembered``: the same verdict and work whenever it is
made) and no value budget ran out meanwhile. It is taken only while each budget has room for
the work those decisions charged it, which is then charged as they would charge it; past that,
the entry is decided as ever and stops where it stops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .domains.base import Budget
from .prepared import MAX_REMEMBERED_VERDICTS, PreparedPlan
from .runtimes import Profile
from .verdicts import Verdict

#: Combined verdicts by entry, each with the work it charged each runtime's budget.
Kept = dict[str, tuple[Verdict, tuple[int, ...]]]

#: Entries longer than this are not kept (as ``prepared`` keeps verdicts).
KEPT_ENTRY_CHARS: Final = 1024


def kept_for(plans: Sequence[PreparedPlan], readings: Sequence[Profile]) -> Kept | None:
    """The verdicts kept for these runtimes' plans (on the first), or None when a plan was
    made for another reading than its runtime's (nothing is kept then)."""
    if not all(plan.profile is reading for plan, reading in zip(plans, readings, strict=True)):
        return None
    return plans[0].combined.setdefault(tuple(plans[1:]), {})


def verdict(kept: Kept | None, entry: str, plans: Sequence[PreparedPlan],
            budgets: Sequence[Budget], asked: list[str],
            combine: Callable[[str], Verdict]) -> Verdict:
    """The verdict ``combine(entry)`` gives with each plan's ``budgets`` as they are: the
    one kept, when every budget has room for its work, else combined (the texts it decides
    are appended to ``asked``) and kept if it may be."""
    found = None if kept is None else kept.get(entry)
    if found is not None:
        work = found[1]
        # A value's budgets have no parent (prover._decide_value): then a budget's room is
        # its limit less what it spent, and a charge within it adds to what it spent (what
        # Budget.room and Budget.charge do, without their calls). Any other budget is decided
        # as ever.
        for units, budget in zip(work, budgets, strict=True):
            if budget.parent is not None or units > budget.limit - budget.spent:
                break
        else:  # (a loop, not all() over a generator: asked for every entry of a batch)
            for units, budget in zip(work, budgets, strict=True):
                budget.spent += units  # within its room: as the decisions charged it
            return found[0]
    spent = [budget.spent for budget in budgets]
    asked.clear()
    combined = combine(entry)
    if kept is not None:
        _keep(kept, entry, combined, plans, budgets, spent, asked)
    return combined


def _keep(kept: Kept, entry: str, combined: Verdict, plans: Sequence[PreparedPlan],
          budgets: Sequence[Budget], spent: Sequence[int], asked: Sequence[str]) -> None:
    """Keep ``combined`` for ``entry`` when every decision of the texts ``asked`` under
    ``plans`` is remembered, with the work the budgets were charged from ``spent``, and no
    budget ran out (each decision's verdict was the remembered one, not a stop)."""
    if len(entry) > KEPT_ENTRY_CHARS:
        return
    charged = tuple(budget.spent - before for budget, before in zip(budgets, spent, strict=True))
    work = []
    for plan, budget in zip(plans, budgets, strict=True):
        if budget.spent > budget.limit:
            return
        total = 0
        for text in asked:
            found = plan.remembered.get(text)
            if found is None:
                return
            total += found[1]
        work.append(total)
    if tuple(work) != charged:
        return
    if len(kept) >= MAX_REMEMBERED_VERDICTS:
        kept.clear()
    kept[entry] = (combined, charged)
