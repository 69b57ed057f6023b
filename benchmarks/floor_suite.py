"""The "random floor" of issue 15: a plain random test suite, as Spider's test-suite
evaluator builds one (Zhong et al. 2020, github taoyds/test-suite-sql-eval).

For a pair of queries it fills N tiny databases (default 300) with a seeded
``random.Random``: 0-3 rows per table (mostly 1-3; one database in five is "large",
up to 8 rows per table, so that differences needing 5-7 rows in one table are
reachable), values drawn from the literals harvested from both queries (numbers with
their neighbours v-1, v+1 and -v, decimals also v+-0.01; strings with their case
variants, LIKE patterns with the wildcards filled in, date-shaped strings with the
neighbouring days and a time of day), plus a few defaults per type; NULL sometimes
in nullable columns; PRIMARY KEY / UNIQUE respected; FOREIGN KEY values drawn from
the parent's rows. Only the tables the queries read (and their parents) are filled.
Both queries run on the dialect's own engine (SQLite: one in-memory connection per
schema, tables created once from the DDL, DELETE + executemany per database; DuckDB:
the same, with one multi-row INSERT per table); a database on which either query
fails is skipped. Results are compared as the evaluator does: as lists when the
reference has a top-level ORDER BY, else as multisets; values normalised (floats to
9 decimals, bools as ints); columns may come in another order.

Nothing here comes from sqlequiv's search: only the standard library, sqlite3, duckdb
and sqlglot, and ``sqlequiv.schema`` to read the DDL.

The floor is unsound by construction: under ``ORDER BY ... LIMIT`` ties the engine
picks a row, and two equivalent queries may pick different ones.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp

from sqlequiv.schema import Column, Schema, Table, load_schema

__all__ = ["FloorResult", "Pools", "floor_check", "harvest", "results_equal"]

_DATE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$")

_INT_DEFAULTS = (0, 1, 2, 3, -1)
_FLOAT_DEFAULTS = (0.0, 1.0, 2.5, 3.14159, -1.25)
_TEXT_DEFAULTS = ("a", "b", "A")
_DATE_DEFAULTS = ("2020-01-01", "2021-06-15")
_STAMP_DEFAULTS = ("2020-01-01 00:00:00", "2021-06-15 12:30:00")


@dataclass
class FloorResult:
    """What the floor found for one pair."""

    refuted: bool
    #: Index (0-based) of the first distinguishing database, None when not refuted.
    db_index: int | None = None
    database: dict[str, list[dict[str, Any]]] | None = None
    reference_rows: list[tuple[Any, ...]] | None = None
    candidate_rows: list[tuple[Any, ...]] | None = None
    #: Databases on which both queries ran; databases skipped (a query failed).
    tried: int = 0
    skipped: int = 0
    seconds: float = 0.0
    #: The message when a query fails on the empty database (nothing was tried then).
    error: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- constants


@dataclass
class Pools:
    """The values harvested from the two queries, by kind."""

    ints: list[int]
    floats: list[float]
    texts: list[str]
    dates: list[str]
    stamps: list[str]


def _add(out: list[Any], value: Any) -> None:
    if value not in out:
        out.append(value)


def _shift_day(text: str, days: int) -> str | None:
    try:
        parts = [int(p) for p in text.split("-")]
        return (dt.date(*parts) + dt.timedelta(days=days)).isoformat()
    except (ValueError, TypeError):
        return None


def harvest(queries: Iterable[str], dialect: str) -> Pools:
    """Literals of the queries and their neighbours, plus the defaults per type."""
    nums: list[float | int] = []
    strings: list[str] = []
    for sql in queries:
        try:
            trees = sqlglot.parse(sql, read=dialect)
        except sqlglot.errors.ParseError:
            continue
        for tree in trees:
            if tree is None:
                continue
            for lit in tree.find_all(exp.Literal):
                if lit.is_string:
                    _add(strings, lit.this)
                    continue
                try:
                    text = lit.this
                    value: float | int = float(text) if any(c in text for c in ".eE") else int(text)
                except ValueError:
                    continue
                if isinstance(lit.parent, exp.Neg):
                    value = -value
                _add(nums, value)
    ints: list[int] = []
    floats: list[float] = []
    for v in nums:
        if isinstance(v, int):
            for w in (v, v - 1, v + 1, -v):
                _add(ints, w)
                _add(floats, float(w))
        else:
            for w in (v, v - 1, v + 1, v - 0.01, v + 0.01, -v):
                _add(floats, round(w, 9))
            _add(ints, math.floor(v))
            _add(ints, math.ceil(v))
    texts: list[str] = []
    dates: list[str] = []
    stamps: list[str] = []
    for s in strings:
        _add(texts, s)
        if "%" in s or "_" in s:  # a LIKE pattern: what it matches, and a near miss
            _add(texts, s.replace("%", "").replace("_", "x"))
            _add(texts, s.replace("%", "x").replace("_", "x"))
        for variant in (s.upper(), s.lower(), s.capitalize()):
            _add(texts, variant)
        if _DATE.match(s):
            day = _shift_day(s, 0) or s
            for d in (day, _shift_day(day, -1), _shift_day(day, 1)):
                if d:
                    _add(dates, d)
                    _add(texts, d)
                    for clock in ("00:00:00", "10:00:00", "23:59:59"):
                        _add(stamps, f"{d} {clock}")
            _add(texts, f"{day} 10:00:00")
        elif _STAMP.match(s):
            _add(stamps, s.replace("T", " ") if len(s) > 16 else s.replace("T", " ") + ":00")
            _add(texts, s)
            _add(dates, s[:10])
    for v in nums:  # numbers compared with TEXT columns (a year stored as text)
        _add(texts, str(v))
    for d in _INT_DEFAULTS:
        _add(ints, d)
    for f in _FLOAT_DEFAULTS:
        _add(floats, f)
    for t in _TEXT_DEFAULTS:
        _add(texts, t)
    for d in _DATE_DEFAULTS:
        _add(dates, d)
    for s in _STAMP_DEFAULTS:
        _add(stamps, s)
    return Pools(ints, floats, texts, dates, stamps)


def _kind(col: Column) -> str:
    t = col.type
    if t.is_type(*exp.DataType.INTEGER_TYPES):
        return "int"
    if t.is_type(*exp.DataType.REAL_TYPES):
        return "float"
    if t.is_type(exp.DataType.Type.BOOLEAN):
        return "bool"
    if t.is_type(exp.DataType.Type.DATE):
        return "date"
    if t.is_type(*exp.DataType.TEMPORAL_TYPES):
        return "stamp"
    return "text"


def _pool(col: Column, pools: Pools, key: bool) -> Sequence[Any]:
    kind = _kind(col)
    if kind == "int":
        return pools.ints + [i for i in range(1, 11) if i not in pools.ints] if key else pools.ints
    if kind == "float":
        return pools.floats
    if kind == "bool":
        return (True, False)
    if kind == "date":
        return pools.dates
    if kind == "stamp":
        return pools.stamps
    if key:
        return pools.texts + [f"k{i}" for i in range(10)]
    return pools.texts


# ---------------------------------------------------------------- databases


def _row_counts(rng: random.Random, tables: Sequence[Table]) -> dict[str, int]:
    if rng.random() < 0.2:  # a "large" database
        return {t.name: rng.randint(1, 8) for t in tables}
    return {t.name: rng.choice((0, 1, 1, 2, 2, 3, 3)) for t in tables}


@dataclass(frozen=True)
class _Plan:
    """How to fill one table: per plain column (name, nullable, values), the foreign keys
    (columns, parent, parent columns, nullable) and the keys."""

    table: Table
    plain: tuple[tuple[str, bool, tuple[Any, ...]], ...]
    fks: tuple[tuple[tuple[str, ...], str, tuple[str, ...], bool], ...]
    keys: tuple[tuple[str, ...], ...]


def plan(tables: Sequence[Table], pools: Pools) -> list[_Plan]:
    """The per-table value pools (computed once per pair: column types are slow to read)."""
    plans = []
    for table in tables:
        fk_cols = {c for fk in table.foreign_keys for c in fk.columns}
        key_cols = {c for key in table.keys for c in key}
        plain = tuple(
            (
                col.name,
                col.nullable and col.name not in key_cols,
                tuple(_pool(col, pools, col.name in key_cols)),
            )
            for col in table.columns
            if col.name not in fk_cols
        )
        fks = tuple(
            (
                fk.columns,
                fk.ref_table,
                fk.ref_columns,
                all(table.column(c).nullable for c in fk.columns),
            )
            for fk in table.foreign_keys
        )
        plans.append(_Plan(table, plain, fks, table.keys))
    return plans


def generate(rng: random.Random, plans: Sequence[_Plan]) -> dict[str, list[dict[str, Any]]]:
    """One database: rows per table (parents first), keys and foreign keys respected."""
    db: dict[str, list[dict[str, Any]]] = {}
    counts = _row_counts(rng, [p.table for p in plans])
    for p in plans:
        name = p.table.name
        rows: list[dict[str, Any]] = []
        db[name] = rows
        seen: list[set[tuple[Any, ...]]] = [set() for _ in p.keys]
        for _ in range(counts[name]):
            for _attempt in range(8):
                row = _row(rng, p, db, rows)
                if row is None:
                    break
                keys = [tuple(row[c] for c in key) for key in p.keys]
                if p.table.primary_key and any(v is None for v in keys[0]):
                    continue
                if any(None not in k and k in s for k, s in zip(keys, seen, strict=True)):
                    continue
                for k, s in zip(keys, seen, strict=True):
                    s.add(k)
                rows.append(row)
                break
    return db


def _row(
    rng: random.Random,
    p: _Plan,
    db: dict[str, list[dict[str, Any]]],
    own: list[dict[str, Any]],
) -> dict[str, Any] | None:
    row: dict[str, Any] = {}
    for name, nullable, values in p.plain:
        row[name] = None if nullable and rng.random() < 0.12 else rng.choice(values)
    for cols, parent_table, ref_cols, nullable in p.fks:
        parents = own if parent_table == p.table.name else db.get(parent_table, [])
        if parents and not (nullable and rng.random() < 0.1):
            parent = rng.choice(parents)
            for c, rc in zip(cols, ref_cols, strict=True):
                row[c] = parent[rc]
        elif nullable:
            for c in cols:
                row[c] = None
        else:
            return None  # a NOT NULL reference to an empty parent: no such row
    return row


# ---------------------------------------------------------------- engines


class _Engine:
    """One connection per (DDL file, dialect); the tables are created once."""

    def __init__(self, ddl_path: Path, schema: Schema, dialect: str) -> None:
        self.dialect = dialect
        self.schema = schema
        if dialect == "sqlite":
            self.con: Any = sqlite3.connect(":memory:")
            self.con.executescript(ddl_path.read_text(encoding="utf-8"))
        else:
            self.con = duckdb.connect(":memory:")
            self.con.execute(schema.ddl(constraints=False))
        self.filled: set[str] = set()
        # Per table: the column names, the INSERT statement, and which columns need a
        # date / timestamp object (DuckDB) rather than the ISO text.
        self.inserts: dict[str, tuple[tuple[str, ...], str, tuple[Any, ...]]] = {}
        for table in schema:
            cols = table.column_names
            marks = ", ".join("?" for _ in cols)
            names = ", ".join(f'"{c}"' for c in cols)
            conv = tuple(
                None if dialect == "sqlite" else _CONVERT.get(_kind(table.column(c))) for c in cols
            )
            sql = f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})'
            self.inserts[table.name] = (cols, sql, conv)

    def load(self, db: dict[str, list[dict[str, Any]]]) -> None:
        for name in list(self.filled):
            if not db.get(name):
                self.con.execute(f'DELETE FROM "{name}"')
                self.filled.discard(name)
        for name, rows in db.items():
            if name in self.filled:
                self.con.execute(f'DELETE FROM "{name}"')
            if not rows:
                continue
            cols, sql, conv = self.inserts[name]
            values = [
                tuple(
                    r[c] if f is None or r[c] is None else f(r[c])
                    for c, f in zip(cols, conv, strict=True)
                )
                for r in rows
            ]
            if self.dialect == "sqlite":
                self.con.executemany(sql, values)
            else:  # one statement for all rows: DuckDB's executemany costs ~1 ms a row
                rows_sql = ", ".join([sql.split(" VALUES ", 1)[1]] * len(values))
                flat = [v for row in values for v in row]
                self.con.execute(sql.split(" VALUES ", 1)[0] + " VALUES " + rows_sql, flat)
            self.filled.add(name)

    def run(self, sql: str) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.con.execute(sql).fetchall()]


_CONVERT: dict[str | None, Any] = {
    "date": dt.date.fromisoformat,
    "stamp": dt.datetime.fromisoformat,
}
_ENGINES: dict[tuple[str, str], _Engine] = {}
_SCHEMAS: dict[tuple[str, str], Schema] = {}


def _engine(ddl_path: Path, dialect: str) -> _Engine:
    key = (str(ddl_path), dialect)
    if key not in _ENGINES:
        _ENGINES[key] = _Engine(ddl_path, load_ddl(ddl_path, dialect), dialect)
    return _ENGINES[key]


def load_ddl(ddl_path: Path, dialect: str) -> Schema:
    """The DDL file read with ``sqlequiv.schema`` (cached)."""
    key = (str(ddl_path), dialect)
    if key not in _SCHEMAS:
        _SCHEMAS[key] = load_schema(Path(ddl_path), dialect)
    return _SCHEMAS[key]


# ---------------------------------------------------------------- comparison


def _norm(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        value = round(value, 9) + 0.0  # -0.0 -> 0.0
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat(sep=" ") if isinstance(value, dt.datetime) else value.isoformat()
    return value


def _norm_rows(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [tuple(_norm(v) for v in row) for row in rows]


def results_equal(
    reference: list[tuple[Any, ...]], candidate: list[tuple[Any, ...]], ordered: bool
) -> bool:
    """Same rows (as lists when ``ordered``, else as multisets), columns in any order."""
    ref, cand = _norm_rows(reference), _norm_rows(candidate)
    if len(ref) != len(cand):
        return False
    width = len(ref[0]) if ref else None
    if ref and any(len(r) != width for r in cand):
        return False

    def same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
        return a == b if ordered else Counter(a) == Counter(b)

    if same(ref, cand):
        return True
    if not ref or width is None or width > 5:
        return False
    for perm in itertools.permutations(range(width)):
        if same(ref, [tuple(row[i] for i in perm) for row in cand]):
            return True
    return False


def has_top_order(sql: str, dialect: str) -> bool:
    """Whether the query's outermost level has an ORDER BY."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.ParseError:
        return "order by" in sql.lower()
    return bool(tree.args.get("order"))


