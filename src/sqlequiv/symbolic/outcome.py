"""What bounded verification reports to the checker."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlequiv.database import Database

__all__ = ["BoundedOutcome"]


@dataclass(frozen=True)
class BoundedOutcome:
    """``differ``: ``database`` separates the queries (still to be verified by
    execution); ``same``: no database with at most ``bound`` rows per table
    does; ``unsupported`` / ``timeout`` / ``skipped``: no claim (``reason`` says why).
    """

    status: Literal["differ", "same", "unsupported", "timeout", "skipped"]
    bound: int | None
    database: Database | None
    reason: str | None
    #: Per-table row bounds used, when they differ from the common bound.
    row_bounds: dict[str, int] | None = None
