"""A deterministic rewrite of a nondeterministic gold, and what sqlequiv can say of it.

The rewrite fixes the choice the gold leaves to the engine: every output column appended
to the ORDER BY as a tie-break, or each bare column wrapped in ``MIN``. It is checked
against the gold *on the databases where the gold is deterministic*, honestly stated as
a schema on which the gold cannot tie: its ORDER BY key (or its GROUP BY key) made
UNIQUE when it is a list of plain columns of one table. ``proved`` is true only when
:func:`sqlequiv.check` says ``equivalent`` there; otherwise the verdict is reported as
it came (``unknown`` with its evidence, or a counterexample).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlglot
from sqlglot import exp

from sqlequiv.api import SeedData, check
from sqlequiv.goldaudit.variants import Pair
from sqlequiv.options import Options
from sqlequiv.schema.model import Schema


def propose_rewrite(
    gold: str, pair: Pair, schema: Schema, options: Options, seed: SeedData | None = None
) -> dict[str, Any] | None:
    """The rewrite of ``pair`` (None when it has none) with the verdict of "rewrite ≡ gold
    on databases where the gold cannot tie"."""
    if not pair.rewrite:
        return None
    tree = sqlglot.parse_one(gold, read="sqlite")
    if pair.reason == "bare_column":
        group = tree.args.get("group")
        keys = list(group.expressions) if group is not None else []
        what = "GROUP BY key"
    else:
        order = tree.args.get("order")
        keys = [o.this for o in order.expressions] if order is not None else []
        what = "ORDER BY key"
    unique = _unique_key(tree, keys, schema)
    if unique is not None:
        table, columns = unique
        under = f"the schema with UNIQUE ({', '.join(columns)}) on {table}: the {what} cannot tie"
        schema = _with_unique(schema, table, columns)
    else:
        under = (
            f"the declared schema (the {what} is not a list of columns of one table, so no "
            "UNIQUE constraint can rule its ties out: the verdict covers every database)"
        )
    verdict = check(pair.rewrite, gold, schema, "sqlite", options, seed_data=seed)
    return {
        "sql": pair.rewrite,
        "verdict": verdict.verdict,
        "method": verdict.method,
        "proved": verdict.verdict == "equivalent",
        "under": under,
        "counterexample": (
            verdict.counterexample.to_dict() if verdict.counterexample is not None else None
        ),
    }


def _unique_key(
    tree: exp.Expr, keys: list[exp.Expr], schema: Schema
) -> tuple[str, tuple[str, ...]] | None:
    """``(table, columns)`` when every key is a plain column of one table of the query."""
    if not keys or not all(isinstance(k, exp.Column) for k in keys):
        return None
    aliases = {t.alias_or_name.lower(): t.name.lower() for t in tree.find_all(exp.Table)}
    owners: set[str] = set()
    columns: list[str] = []
    for key in keys:
        assert isinstance(key, exp.Column)
        name = key.name.lower()
        if key.table:
            owner = aliases.get(key.table.lower())
        else:
            holders = [
                t for t in set(aliases.values()) if t in schema and name in
                schema.table(t).column_names
            ]  # fmt: skip
            owner = holders[0] if len(holders) == 1 else None
        if owner is None or owner not in schema or name not in schema.table(owner).column_names:
            return None
        owners.add(owner)
        columns.append(name)
    if len(owners) != 1:
        return None
    return owners.pop(), tuple(dict.fromkeys(columns))


def _with_unique(schema: Schema, table: str, columns: tuple[str, ...]) -> Schema:
    tables = tuple(
        dataclasses.replace(t, unique=(*t.unique, columns)) if t.name == table else t
        for t in schema.tables
    )
    return dataclasses.replace(schema, tables=tables)