def _tables_read(sqls: Iterable[str], dialect: str, schema: Schema) -> set[str]:
    names: set[str] = set()
    for sql in sqls:
        try:
            tree = sqlglot.parse_one(sql, read=dialect)
        except sqlglot.errors.ParseError:
            return set(schema.table_names)
        names.update(t.name.lower() for t in tree.find_all(exp.Table))
    return {n for n in names if n in schema}


# ---------------------------------------------------------------- the floor


def floor_check(
    reference: str,
    candidate: str,
    ddl_path: str | Path,
    dialect: str,
    n: int = 300,
    seed: int = 0,
) -> FloorResult:
    """Run the random floor on one pair; stop at the first distinguishing database."""
    start = time.perf_counter()
    engine = _engine(Path(ddl_path), dialect)
    schema = engine.schema
    rng = random.Random(seed)
    pools = harvest((reference, candidate), dialect)
    tables = schema.closure(_tables_read((reference, candidate), dialect, schema)).topological()
    plans = plan(tables, pools)
    ordered = has_top_order(reference, dialect)
    result = FloorResult(refuted=False)
    for index in range(n):
        db = generate(rng, plans)
        try:
            engine.load(db)
            ref_rows = engine.run(reference)
            cand_rows = engine.run(candidate)
        except (sqlite3.Error, duckdb.Error, ValueError, OverflowError) as e:
            result.skipped += 1
            result.details.setdefault("first_failure", f"{type(e).__name__}: {e}"[:200])
            continue
        result.tried += 1
        if not results_equal(ref_rows, cand_rows, ordered):
            result.refuted = True
            result.db_index = index
            result.database = {k: v for k, v in db.items() if v}
            result.reference_rows = ref_rows
            result.candidate_rows = cand_rows
            break
    result.seconds = time.perf_counter() - start
    return result
