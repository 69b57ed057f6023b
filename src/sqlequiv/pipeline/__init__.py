"""The check as a tuple of stages, cheap to expensive, the first that decides stops it.

Each stage is ``stage(pair) -> Verdict | None`` (the way sqlglot's optimizer runs
its ``RULES``): :mod:`~sqlequiv.pipeline.prove` (equal canonical forms, then the
symbolic layer), :mod:`~sqlequiv.pipeline.constant` (queries that read no table),
:mod:`~sqlequiv.pipeline.refute` (the counterexample search's random floor, which runs
first, its rich part, then bounded verification). A pair no stage decides is
``unknown``, with the evidence they gathered. :func:`sqlequiv.check` parses, guards
and builds the :class:`Pair`; grading builds it from what it has already guarded and
run.

:data:`PROVING_STAGES` are the stages that can prove, :data:`REFUTING_STAGES` the
ones that can only refute: run alone, the latter re-check a proof by searching for a
counterexample to it (``benchmarks/soundness.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlequiv.pipeline.constant import constant_decision
from sqlequiv.pipeline.pair import Pair, SeedData, Timer
from sqlequiv.pipeline.prove import normalized, symbolic
from sqlequiv.pipeline.refute import bounded, fixture_search, floor_search, verify
from sqlequiv.verdict import Verdict

__all__ = [
    "PROVING_STAGES",
    "REFUTING_STAGES",
    "STAGES",
    "Pair",
    "SeedData",
    "Stage",
    "Timer",
    "decide",
    "verify",
]

Stage = Callable[[Pair], Verdict | None]

#: The stages that can prove: a pair they do not prove is not proved by :data:`STAGES`
#: either. (The constant decision may also refute.)
PROVING_STAGES: tuple[Stage, ...] = (normalized, symbolic, constant_decision)

#: The stages that never prove (the random floor, the rest of the search, then bounded
#: verification): a pair they do not refute is ``unknown``, whatever the prover says.
REFUTING_STAGES: tuple[Stage, ...] = (floor_search, fixture_search, bounded)

#: The stages in the order they run: the random floor first, since it refutes most
#: non-equivalent pairs in milliseconds, and a proof takes tens of them.
STAGES: tuple[Stage, ...] = (floor_search, *PROVING_STAGES, fixture_search, bounded)


def decide(pair: Pair, stages: tuple[Stage, ...] = STAGES) -> Verdict:
    """The verdict of the first stage that decides, else ``unknown`` with the evidence.

    Once the check's deadline has passed no further stage starts (the evidence's
    ``budget_stops`` names the first one skipped); a stage that is running stops itself.

    Raises what a stage raises: :func:`sqlequiv.check` turns input errors and bugs into
    ``error`` verdicts.
    """
    for stage in stages:
        if pair.past_deadline(stage.__name__):
            break
        verdict = stage(pair)
        if verdict is not None:
            return verdict
    return pair.verdict("unknown", evidence=pair.gathered())
