"""How a stage's failures become verdicts, in one place."""

from __future__ import annotations

from sqlequiv.errors import QueryFailed
from sqlequiv.pipeline.pair import Pair
from sqlequiv.verdict import ErrorInfo, Verdict

#: What an input too big or too strange for the symbolic layer raises (a 300-term sum
#: recurses past Python's limit, a 5,000-digit literal is beyond int()): the layer then
#: claims nothing, and the execution-based stages decide. Never a reason to say "same".
LAYER_FAILURES = (RecursionError, ValueError, OverflowError, ArithmeticError, MemoryError)


def execution_error(exc: QueryFailed, pair: Pair) -> Verdict:
    """A failure that does not depend on the data (or a runaway query) is an input error."""
    return pair.verdict("error", error=ErrorInfo(exc.side, exc.kind, str(exc)))
