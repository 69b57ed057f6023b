"""Comparison and search options, recorded in every verdict."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

from sqlequiv.errors import InvalidOption


@dataclass(frozen=True)
class Options:
    """What "the same rows" means, and how hard to look for a difference.

    Example:
        >>> Options(float_tolerance=1e-6).float_tolerance
        1e-06
        >>> Options(max_fixtures=-1)
        Traceback (most recent call last):
        ...
        sqlequiv.errors.InvalidOption: options: invalid_option: max_fixtures=-1 must not be negative
        >>> Options(time_budget=float("nan"))
        Traceback (most recent call last):
        ...
        sqlequiv.errors.InvalidOption: options: ... time_budget=nan must be a finite number
    """

    #: Compare results as bags (duplicates count). ``False`` compares sets.
    bag_semantics: bool = True
    #: Ignore column order (columns are matched as value vectors).
    ignore_column_order: bool = True
    #: Check row order when the reference has a top-level ORDER BY.
    check_order: bool = True
    #: Relative tolerance for floating-point values (absolute near zero).
    float_tolerance: float = 1e-9
    #: Seed of the counterexample search; the same seed gives the same verdict.
    seed: int = 0
    #: Maximum number of candidate databases tried by the counterexample search. This
    #: count, not the clock, bounds the search, so a seed gives one answer.
    max_fixtures: int = 150
    #: Tiny random databases (0-3 rows a table, the queries' constants, keys respected)
    #: the search tries first, before any proof: the random floor it must dominate.
    floor_databases: int = 300
    #: Safety cap on the counterexample search's wall-clock time, in seconds; the
    #: evidence says when it cut a search short (results may then vary).
    time_budget: float = 5.0
    #: Maximum rows generated per table.
    max_rows: int = 4
    #: Per-query timeout on DuckDB, in seconds.
    query_timeout: float = 2.0
    #: Run the symbolic layer (z3): proofs, witness rows and bounded verification.
    symbolic: bool = True
    #: Bounded verification checks every database with up to this many rows per
    #: table (tables that aggregate thresholds need larger groups get more).
    max_bound: int = 3
    #: Safety cap on bounded verification's wall-clock time, in seconds. Work ends a run
    #: (z3's resource units per call and in all, the terms an encoding may build); the
    #: evidence says when the clock stopped it instead (results may then vary).
    bounded_time_budget: float = 5.0
    #: Most terms one bounded encoding may build (pairs of rows times sort or group
    #: keys, joined row pairs, ...), counted before they are built: a larger bound is
    #: not attempted, and the evidence's ``budget_stops`` says so.
    max_encoding_terms: int = 25_000
    #: Wall-clock cap on the whole check, in seconds: a safety net under the budgets
    #: that count. Every stage stops cleanly once it has passed (the evidence's
    #: ``budget_stops`` says which), so a check answers within about this plus 2 s.
    check_time_budget: float = 20.0
    #: Longest query accepted, in characters (longer is an ``error`` of kind ``too_large``).
    max_query_length: int = 100_000
    #: Largest query accepted, in syntax-tree nodes (larger is ``too_complex``): the
    #: analysers' cost grows with it, and the peers' largest benchmark query has 280.
    max_query_nodes: int = 5_000
    #: For queries in the ``mysql`` dialect: MySQL's ``lower_case_table_names``. 0 (MySQL's
    #: default on Linux) compares table names and table aliases case-sensitively, against
    #: the schema DDL's spelling; 1 (Windows) and 2 (macOS) compare them case-insensitively.
    #: The default is 1: a grader judges what an answer returns, and a table written
    #: ``person`` for ``PERSON`` is a server setting, not a wrong answer. Column names
    #: and aliases are case-insensitive in MySQL under every setting.
    mysql_lower_case_table_names: int = 1
    #: For queries in the ``mysql`` dialect: whether the server's SQL mode has
    #: ONLY_FULL_GROUP_BY (MySQL's default since 5.7.5). Without it, a column neither
    #: grouped nor determined by the grouped ones is MySQL's choice of a row of the group,
    #: not an ``only_full_group_by`` error: a refutation must hold whichever row it is.
    mysql_only_full_group_by: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            # The annotations are strings ("bool", "int", "float"): see the __future__ import.
            if f.type == "bool":
                if not isinstance(value, bool):
                    raise InvalidOption(f"{f.name}={value!r} must be True or False")
                continue
            wanted = (int,) if f.type == "int" else (int, float)
            if isinstance(value, bool) or not isinstance(value, wanted):
                what = "a whole number" if f.type == "int" else "a number"
                raise InvalidOption(f"{f.name}={value!r} must be {what}")
            if not _finite(value):
                raise InvalidOption(f"{f.name}={value!r} must be a finite number")
            if value < 0:
                raise InvalidOption(f"{f.name}={value!r} must not be negative")
        if self.max_rows < 1:
            raise InvalidOption(f"max_rows={self.max_rows!r} must be at least 1")
        if self.max_query_length < 1 or self.max_query_nodes < 1:
            raise InvalidOption("max_query_length and max_query_nodes must be at least 1")
        if self.mysql_lower_case_table_names not in (0, 1, 2):
            raise InvalidOption(
                f"mysql_lower_case_table_names={self.mysql_lower_case_table_names!r} "
                "must be 0, 1 or 2"
            )
        if self.query_timeout <= 0:
            raise InvalidOption(f"query_timeout={self.query_timeout!r} must be positive")

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready mapping."""
        return asdict(self)


def _finite(value: float) -> bool:
    """Not NaN or infinite, and (for an int) within the range of a float, as the budgets
    and shares computed from it are."""
    try:
        return math.isfinite(value)
    except OverflowError:  # an int past 1e308
        return False
