"""A check against the user's own data (``--data``): counterexamples realistic first.

:func:`decide_with_data` decides the pair as :func:`~sqlequiv.pipeline.decide` does, and
sorts any refutation into a tier (:mod:`sqlequiv.data.realism`):

1. **on_data**: both queries run, in sqlequiv's sandboxed engine, on the rows read from
   the data (every row of every table, up to a cap). If they differ there, verified as
   any find is, the data's rows are cut down to a few that still show the difference
   (rows dropped, never a value changed): the counterexample is the user's own rows.
   A sample of a larger database that shows a difference is ``realistic`` (real rows,
   not the whole data).
2. Otherwise the pair is decided as without data, so that no refutation is lost and a
   proof stays the proof it is (an ``equivalent`` or an ``error`` ends the check here).
   Its counterexample is mended toward the data (:func:`~sqlequiv.pipeline.repair.mend`:
   the values it breaks facts with by accident become the data's, a dangling reference
   gets its parent) and verified again; one that breaks no fact mined from the data is
   ``realistic``.
3. Otherwise (or when nothing was refuted), small sets of the data's own rows (1-3 a
   table the queries read, with the rows their references point at: the test-suite
   evaluator's distilled databases), then a random floor over the schema with every
   fact it can honour added as a constraint and the data's values in its pools: a
   refutation there that breaks no fact is ``realistic``. Failing that, the first
   mended refutation stands as ``edge``, with the facts it still breaks in words: the
   ones the difference needs.

Mined facts only ever sort refutations: a proof is about the declared schema, and a
database of the augmented schema satisfies the declared one.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence

from sqlequiv.data.mining import Fact, mine
from sqlequiv.data.realism import (
    EDGE,
    ON_DATA,
    REALISTIC,
    augmented,
    broken_facts,
    data_domains,
)
from sqlequiv.data.source import Snapshot
from sqlequiv.database import Database, Row
from sqlequiv.errors import QueryFailed
from sqlequiv.options import Options
from sqlequiv.pipeline import decide as decide_stages
from sqlequiv.pipeline.pair import Pair, SeedData
from sqlequiv.pipeline.refute import floor_search, verify
from sqlequiv.pipeline.repair import dress, mend, with_parents
from sqlequiv.schema.model import Schema
from sqlequiv.search.shrink import shrink
from sqlequiv.verdict import Counterexample, Verdict

__all__ = ["ON_DATA_MAX_ROWS", "SEED_ROWS", "decide_with_data", "narrower", "sort_examples"]

#: The most rows (every table together) the queries are run on as "the data".
ON_DATA_MAX_ROWS = 5_000
#: Rows per table that join the value pools of the realistic search.
SEED_ROWS = 50
#: Halvings tried while cutting the data's rows down to a small counterexample, then
#: single steps of the shrinker (rows dropped only: the values stay the data's).
_HALVINGS = 24
_SHRINK_ATTEMPTS = 60

Decide = Callable[[Pair], Verdict]
#: Makes the pair again over another schema, with rows from the data in its pools.
Remake = Callable[[Schema, SeedData], Pair]


def narrower(options: Options) -> Options:
    """The options of the realistic search: a second random floor over a narrower space
    (the data's facts as constraints, its values in the pools), with a tenth of the
    first one's databases (it runs alone: no witness, shaped or Hypothesis phase)."""
    return dataclasses.replace(
        options,
        max_fixtures=max(1, options.max_fixtures // 5),
        floor_databases=max(1, options.floor_databases // 10),
    )


def decide_with_data(pair: Pair, snapshot: Snapshot, decide: Decide, remake: Remake) -> Verdict:
    """The verdict on ``pair``, its counterexample sorted against ``snapshot`` (see the
    module's docstring). ``decide`` decides a pair as the caller would without data;
    ``remake`` builds the pair over an augmented schema for the realistic search."""
    # The data first: where the queries differ on it, that verified refutation is the
    # best there is, and no proof can stand against it (the prover is sound), so the
    # rest of the pipeline need not run.
    with pair.timer.stage("on_data"):
        found = _on_data(pair, snapshot)
    if found is not None:
        realism = ON_DATA if snapshot.complete else REALISTIC
        example = dataclasses.replace(found, realism=realism, breaks=[])
        return pair.verdict(
            "not_equivalent", method="on_data", counterexample=example,
            evidence=dataclasses.replace(pair.gathered(), found_by="on_data"),
        )  # fmt: skip
    verdict = decide(pair)
    if verdict.verdict not in ("not_equivalent", "unknown"):
        return verdict  # a proof is about the declared schema; an error is an error
    facts = _facts(snapshot, pair.schema)
    read = set(pair.tables_read or pair.schema.table_names)
    first = verdict.counterexample
    if first is not None and first.database is not None:
        with pair.timer.stage("mend"):
            first = _mended(pair, first, first.database, snapshot, facts, read)
        breaks = broken_facts(first.database, facts, pair.schema, read)
        if not breaks:
            return dataclasses.replace(verdict, counterexample=_tiered(first, REALISTIC, []))
    realistic = _realistic(pair, snapshot, facts, read, remake)
    if realistic is not None:
        return realistic
    if first is None:
        return verdict
    breaks = broken_facts(first.database, facts, pair.schema, read) if first.database else []
    return dataclasses.replace(verdict, counterexample=_tiered(first, EDGE, breaks))


def _mended(
    pair: Pair,
    example: Counterexample,
    db: Database,
    snapshot: Snapshot,
    facts: Sequence[Fact],
    read: set[str],
) -> Counterexample:
    """``example`` with the facts it breaks by accident mended (:func:`mend`), then its
    other values the data never has dressed in the data's own (:func:`dress`), verified
    from scratch; ``example`` itself when nothing changed or the changed one does not
    verify. What it still breaks is what the difference needs."""
    prober = pair.prober

    def differs(candidate: Database) -> bool:
        return prober.probe(candidate).differs

    try:
        mended = mend(db, differs, facts, snapshot, pair.schema, pair.domains, read)
        mended = dress(mended, differs, facts, snapshot, pair.schema, read)
    except QueryFailed:
        return example
    if mended == db:
        return example
    return verify(mended, pair) or example


#: The facts of each snapshot (kept with it, so that its id is not reused): a suite that
#: checks many pairs against one database mines it once.
_FACTS: dict[int, tuple[Snapshot, Schema, list[Fact]]] = {}


def _facts(snapshot: Snapshot, schema: Schema) -> list[Fact]:
    kept = _FACTS.get(id(snapshot))
    if kept is not None and kept[1] is schema:
        return kept[2]
    if len(_FACTS) > 16:
        _FACTS.clear()
    facts = mine(snapshot, schema)
    _FACTS[id(snapshot)] = (snapshot, schema, facts)
    return facts


def sort_examples(
    pair: Pair, snapshot: Snapshot, examples: Sequence[Counterexample]
) -> list[Counterexample]:
    """Several distinguishing databases (``sqlequiv fixtures``) sorted against the data:
    the data's own rows first when the queries differ on them (``on_data``), then each
    example mended and dressed toward the data as a check's is (kept as found where that
    would repeat another), ``realistic`` or ``edge`` with what it breaks, the realistic
    ones first."""
    facts = _facts(snapshot, pair.schema)
    read = set(pair.tables_read or pair.schema.table_names)
    sorted_examples: list[Counterexample] = []
    with pair.timer.stage("on_data"):
        found = _on_data(pair, snapshot)
    if found is not None:
        sorted_examples.append(_tiered(found, ON_DATA if snapshot.complete else REALISTIC, []))
    seen = {e.database.key() for e in examples if e.database is not None}
    for found_example in examples:
        example, db = found_example, found_example.database
        if db is not None:
            with pair.timer.stage("mend"):
                mended = _mended(pair, example, db, snapshot, facts, read)
            if mended.database is not None and mended.database.key() not in seen:
                seen.add(mended.database.key())
                example, db = mended, mended.database
        breaks = broken_facts(db, facts, pair.schema, read) if db is not None else []
        sorted_examples.append(_tiered(example, EDGE if breaks else REALISTIC, breaks))
    order = {ON_DATA: 0, REALISTIC: 1, EDGE: 2}
    return sorted(sorted_examples, key=lambda e: order[str(e.realism)])


def _tiered(example: Counterexample, realism: str, breaks: list[str]) -> Counterexample:
    return dataclasses.replace(example, realism=realism, breaks=breaks)


def _on_data(pair: Pair, snapshot: Snapshot) -> Counterexample | None:
    """The data's own rows, cut down, when the queries differ on them; else None."""
    # Only the tables the queries read (and the parents their keys need) can matter.
    searched = set(pair.searched.table_names)
    db = Database({t: rows for t, rows in snapshot.rows.items() if t in searched})
    if db.size > ON_DATA_MAX_ROWS:
        return None
    prober = pair.prober

    def differs(candidate: Database) -> bool:
        return prober.probe(candidate).differs

    try:
        pair.engine.prepare(pair.schema)
        if not differs(db):
            return None
        # A few rows of the data often show it already: cut down from there, not from
        # the thousands of rows (a handful of probes of a few rows each, not dozens of
        # the whole data).
        draws = _draws(pair, snapshot, _facts(snapshot, pair.schema), ON_DATA_DRAWS)
        small = next((d for d in draws if differs(d)), None)
    except QueryFailed:
        return None
    if small is not None:
        found = _cut_down(pair, small, differs, halve=False)
        if found is not None:
            return found
    return _cut_down(pair, db, differs, halve=True)


def _cut_down(
    pair: Pair, found: Database, holds: Callable[[Database], bool], *, halve: bool
) -> Counterexample | None:
    """``found``, on which the queries differ, cut down while ``holds`` says so by dropping
    rows only (never a value: the rows stay the data's), halves of its largest tables
    first when ``halve``; then verified, the whole of ``found`` when the cut one is not."""
    try:
        start = _halved(found, holds) if halve else found
        small = shrink(start, holds, pair.schema, pair.domains,
                       max_attempts=_SHRINK_ATTEMPTS, relevant=set())  # fmt: skip
    except QueryFailed:
        return None
    return verify(small, pair) or verify(found, pair)


def _halved(db: Database, holds: Callable[[Database], bool]) -> Database:
    """``db`` with halves of its largest tables dropped while the difference holds: the
    shrinker then takes a few hundred rows, not thousands, one at a time."""
    for _ in range(_HALVINGS):
        tables = sorted(
            ((len(rows), name) for name, rows in db.tables.items() if len(rows) > 1),
            reverse=True,
        )
        for _, name in tables:
            rows = db.rows(name)
            half = len(rows) // 2
            kept = next(
                (c for c in (db.replace(name, rows[:half]), db.replace(name, rows[half:]))
                 if holds(c)),
                None,
            )  # fmt: skip
            if kept is not None:
                db = kept
                break
        else:
            return db
    return db


def _realistic(
    pair: Pair, snapshot: Snapshot, facts: Sequence[Fact], read: set[str], remake: Remake
) -> Verdict | None:
    """A refutation that breaks no fact of the data: first among small sets of the data's
    own rows, then over the schema with the facts as constraints and the data's values
    in the pools; else None."""
    with pair.timer.stage("realistic_rows"):
        rows = _row_subsets(pair, snapshot, facts, read)
    if rows is not None:
        return pair.verdict(
            "not_equivalent", method="fixture_search", counterexample=rows,
            evidence=dataclasses.replace(pair.gathered(), found_by="data_rows"),
        )  # fmt: skip
    seed = {t: rows[:SEED_ROWS] for t, rows in snapshot.rows.items()}
    stricter = remake(augmented(pair.schema, facts), seed)
    # The pools of the data's own values (a cached property, set before the search).
    stricter.__dict__["domains"] = data_domains(stricter.domains, snapshot, stricter.schema)
    with pair.timer.stage("realistic_search"):
        verdict = decide_stages(stricter, (floor_search,))
    example = verdict.counterexample
    if verdict.verdict != "not_equivalent" or example is None or example.database is None:
        return None
    if broken_facts(example.database, facts, pair.schema, read):
        return None
    timings = {**pair.timer.timings, **{k: v for k, v in verdict.timings.items()
                                        if k not in pair.timer.timings}}  # fmt: skip
    return dataclasses.replace(
        verdict, counterexample=_tiered(example, REALISTIC, []), timings=timings
    )


#: Small sets of the data's rows tried by :func:`_row_subsets`, by :func:`_on_data` before
#: it halves the whole data, and rows per table in one.
ROW_SUBSETS = 24
ON_DATA_DRAWS = 20
_SUBSET_ROWS = 3


def _row_subsets(
    pair: Pair, snapshot: Snapshot, facts: Sequence[Fact], read: set[str]
) -> Counterexample | None:
    """A few of the data's own rows on which the queries differ and that break no fact
    (the test-suite evaluator's distilled databases): 1-3 rows of each table the queries
    read, drawn with a fixed seed, and the rows of other tables their values point at.
    Real rows keep every fact a row can keep (never NULL, categories, ranges); the draw
    keeps the rest (a reference has its parent, a read table is not empty), and
    :func:`~sqlequiv.data.realism.broken_facts` has the last word. Verified and cut down
    like any find, by dropping rows only."""
    prober = pair.prober

    def realistic(db: Database) -> bool:
        return not broken_facts(db, facts, pair.schema, read)

    try:
        pair.engine.prepare(pair.schema)
        draws = _draws(pair, snapshot, facts, ROW_SUBSETS)
        found = next((db for db in draws if realistic(db) and prober.probe(db).differs), None)
    except QueryFailed:
        return None
    if found is None:
        return None
    example = _cut_down(
        pair, found, lambda db: realistic(db) and prober.probe(db).differs, halve=False
    )
    if example is None or broken_facts(example.database, facts, pair.schema, read):
        return None
    return _tiered(example, REALISTIC, [])


def _draws(pair: Pair, snapshot: Snapshot, facts: Sequence[Fact], count: int) -> Iterator[Database]:
    """``count`` small sets of the data's rows: 1-3 rows of each table the queries read,
    drawn with the check's seed, with the rows of other tables their values point at.
    Drawn as they are consumed: the draws are the seed's whichever one is used first."""
    searched = [t for t in pair.searched.table_names if snapshot.rows.get(t)]
    if not searched:
        return
    rng = random.Random(pair.options.seed)
    for _ in range(count):
        tables: dict[str, tuple[Row, ...]] = {}
        for name in searched:
            rows = snapshot.rows[name]
            k = min(len(rows), rng.randint(1, _SUBSET_ROWS))
            tables[name] = tuple(rng.sample(rows, k))
        yield with_parents(Database(tables), snapshot, facts, pair.schema)
