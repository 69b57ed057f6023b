"""One wall-clock deadline per check, which every stage respects.

What decides a verdict are budgets that count (databases tried, solver calls, z3's
``rlimit``, terms of an encoding): they give the same answer on a fast machine and a
loaded one. The clock is the safety net under them. :func:`sqlequiv.check` starts a
:class:`Deadline` from ``Options.check_time_budget``; each stage that loops or calls
z3 asks it how much time is left (taking the smaller of that and its own cap) and
stops cleanly when it has passed, saying so in the verdict's ``budget_stops``.

Example:
    >>> d = Deadline.after(60.0)
    >>> d.expired(), 59.0 < d.left() <= 60.0
    (False, True)
    >>> d.within(1.0).left() <= 1.0
    True
    >>> Deadline.after(0.0).expired()
    True
    >>> NO_DEADLINE.expired(), NO_DEADLINE.left_ms(cap=3000)
    (False, 3000)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

__all__ = ["NO_DEADLINE", "Deadline"]


@dataclass(frozen=True)
class Deadline:
    """A moment on :func:`time.monotonic`'s clock (``math.inf``: none)."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds)

    def left(self) -> float:
        """Seconds until the deadline (negative once it has passed)."""
        return self.at - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def within(self, seconds: float) -> Deadline:
        """This deadline, or ``seconds`` from now if that comes first (a stage's own cap)."""
        return Deadline(min(self.at, time.monotonic() + seconds))

    def left_ms(self, *, cap: int) -> int:
        """Milliseconds left, at least 1 and at most ``cap``: a z3 ``timeout`` setting."""
        left = self.left()
        if math.isinf(left):
            return cap
        return max(1, min(cap, int(left * 1000)))


#: The deadline of a caller that sets none.
NO_DEADLINE = Deadline(math.inf)
