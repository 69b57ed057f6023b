"""Mend a counterexample toward the user's data: keep only the breaks the difference needs.

A counterexample found over the declared schema is shrunk toward the simplest values
(``'a'``, ``0``, NULL), so it breaks facts of the data (:mod:`sqlequiv.data.mining`) by
accident as often as by need: a NULL name nobody reads, a height of 0 where the data's
run from 1.65 to 2.02, a team id with no team. :func:`mend` changes such values, one
fact at a time, into values the data has (or the queries' own constants that keep the
fact), adds the parent row a dangling reference lacks or a data row to a table left
empty, and keeps each change only if the queries still differ, every declared
constraint still holds and fewer facts are broken. What is left broken is what the
difference needs ("needs an empty match table"), and a counterexample with nothing
left broken is ``realistic``.

The result is a candidate: :func:`sqlequiv.pipeline.refute.verify` has the last word.
The number of databases tried is bounded (deterministic: no clock).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

from sqlequiv.data.mining import Fact, comparable, same_value
from sqlequiv.data.realism import broken_facts
from sqlequiv.data.source import Snapshot
from sqlequiv.database import Database, Row
from sqlequiv.schema.model import Schema
from sqlequiv.search.domains import Domains

__all__ = ["DRESS_ATTEMPTS", "MEND_ATTEMPTS", "dress", "mend", "with_parents"]

#: Databases :func:`mend` tries at most (each one a probe of both queries).
MEND_ATTEMPTS = 60
#: Replacement values tried for one broken fact.
_CHOICES = 4


def mend(
    db: Database,
    holds: Callable[[Database], bool],
    facts: Sequence[Fact],
    snapshot: Snapshot,
    schema: Schema,
    domains: Domains,
    read: Collection[str],
    *,
    attempts: int = MEND_ATTEMPTS,
) -> Database:
    """``db`` with as many broken facts mended as keep ``holds`` (the queries differ and
    the declared constraints hold): see the module docstring.

    Example:
        >>> from sqlequiv.schema import load_schema
        >>> from sqlequiv.search.domains import build_domains
        >>> from sqlequiv.search.harvest import Harvest
        >>> s = load_schema("CREATE TABLE t (id INT PRIMARY KEY, name TEXT, v INT)")
        >>> snap = Snapshot("x", {"t": ((1, "ann", 5), (2, "bob", 7))}, {"t": 2})
        >>> from sqlequiv.data.mining import mine
        >>> facts = mine(snap, s)
        >>> db = Database({"t": ((1, None, 7),)})
        >>> mended = mend(db, lambda d: d.rows("t")[0][2] == 7, facts, snap, s,
        ...               build_domains(s, Harvest(), 3), {"t"})
        >>> mended.tables
        {'t': ((1, 'ann', 7),)}
    """
    broken = _count(db, facts, schema, read)
    # A fact none of whose mends kept the difference is not tried again: the difference
    # needs it broken (or the attempts are better spent on the others).
    needed: set[Fact] = set()
    for _ in range(len(facts) + 1):  # each pass mends at least one fact, or ends
        if not broken:
            return db
        better = None
        for fact in facts:
            if fact in needed or fact.broken_by(db, schema) is None or not _counts(fact, db, read):
                continue
            for mended in _mends(fact, db, snapshot, schema, domains):
                candidate = with_parents(mended, snapshot, facts, schema)
                if attempts <= 0:
                    return db
                if candidate == db:
                    continue
                fewer = _count(candidate, facts, schema, read)
                if fewer >= broken:
                    continue
                attempts -= 1
                if holds(candidate):
                    better = candidate, fewer
                    break
            if better is not None:
                break
            needed.add(fact)
        if better is None:
            return db
        db, broken = better
    return db


#: Databases :func:`dress` tries at most.
DRESS_ATTEMPTS = 40


def dress(
    db: Database,
    holds: Callable[[Database], bool],
    facts: Sequence[Fact],
    snapshot: Snapshot,
    schema: Schema,
    read: Collection[str],
    *,
    attempts: int = DRESS_ATTEMPTS,
) -> Database:
    """``db`` with the values the data never has (``'a'``, ``0``: the shrinker's simplest)
    replaced, a distinct value of a column at a time, by the data's own values of that
    column, each change kept only if ``holds`` and no more facts are broken: a league
    named ``'Premier'`` rather than ``'a'``, where the name does not matter to the
    difference. A value the difference needs stays (a join's ``0`` on both sides).

    Example:
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (id INT PRIMARY KEY, name TEXT, v INT)")
        >>> snap = Snapshot("x", {"t": ((1, "Ann", 5), (2, "Bob", 7))}, {"t": 2})
        >>> dress(Database({"t": ((1, "a", 0),)}), lambda d: d.rows("t")[0][2] == 0,
        ...       [], snap, s, {"t"}).tables
        {'t': ((1, 'Ann', 0),)}
    """
    broken = _count(db, facts, schema, read)
    for table in schema:
        rows = db.rows(table.name)
        stored = snapshot.rows.get(table.name, ())
        if not rows or not stored:
            continue
        for at in range(len(table.columns)):
            data = Counter(r[at] for r in stored if r[at] is not None)
            known = {comparable(v) for v in data}
            for value in dict.fromkeys(r[at] for r in db.rows(table.name)):
                if value is None or comparable(value) in known:
                    continue
                taken = {comparable(r[at]) for r in db.rows(table.name)}
                choice = next((d for d, _ in data.most_common() if comparable(d) not in taken),
                              None)  # fmt: skip
                if choice is None:
                    break
                if attempts <= 0:
                    return db
                attempts -= 1
                changed = tuple(
                    (*r[:at], choice, *r[at + 1 :]) if r[at] == value else r
                    for r in db.rows(table.name)
                )
                candidate = db.replace(table.name, changed)
                if _count(candidate, facts, schema, read) <= broken and holds(candidate):
                    db = candidate
    return db


def _count(db: Database, facts: Sequence[Fact], schema: Schema, read: Collection[str]) -> int:
    return len(broken_facts(db, facts, schema, read))


def _counts(fact: Fact, db: Database, read: Collection[str]) -> bool:
    """Whether ``fact`` is one :func:`~sqlequiv.data.realism.broken_facts` counts."""
    return fact.table in read or (fact.kind != "non_empty" and fact.table in db.filled)


def _mends(
    fact: Fact, db: Database, snapshot: Snapshot, schema: Schema, domains: Domains
) -> Iterator[Database]:
    """Databases like ``db`` with ``fact`` mended, the likeliest to keep the difference
    first (a value already in the database, then the queries' constants, then the
    data's most frequent values)."""
    if fact.kind == "non_empty":
        # A row of the data (its parents are the next passes' work, as references).
        for row in snapshot.rows.get(fact.table, ())[:_CHOICES]:
            yield db.replace(fact.table, (row,))
        return
    assert fact.column is not None
    table = schema.table(fact.table)
    at = table.column_names.index(fact.column)
    rows = db.rows(fact.table)
    if fact.kind == "references":
        yield from _mend_reference(fact, db, snapshot, schema, at)
        return
    if fact.kind == "determines":
        # Each row takes the determined value of the first row that shares its own.
        other = table.column_names.index(fact.detail)
        first: dict[Any, Any] = {}
        for row in rows:
            first.setdefault(comparable(row[at]), row[other])
        agreed = tuple((*r[:other], first[comparable(r[at])], *r[other + 1 :]) for r in rows)
        yield db.replace(fact.table, agreed)
        return
    bad = [i for i, r in enumerate(rows) if _breaks(fact, r[at], [x[at] for x in rows], i)]
    if not bad:
        return
    taken = {r[at] for r in rows}
    for value in _values(fact, db, snapshot, schema, domains, at):
        if fact.kind == "unique" and value in taken:
            continue
        changed = list(rows)
        for i in bad:
            changed[i] = (*rows[i][:at], value, *rows[i][at + 1 :])
            if fact.kind == "unique":
                break  # one duplicate at a time: two new equal values would break it again
        yield db.replace(fact.table, tuple(changed))


def _breaks(fact: Fact, value: Any, column: list[Any], i: int) -> bool:
    """Whether row ``i``'s ``value`` is one that breaks ``fact``."""
    if fact.kind == "not_null":
        return value is None
    if value is None:
        return False
    if fact.kind == "unique":
        return any(same_value(value, other) for other in column[:i])
    return not fact.holds_for(value)


def _values(
    fact: Fact, db: Database, snapshot: Snapshot, schema: Schema, domains: Domains, at: int
) -> Iterator[Any]:
    """Values that keep ``fact`` for its column, at most a few, likeliest first: those
    the database already has in the column, the queries' constants, then the data's."""
    present = [r[at] for r in db.rows(fact.table)]
    interesting: tuple[Any, ...] = ()
    domain = domains.columns.get((fact.table, str(fact.column)))
    if domain is not None:
        interesting = domain.interesting
    data = [r[at] for r in snapshot.rows.get(fact.table, ())]
    frequent = [v for v, _ in Counter(v for v in data if v is not None).most_common(_CHOICES)]
    extremes: list[Any] = list(fact.detail) if fact.kind == "range" else []
    seen: list[Any] = []
    for value in (*present, *interesting, *extremes, *frequent):
        if value is None or not fact.holds_for(value) or value in seen:
            continue
        seen.append(value)
        yield value
        if len(seen) >= 2 * _CHOICES:
            return


def _mend_reference(
    fact: Fact, db: Database, snapshot: Snapshot, schema: Schema, at: int
) -> Iterator[Database]:
    """Every dangling reference of ``fact`` mended at once: given its parent row from
    the data when the data has one for each, else all pointed at one parent (one the
    database has, or one of the data's, added)."""
    ref_table, ref_column = fact.detail
    key_at = schema.table(ref_table).column_names.index(ref_column)
    parents = db.rows(ref_table)
    rows = db.rows(fact.table)

    def dangling(value: Any) -> bool:
        return value is not None and not any(same_value(value, p[key_at]) for p in parents)

    orphans = list(dict.fromkeys(r[at] for r in rows if dangling(r[at])))
    if not orphans:
        return
    stored = snapshot.rows.get(ref_table, ())
    # The parent rows the data has for those very values keep the rows as they are.
    found = [next((p for p in stored if same_value(o, p[key_at])), None) for o in orphans]
    if all(p is not None for p in found):
        yield db.replace(ref_table, (*parents, *(p for p in found if p is not None)))
    keys = [p[key_at] for p in parents] + [p[key_at] for p in stored[:_CHOICES]]
    for key in dict.fromkeys(k for k in keys if k is not None):
        changed = tuple(
            (*r[:at], _spelled_like(key, r[at]), *r[at + 1 :]) if dangling(r[at]) else r
            for r in rows
        )
        mended = db.replace(fact.table, changed)
        if not any(same_value(key, p[key_at]) for p in parents):
            parent = next(p for p in stored if same_value(key, p[key_at]))
            mended = mended.replace(ref_table, (*parents, parent))
        yield mended


def _spelled_like(key: Any, like: Any) -> Any:
    """``key`` in the type of the value it replaces (a TEXT column pointing at an
    INTEGER key holds ``'7'``, not ``7``)."""
    if isinstance(like, str) and not isinstance(key, str):
        return str(key)
    return key


#: Levels of parents :func:`with_parents` adds.
PARENT_STEPS = 3


def with_parents(
    db: Database, snapshot: Snapshot, facts: Sequence[Fact], schema: Schema
) -> Database:
    """``db`` with, for each row, the rows of the data its references point at (declared
    foreign keys and mined references), and theirs."""
    links: list[tuple[str, str, str, str]] = [
        (f.table, str(f.column), *f.detail) for f in facts if f.kind == "references"
    ]
    for table in schema:
        for fk in table.foreign_keys:
            if len(fk.columns) == 1:
                links.append((table.name, fk.columns[0], fk.ref_table, fk.ref_columns[0]))
    tables = dict(db.tables)
    for _ in range(PARENT_STEPS):  # a parent's own parents, a few levels up
        grew = False
        for child, column, parent, key in links:
            rows = tables.get(child, ())
            if not rows or parent not in snapshot.rows:
                continue
            at = schema.table(child).column_names.index(column)
            key_at = schema.table(parent).column_names.index(key)
            present = {comparable(r[key_at]) for r in tables.get(parent, ())}
            wanted = {comparable(r[at]) for r in rows if r[at] is not None} - present
            index = _keyed(snapshot, parent, key_at)
            added = tuple(r for w in wanted for r in index.get(w, ()))
            if added:
                tables[parent] = tuple(dict.fromkeys((*tables.get(parent, ()), *added)))
                grew = True
        if not grew:
            break
    return Database(tables)


#: The data's rows of a table by the comparable value of one column, per snapshot (kept
#: with it, so that its id is not reused): parents are looked up for every draw.
_INDEXES: dict[tuple[int, str, int], tuple[Snapshot, dict[Any, tuple[Row, ...]]]] = {}


def _keyed(snapshot: Snapshot, table: str, at: int) -> dict[Any, tuple[Row, ...]]:
    kept = _INDEXES.get((id(snapshot), table, at))
    if kept is not None and kept[0] is snapshot:
        return kept[1]
    if len(_INDEXES) > 256:
        _INDEXES.clear()
    index: dict[Any, list[Row]] = {}
    for row in snapshot.rows.get(table, ()):
        if row[at] is not None:
            index.setdefault(comparable(row[at]), []).append(row)
    frozen = {k: tuple(v) for k, v in index.items()}
    _INDEXES[(id(snapshot), table, at)] = (snapshot, frozen)
    return frozen
