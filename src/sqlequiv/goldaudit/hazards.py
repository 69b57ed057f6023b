"""The hazards of one gold query, each with the database that shows it.

Text patterns nominate (:mod:`sqlequiv.goldaudit.variants` writes a pair of queries
for each candidate); a hazard is reported only when a database separates the pair:
first the shipped database, else one :func:`sqlequiv.check` finds (seeded with the
shipped rows), which is then replayed in the real database's own tables and must
show the difference there too (:mod:`sqlequiv.goldaudit.witness`). ``slow``,
``empty`` and ``gold_error`` rest on the shipped database itself.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import sqlglot
from sqlglot import exp

from sqlequiv.api import SeedData, check
from sqlequiv.goldaudit import variants as v
from sqlequiv.goldaudit.records import Hazard, Witness
from sqlequiv.goldaudit.rewrite import propose_rewrite
from sqlequiv.goldaudit.witness import Database, judge, run_on, show
from sqlequiv.options import Options
from sqlequiv.schema.model import Column, Schema
from sqlequiv.text2sql.execmatch import Rule, spider_prepare

_log = logging.getLogger(__name__)

#: A query that returns no row: the prediction that exploits an empty gold.
EMPTY_PREDICTION = "SELECT 1 WHERE 1 = 0"


@dataclass(frozen=True)
class AuditSettings:
    """How the audit runs (plain data: it may be sent to worker processes)."""

    options: Options = field(default_factory=Options)
    #: Per-query deadline on the shipped database, s (a gold that hits it is ``slow``).
    exec_timeout: float = 30.0
    #: A gold slower than this on the shipped database is ``slow``.
    slow_seconds: float = 5.0
    #: Propose and check a deterministic rewrite of a nondeterministic gold.
    rewrite: bool = True


@dataclass(frozen=True)
class GoldContext:
    """What the audit knows of a gold's database."""

    benchmark: str
    schema: Schema
    ddl: tuple[str, ...]
    shipped: Path
    seed: SeedData | None = None
    #: ``(table, column)`` of TEXT columns whose shipped values are all numbers.
    text_numbers: frozenset[tuple[str, str]] = frozenset()

    @property
    def database(self) -> Database:
        return Database(self.shipped, lenient=self.benchmark != "bird")


def audit_one(
    gold: str,
    context: GoldContext,
    settings: AuditSettings,
    *,
    question: str | None = None,
    alternatives: Sequence[str] = (),
) -> list[Hazard]:
    """Every hazard of ``gold`` with its witness (see the module docstring)."""
    found: list[Hazard] = []
    run = run_on(context.database, gold, settings.exec_timeout)
    if run.failure in {"timeout", "too_large"} or run.seconds > settings.slow_seconds:
        reason = run.failure or "slow"
        what = {
            "timeout": f"did not finish within {settings.exec_timeout:g} s",
            "too_large": f"returned too many rows ({run.message})",
        }.get(reason, f"took {run.seconds:.2f} s")
        found.append(Hazard(
            "slow", reason, f"on the shipped database the gold {what} "
            f"(slow from {settings.slow_seconds:g} s)",
            Witness("shipped", seconds=round(run.seconds, 3)),
        ))  # fmt: skip
    elif run.rows is None:
        found.append(Hazard(
            "gold_error", "error", f"the gold fails on the shipped database: {run.message}",
            Witness("shipped", seconds=round(run.seconds, 3)),
        ))  # fmt: skip
        return found
    # A slow gold's variants are not run on the shipped database: only searched ones.
    slow = run.rows is None or run.seconds > settings.slow_seconds
    if run.rows is not None and not run.rows:
        found.append(_empty(gold, context, settings, run.seconds))
    try:
        tree = sqlglot.parse_one(gold, read="sqlite")
        width = len(run.rows[0]) if run.rows else _width(tree)
        nominees = _nominees(gold, tree, width, context, question)
    except (sqlglot.errors.SqlglotError, ValueError, RecursionError):
        return found  # a gold sqlglot cannot read is only run, not varied
    except Exception as exc:  # a bug in a variant: never a traceback for one gold
        if os.environ.get("SQLEQUIV_STRICT"):
            raise
        _log.error("gold audit: cannot vary %r", gold[:200], exc_info=exc)
        return found
    auditor = _Auditor(gold, context, settings, slow)
    for kind, pair in nominees:
        hazard = auditor.verify(kind, pair)
        if hazard is not None:
            found.append(hazard)
    for alternative in alternatives:
        pair = v.Pair("alternative", gold, alternative, True,
                      "two accepted golds return different rows")  # fmt: skip
        hazard = auditor.verify("alternatives_disagree", pair)
        if hazard is not None:
            found.append(hazard)
    return found


def _width(tree: exp.Expr) -> int:
    if not isinstance(tree, exp.Query) or any(isinstance(s, exp.Star) for s in tree.selects):
        return 0
    return len(tree.selects)


