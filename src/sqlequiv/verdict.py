"""The verdict: a typed, immutable value with a stable JSON form.

The CLI and graders only render it. The JSON keys are a contract
(``verdict``, ``method``, ``counterexample``, ``error``, ``evidence``,
``options``, ``timings``): add keys, never rename or drop them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlequiv.evidence import Evidence

VerdictKind = Literal["equivalent", "not_equivalent", "unknown", "error"]
Cause = Literal[
    "missing_rows",
    "extra_rows",
    "same_keys_different_values",
    "grain",
    "filter_window",
    "projection",
    "empty_result",
]
CAUSES: tuple[Cause, ...] = (
    "missing_rows",
    "extra_rows",
    "same_keys_different_values",
    "grain",
    "filter_window",
    "projection",
    "empty_result",
)

#: Exit codes of ``sqlequiv check``, one per verdict.
EXIT_CODES: dict[VerdictKind, int] = {
    "equivalent": 0,
    "not_equivalent": 1,
    "error": 2,
    "unknown": 3,
}

JsonRow = list[Any]


@dataclass(frozen=True)
class Counterexample:
    """A database on which the two queries return different rows.

    ``tables`` maps every table of the schema to its rows (column -> JSON
    scalar); ``candidate_rows`` and ``reference_rows`` are the two results.
    """

    tables: dict[str, list[dict[str, Any]]]
    candidate_rows: list[JsonRow]
    reference_rows: list[JsonRow]
    cause: Cause
    detail: str
    #: A short identifier of the case the database pins, e.g. ``customers_without_orders``.
    name: str = "counterexample"
    candidate_columns: list[str] = field(default_factory=list)
    reference_columns: list[str] = field(default_factory=list)
    #: Rows in the reference result and not in the candidate's (as bags), and vice versa.
    missing_rows: list[JsonRow] = field(default_factory=list)
    extra_rows: list[JsonRow] = field(default_factory=list)
    #: Checked against the user's data (``--data``): ``on_data`` (the queries differ on
    #: the data itself; these are its rows), ``realistic`` (every fact the data shows
    #: holds) or ``edge`` (the declared schema's only); None without data.
    realism: str | None = None
    #: For an ``edge`` counterexample, each fact of the data it needs broken, in words.
    breaks: list[str] = field(default_factory=list)
    #: The verified database itself (values as the search made them), for the stages
    #: that read it again; not part of the JSON form.
    database: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tables": self.tables,
            "candidate_columns": self.candidate_columns,
            "candidate_rows": self.candidate_rows,
            "reference_columns": self.reference_columns,
            "reference_rows": self.reference_rows,
            "missing_rows": self.missing_rows,
            "extra_rows": self.extra_rows,
            "cause": self.cause,
            "detail": self.detail,
            "realism": self.realism,
            "breaks": self.breaks,
        }


@dataclass(frozen=True)
class ErrorInfo:
    """Why the input could not be checked."""

    side: str
    kind: str
    message: str
    line: int | None = None
    col: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "kind": self.kind,
            "message": self.message,
            "line": self.line,
            "col": self.col,
        }


@dataclass(frozen=True)
class Replay:
    """A counterexample re-run on another engine (``--replay-on``): whether the two
    queries' results differ there too, both results, or why the engine could not run
    them (``error``; ``separates`` is then None)."""

    separates: bool | None
    candidate_rows: list[JsonRow] | None = None
    reference_rows: list[JsonRow] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "separates": self.separates,
            "candidate_rows": self.candidate_rows,
            "reference_rows": self.reference_rows,
            "error": self.error,
        }


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check.

    Example:
        >>> v = Verdict("equivalent", method="normalized")
        >>> v.exit_code, v.to_dict()["counterexample"]
        (0, None)
    """

    verdict: VerdictKind
    method: str | None = None
    counterexample: Counterexample | None = None
    error: ErrorInfo | None = None
    evidence: Evidence = field(default_factory=Evidence)
    options: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    #: The engine ("duckdb", "sqlite" or "postgres") and the two queries as executed on
    #: it: the source text on the dialect's own engine (SQLite for ``sqlite``, PostgreSQL
    #: for ``postgres``), else after qualification and transpiling.
    executed: dict[str, str | None] = field(default_factory=dict)
    #: The counterexample replayed on other engines (``--replay-on``), by engine name.
    replays: dict[str, Replay] | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    @property
    def equivalent(self) -> bool:
        return self.verdict == "equivalent"

    def to_dict(self) -> dict[str, Any]:
        # Every key is always present, null included: absence must not change meaning.
        return {
            "verdict": self.verdict,
            "method": self.method,
            "counterexample": self.counterexample.to_dict() if self.counterexample else None,
            "error": self.error.to_dict() if self.error else None,
            "evidence": self.evidence.to_dict(),
            "options": self.options,
            "timings": self.timings,
            "executed": self.executed,
            "replays": (
                {name: r.to_dict() for name, r in self.replays.items()}
                if self.replays is not None
                else None
            ),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False, allow_nan=False)