def _nominees(
    gold: str, tree: exp.Expr, width: int, context: GoldContext, question: str | None
) -> list[tuple[str, v.Pair]]:
    """The candidate hazards of a gold, each as the pair that would show it."""
    out: list[tuple[str, v.Pair]] = []
    # Spider's evaluator compares lists when the gold's text says "order by"; BIRD never.
    order_checked = context.benchmark == "spider" and "order by" in spider_prepare(gold).lower()
    volatile = v.volatile_pair(tree, width, "sqlite")
    if volatile is not None:
        # Any other variant would keep the random() or the clock, and differ by chance.
        return [("nondeterministic", volatile)]
    ties = v.tie_pair(tree, width, "sqlite")
    if ties is not None and (ties.reason != "order_ties" or order_checked):
        out.append(("nondeterministic", ties))
    bare = v.bare_column_pair(tree, "sqlite")
    if bare is not None:
        out.append(("nondeterministic", bare))
    out.extend(_order_nominees(tree, width, context, question, order_checked))
    nulls = v.nulls_pair(tree, width, "sqlite")
    if nulls is not None:
        out.append(("null_sensitive", nulls))
    not_in = v.not_in_pair(tree, "sqlite")
    if not_in is not None:
        out.append(("null_sensitive", not_in))
    if context.text_numbers:
        numbers = v.text_number_pair(tree, set(context.text_numbers), "sqlite")
        if numbers is not None:
            out.append(("type_fragile", numbers))
    return out


def _order_nominees(
    tree: exp.Expr, width: int, context: GoldContext, question: str | None, checked: bool
) -> list[tuple[str, v.Pair]]:
    """Where the order the question asks, the order the gold gives and the order the
    evaluator checks part ways (each shown by a database whose rows come in two orders)."""
    pair = v.reversed_order_pair(tree, width, "sqlite")
    if pair is None:
        return []
    asked = v.asks_for_order(question)
    ordered = v.has_top_order(tree)
    bird = context.benchmark == "bird"
    cases = [
        (reason, correct, why)
        for reason, applies, correct, why in _ORDER_CASES
        if applies(asked, ordered, checked, bird)
    ]
    return [
        ("order_sensitive", dataclasses.replace(
            pair, reason=reason, why=why, exploit_is_correct=correct))
        for reason, correct, why in cases
    ]  # fmt: skip


#: The order hazards: reason, when it applies (asked by the question, ordered by the gold,
#: checked by Spider's evaluator, BIRD), whether the reversed answer is right, and why.
_ORDER_CASES: tuple[tuple[str, Any, bool, str], ...] = (
    ("question_order_not_in_gold", lambda asked, ordered, checked, bird: asked and not ordered,
     True, "the question asks for an order the gold does not give: any order of its rows "
     "passes"),
    ("order_text_in_subquery", lambda asked, ordered, checked, bird: checked and not ordered,
     True, "Spider's evaluator sees 'order by' in the gold's text and compares rows as "
     "lists, but the gold's outer query fixes no order"),
    ("order_not_asked", lambda asked, ordered, checked, bird: checked and ordered
     and asked is False,
     True, "the gold orders rows the question does not ask to order, and Spider's evaluator "
     "compares lists: a right answer in another order fails"),
    ("order_not_checked", lambda asked, ordered, checked, bird: bird and ordered
     and asked is not False,
     False, "the gold orders its rows but BIRD compares sets: an answer in the wrong order "
     "passes"),
)  # fmt: skip


class _Auditor:
    """Verifies candidate pairs of one gold: finds and replays their witnesses."""

    def __init__(self, gold: str, context: GoldContext, settings: AuditSettings, slow: bool):
        self.gold = gold
        self.context = context
        self.settings = settings
        self.slow = slow
        self.options = dataclasses.replace(settings.options, check_order=False)
        #: The realism and breaks of each generated witness, by the variant it shows.
        self._tiers: dict[str, tuple[str | None, list[str]]] = {}

    def verify(self, kind: str, pair: v.Pair) -> Hazard | None:
        witness = self._witness(pair)
        if witness is None:
            return None
        database, shown = witness
        # No stance: the question's order is not known, or the gold's own answer is random.
        unknown_stance = pair.reason in {"question_order_not_in_gold", "random"}
        exploit = self._exploit(pair, database, unknown_stance)
        rewrite = None
        if kind == "nondeterministic" and self.settings.rewrite:
            rewrite = propose_rewrite(
                self.gold, pair, self.context.schema, self.options, self.context.seed
            )
        where = "the shipped database" if database.tables is None else "the database below"
        realism, breaks = ("on_data", []) if database.tables is None else self._tiers[pair.b]
        return Hazard(
            kind,
            pair.reason,
            f"{pair.why}; on {where} the two variants return different rows",
            Witness(
                "shipped" if database.tables is None else "generated",
                dict(database.tables) if database.tables is not None else None,
                shown.a_rows,
                shown.b_rows,
                queries=[pair.a, pair.b],
                realism=realism,
                breaks=breaks,
            ),
            variant=pair.b,
            exploit=exploit,
            rewrite=rewrite,
        )

    def _witness(self, pair: v.Pair) -> tuple[Database, Any] | None:
        timeout = self.settings.exec_timeout
        if not self.slow:
            shown = show(self.context.database, pair.a, pair.b, timeout)
            if shown.differ:
                return self.context.database, shown
        schema = self.context.schema
        if pair.reason == "text_numbers":
            schema = _digits_only(schema, self.context.text_numbers)
        # Against the shipped database as the user's data: the witness says whether it is
        # realistic there, or the edge case it needs ("needs an empty cards table").
        verdict = check(pair.b, pair.a, schema, "sqlite", self.options,
                        seed_data=self.context.seed, data=self.context.shipped)  # fmt: skip
        if verdict.verdict == "error":
            # The shipped file could not serve as data (read, or matched to the schema):
            # the hazard is still looked for, untiered, as it was before there were tiers.
            verdict = check(pair.b, pair.a, schema, "sqlite", self.options,
                            seed_data=self.context.seed)  # fmt: skip
        if verdict.verdict != "not_equivalent" or verdict.counterexample is None:
            return None
        example = verdict.counterexample
        self._tiers[pair.b] = (example.realism, list(example.breaks or []))
        generated = Database(ddl=self.context.ddl, tables=verdict.counterexample.tables)
        shown = show(generated, pair.a, pair.b, timeout)
        if not shown.differ:
            return None  # the real DDL refuses it, or SQLite does not see the difference
        return generated, shown

    def _exploit(self, pair: v.Pair, witness: Database, unknown: bool) -> dict[str, Any]:
        """How Spider's and BIRD's rules judge the exploiting prediction, on the shipped
        database and on the witness, and which of them misjudge it."""
        timeout = self.settings.exec_timeout
        prediction = pair.prediction
        out: dict[str, Any] = {"prediction": prediction,
                               "correct": None if unknown else pair.exploit_is_correct}  # fmt: skip
        misjudged = []
        rules: tuple[Rule, ...] = ("spider", "bird")
        for rule in rules:
            shipped = None if self.slow else judge(
                rule, self.gold, prediction, self.context.database, timeout)  # fmt: skip
            on_witness = (
                shipped if witness.tables is None
                else judge(rule, self.gold, prediction, witness, timeout)
            )  # fmt: skip
            out[rule] = {"shipped": shipped, "witness": on_witness}
            if not unknown and any(
                m is not None and m != pair.exploit_is_correct for m in (shipped, on_witness)
            ):
                misjudged.append(rule)
        out["misjudged_by"] = misjudged
        return out


def _empty(gold: str, context: GoldContext, settings: AuditSettings, seconds: float) -> Hazard:
    database = context.database
    exploit: dict[str, Any] = {"prediction": EMPTY_PREDICTION, "correct": False}
    misjudged = []
    rules: tuple[Rule, ...] = ("spider", "bird")
    for rule in rules:
        match = judge(rule, gold, EMPTY_PREDICTION, database, settings.exec_timeout)
        exploit[rule] = {"shipped": match, "witness": match}
        if match:
            misjudged.append(rule)
    exploit["misjudged_by"] = misjudged
    return Hazard(
        "empty",
        "empty_on_shipped",
        "the gold returns no row on the shipped database: any empty answer passes there",
        Witness("shipped", gold_rows=[], seconds=round(seconds, 3), row_count=0,
                realism="on_data", breaks=[]),
        variant=EMPTY_PREDICTION,
        exploit=exploit,
    )


def _digits_only(schema: Schema, columns: frozenset[tuple[str, str]]) -> Schema:
    """``schema`` with each numeric-text column checked to hold digits only, so that a
    witness of a text comparison holds numbers stored as text, not arbitrary words."""
    tables = []
    for table in schema.tables:
        checks = list(table.checks)
        for column in table.columns:
            if (table.name, column.name) in columns:
                checks.append(_digits_check(column))
        tables.append(dataclasses.replace(table, checks=tuple(checks)))
    return dataclasses.replace(schema, tables=tuple(tables))


def _digits_check(column: Column) -> exp.Expression:
    name = exp.column(column.name, quoted=True).sql("duckdb")
    parsed = sqlglot.parse_one(f"{name} NOT GLOB '*[^0-9]*' AND {name} <> ''", read="duckdb")
    return cast(exp.Expression, parsed)


def numeric_text_columns(
    schema: Schema, database: Database, limit: int = 200
) -> set[tuple[str, str]]:
    """TEXT columns of ``schema`` whose first ``limit`` shipped values (non-NULL, at least
    two) all read as numbers: the columns a text comparison may get wrong."""
    out: set[tuple[str, str]] = set()
    for table in schema.tables:
        text_columns = [c for c in table.columns if c.affinity == "TEXT"]
        for column in text_columns:
            sql = (
                f'SELECT "{column.name}" FROM "{table.name}" '
                f'WHERE "{column.name}" IS NOT NULL LIMIT {limit}'
            )
            run = run_on(database, sql, 5.0)
            values = [r[0] for r in run.rows or []]
            if len(values) >= 2 and all(_number(x) for x in values):
                out.add((table.name, column.name))
    return out


def _number(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True
