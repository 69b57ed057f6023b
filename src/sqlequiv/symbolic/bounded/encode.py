"""Encode a qualified query as a symbolic relation over a :class:`SymbolicDatabase`.

The encoder walks the qualified, type-annotated sqlglot tree and builds the
relation with the operators of :mod:`sqlequiv.symbolic.bounded.relations`; scalar
expressions go through the term layer's :class:`Translator`, whose hook this
module supplies for what only the relational layer knows: aggregates over
the current group, subqueries (correlated ones are re-encoded for each outer
row), and GROUP BY keys.

Whatever cannot be encoded exactly raises :class:`Unsupported`. A few
constructs are encoded exactly but with a caveat recorded on the encoder:

* ``inexact``: reasons an UNSAT answer must not be trusted (a float SUM whose
  value depends on DuckDB's addition order).
* ``nondeterministic``: conditions under which the end of a top-level LIMIT
  cuts through rows its ORDER BY leaves tied and that differ, so DuckDB's
  result is not determined by the database. The checker excludes such
  databases, as the pipeline does ("LIMIT inside ties is flagged, not
  failed"). Every other tie (cut by an OFFSET, or by a LIMIT inside a
  subquery) is left to free tie-breakers: the encoding then stands for every
  order DuckDB may choose, so UNSAT covers them all.
* ``preferences``: conditions that keep a model away from DuckDB runtime
  errors (a scalar subquery returning two rows). They are only preferences:
  the encoding of an error-free run never depends on them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import z3
from sqlglot import exp

from sqlequiv.options import Options
from sqlequiv.symbolic.bounded.aggregates import average, count_values, extreme, total
from sqlequiv.symbolic.bounded.averages import Averages
from sqlequiv.symbolic.bounded.ordering import has_limit, keys_by_output, limit_rows, output_index
from sqlequiv.symbolic.bounded.relations import (
    Relation,
    Row,
    distinct,
    except_,
    intersect,
    rows_same,
    union_all,
)
from sqlequiv.symbolic.bounded.tables import SymbolicDatabase
from sqlequiv.symbolic.terms import (
    SymBool,
    SymValue,
    Translator,
    Unsupported,
    and_,
    compare,
    ite,
    or_,
    sql_eq,
)
from sqlequiv.symbolic.terms.formulas import FALSE, TRUE, conj, count, disj, neg
from sqlequiv.symbolic.terms.sqlvalue import null_of
from sqlequiv.symbolic.terms.translate import COMPARISON_OPS

__all__ = ["MAX_ROWS", "MAX_TERMS", "BudgetExceeded", "Encoder", "RowScope", "SizeBudget"]


class BudgetExceeded(Exception):
    """A budget ran out while encoding: the wall clock (no message), or a size (the
    message says which: :class:`SizeBudget`)."""


class SizeBudget(BudgetExceeded):
    """The encoding would be larger than its deterministic budget; raised before it is built."""


#: The most rows a join may produce; beyond it the encoding gives up before building them.
MAX_ROWS = 2000

#: The most terms one encoding may build, counted before each quadratic step builds
#: them (a join's row pairs, a GROUP BY's pairs of rows times its keys, an ORDER BY
#: ... LIMIT's at :data:`ORDER_COST` each, ...). Counts, not seconds, stop an
#: encoding that would not finish: the same pair stops at the same point on any
#: machine. On the peer benchmarks and TPC-H (842 pairs) the largest encoding that
#: the 2 s bounded budget lets finish counts 6,264; every one past 25,000 ran out of
#: time (TPC-H 2, which took minutes, counts 38 million at bound 2).
MAX_TERMS = Options.max_encoding_terms

#: What one sort key of one pair of rows costs an ORDER BY ... LIMIT, in the units of
#: :data:`MAX_TERMS` (one GROUP BY key of a pair, one joined row): its three-valued
#: comparison in both directions builds about sixteen times the terms (measured: a
#: LIMIT over 36 rows x 2 keys takes 2 s to build, a GROUP BY of 144 rows x 2 keys 1.6 s).
ORDER_COST = 16


#: Select arguments the encoder understands; any other one that is set is unsupported.
_SELECT_ARGS = frozenset(
    {"with_", "expressions", "distinct", "from_", "joins", "where", "group", "having", "order",
     "limit", "offset", "kind"}
)  # fmt: skip
_SETOP_ARGS = frozenset({"with_", "this", "expression", "distinct", "order", "limit", "offset"})


@dataclass
class _Source:
    offset: int
    names: tuple[str, ...]


@dataclass
class _Group:
    """The group of the row being evaluated: its key expressions and values, and its members."""

    keys: tuple[exp.Expr, ...]
    values: tuple[SymValue, ...]
    members: tuple[tuple[z3.BoolRef, Row], ...]


@dataclass
class RowScope:
    """Name resolution for one query level, positioned on one row.

    ``level`` counts query nesting (0 for the outermost); a column found in a
    scope of a lower level than the subquery being encoded makes that
    subquery correlated.
    """

    sources: dict[str, _Source]
    level: int
    parent: RowScope | None = None
    row: Row | None = None
    group: _Group | None = None
    #: Output aliases of the SELECT (unqualified names in ORDER BY / HAVING).
    outputs: dict[str, exp.Expr] = field(default_factory=dict)

    def at(self, row: Row | None, group: _Group | None = None) -> RowScope:
        return replace(self, row=row, group=group)


@dataclass
class _Frame:
    """The CTEs of one WITH, and the scope its query is evaluated in (for correlated ones)."""

    ctes: dict[str, exp.CTE]
    outer: RowScope | None


@dataclass
class _Ordered:
    """A relation with a sort key per row, for ORDER BY ... LIMIT."""

    relation: Relation
    keys: tuple[tuple[SymValue, ...], ...]


class Encoder:
    """Encodes queries over one symbolic database (both sides share it)."""

    def __init__(
        self,
        db: SymbolicDatabase,
        *,
        deadline: float | None = None,
        averages: Averages | None = None,
        max_terms: int | None = MAX_TERMS,
    ) -> None:
        self.db = db
        self.deadline = deadline
        self.max_terms = max_terms
        #: Terms counted so far (see :data:`MAX_TERMS`).
        self.terms = 0
        self.averages = averages or Averages()
        self.inexact: list[str] = []
        self.nondeterministic: list[z3.BoolRef] = []
        self.preferences: list[z3.BoolRef] = []
        self.constraints: list[z3.BoolRef] = []
        self._ctes: list[_Frame] = []
        self._cache: dict[int, Relation] = {}
        self._touched = 1 << 30
        self._fresh = 0

    # -- entry point -----------------------------------------------------------

    def top(self, node: exp.Expr) -> Relation:
        """The relation of a whole query; a LIMIT at its top registers its tie condition."""
        return self.query(node, None, top=True)

    def query(self, node: exp.Expr, outer: RowScope | None, *, top: bool = False) -> Relation:
        """The relation of any query node (SELECT, set operation, parenthesized query)."""
        self._tick()
        if isinstance(node, exp.Subquery):
            self._only(node, {"this", "alias", "with_", "order", "limit", "offset"})
            with self._with(node, outer):
                inner = self.query(node.this, outer, top=top and not has_limit(node))
                return self._limit(node, _Ordered(inner, ()), outer, top=top, by_name=True)
        if isinstance(node, exp.Select):
            return self._select(node, outer, top=top)
        if isinstance(node, exp.SetOperation):
            return self._set_operation(node, outer, top=top)
        if isinstance(node, exp.Values):
            return self._values(node)
        raise Unsupported(f"the query form {type(node).__name__}")

    # -- bookkeeping -------------------------------------------------------------

    def _tick(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetExceeded

    def charge(self, terms: int, what: str) -> None:
        """Count ``terms`` about to be built for ``what``; past :attr:`max_terms`, raise
        :class:`SizeBudget` instead of building them."""
        self._tick()
        self.terms += terms
        if self.max_terms is not None and self.terms > self.max_terms:
            raise SizeBudget(
                f"term budget: {what} takes the encoding to {self.terms:,} terms"
                f" (limit {self.max_terms:,})"
            )

    def _only(self, node: exp.Expr, allowed: set[str] | frozenset[str]) -> None:
        for key, value in node.args.items():
            if key in allowed or value is None or value is False or value == []:
                continue
            raise Unsupported(f"{key.rstrip('_').upper()} in {type(node).__name__}")

    @contextmanager
    def _with(self, node: exp.Expr, outer: RowScope | None) -> Iterator[None]:
        """Make the CTEs of ``node``'s WITH visible (MATERIALIZED changes plans, not rows)."""
        with_ = node.args.get("with_")
        if not isinstance(with_, exp.With):
            yield
            return
        if with_.args.get("recursive"):
            raise Unsupported("a recursive CTE")
        frame = _Frame({cte.alias_or_name.lower(): cte for cte in with_.expressions}, outer)
        self._ctes.append(frame)
        try:
            yield
        finally:
            self._ctes.pop()

    def _find_cte(self, name: str) -> tuple[exp.CTE, int] | None:
        for depth in range(len(self._ctes) - 1, -1, -1):
            found = self._ctes[depth].ctes.get(name)
            if found is not None:
                return found, depth
        return None

    # -- SELECT ------------------------------------------------------------------

    def _select(self, node: exp.Select, outer: RowScope | None, *, top: bool) -> Relation:
        self._only(node, _SELECT_ARGS)
        if node.args.get("kind"):
            raise Unsupported(f"SELECT AS {node.args['kind']}")
        distinct_ = node.args.get("distinct")
        if isinstance(distinct_, exp.Distinct) and distinct_.args.get("on") is not None:
            raise Unsupported("DISTINCT ON")
        with self._with(node, outer):
            level = outer.level + 1 if outer is not None else 0
            scope, rel = self._from(node, outer, level)
            where = node.args.get("where")
            if where is not None:
                rel = self._filter(rel, scope, where.this)
            projections = list(node.expressions)
            if any(
                isinstance(p, exp.Star) or isinstance(p.unalias(), exp.Star) for p in projections
            ):
                raise Unsupported("an unexpanded *")
            names = tuple(p.alias_or_name.lower() for p in projections)
            outputs = {n: p.unalias() for n, p in zip(names, projections, strict=True)}
            scope = replace(scope, outputs=outputs)
            contexts = self._contexts(node, rel, scope)
            order = node.args.get("order")
            limited = has_limit(node)
            rows: list[Row] = []
            keys: list[tuple[SymValue, ...]] = []
            for exists, ctx in contexts:
                self._tick()
                values = tuple(self._value(p.unalias(), ctx) for p in projections)
                rows.append(Row(exists, values))
                if limited and order is not None:
                    keys.append(self._sort_key(order, ctx, projections, values, bool(distinct_)))
            out = Relation(names, tuple(rows))
            if distinct_:
                n = len(rows)
                self.charge(n * (n - 1) // 2 * len(names), f"DISTINCT over {n} rows")
                out, keys = _distinct_keyed(out, keys)
            return self._limit(node, _Ordered(out, tuple(keys)), outer, top=top, by_name=False)

    def _contexts(
        self, node: exp.Select, rel: Relation, scope: RowScope
    ) -> list[tuple[z3.BoolRef, RowScope]]:
        """One evaluation context per output row: plain rows, or one per group."""
        group = node.args.get("group")
        having = node.args.get("having")
        aggregated = (
            group is not None
            or having is not None
            or any(_has_aggregate(p) for p in node.expressions)
        )
        if not aggregated:
            return [(row.exists, scope.at(row)) for row in rel.rows]
        keys: tuple[exp.Expr, ...] = ()
        if group is not None:
            self._only(group, {"expressions"})
            keys = tuple(group.expressions)
        contexts = []
        if not keys:
            members = tuple((row.exists, row) for row in rel.rows)
            ctx = scope.at(None, _Group((), (), members))
            contexts.append((TRUE, ctx))
        else:
            n = len(rel.rows)
            self.charge(n * (n + 1) // 2 * len(keys), f"GROUP BY over {n} rows")
            key_values = [tuple(self._value(k, scope.at(row)) for k in keys) for row in rel.rows]
            same_key = [[FALSE] * n for _ in range(n)]
            for i in range(n):
                self._tick()
                for j in range(i):
                    same_key[i][j] = same_key[j][i] = rows_same(key_values[i], key_values[j])
            for i, row in enumerate(rel.rows):
                self._tick()
                earlier = disj([conj([rel.rows[j].exists, same_key[i][j]]) for j in range(i)])
                representative = conj([row.exists, neg(earlier)])
                members = tuple(
                    (row.exists if j == i else conj([other.exists, same_key[i][j]]), other)
                    for j, other in enumerate(rel.rows)
                )
                ctx = scope.at(row, _Group(keys, key_values[i], members))
                contexts.append((representative, ctx))
        if having is not None:
            contexts = [
                (conj([exists, self._predicate(having.this, ctx).true]), ctx)
                for exists, ctx in contexts
            ]
        return contexts

    def _sort_key(
        self,
        order: exp.Order,
        ctx: RowScope,
        projections: Sequence[exp.Expr],
        values: tuple[SymValue, ...],
        distinct_: bool,
    ) -> tuple[SymValue, ...]:
        key = []
        for ordered in order.expressions:
            index = output_index(ordered.this, projections)
            if index is not None:
                key.append(values[index])
            elif distinct_:
                raise Unsupported("ORDER BY a non-output expression of a DISTINCT query")
            else:
                key.append(self._value(ordered.this, ctx))
        return tuple(key)

    # -- FROM and joins ----------------------------------------------------------

    def _from(
        self, node: exp.Select, outer: RowScope | None, level: int
    ) -> tuple[RowScope, Relation]:
        from_ = node.args.get("from_")
        scope = RowScope({}, level, outer)
        if from_ is None:
            if node.args.get("joins"):
                raise Unsupported("JOIN without FROM")
            return scope, Relation((), (Row(TRUE, ()),))
        alias, rel = self._item(from_.this, outer)
        scope.sources[alias] = _Source(0, rel.names)
        for join in node.args.get("joins") or ():
            self._tick()
            self._only(join, {"this", "on", "side", "kind"})
            alias, right = self._item(join.this, outer)
            if alias in scope.sources:
                raise Unsupported(f"the alias {alias} used twice")
            width = sum(len(s.names) for s in scope.sources.values())
            scope.sources[alias] = _Source(width, right.names)
            rel = self._join(rel, right, join, scope)
        return scope, rel

    def _item(self, item: exp.Expr, outer: RowScope | None) -> tuple[str, Relation]:
        """A FROM item: its alias and its relation (columns renamed by a column alias list)."""
        alias_node = item.args.get("alias")
        alias = item.alias_or_name.lower()
        if isinstance(item, exp.Table):
            self._only(item, {"this", "alias", "db", "catalog"})
            if not isinstance(item.this, exp.Identifier):
                raise Unsupported("a table function in FROM")
            rel = self._table(item)
        elif isinstance(item, exp.Subquery):
            rel = self._derived(item.this if not has_limit(item) else item, outer)
        elif isinstance(item, exp.Values):
            rel = self._values(item)
        else:
            raise Unsupported(f"{type(item).__name__} in FROM")
        if isinstance(alias_node, exp.TableAlias) and alias_node.columns:
            names = tuple(c.name.lower() for c in alias_node.columns)
            if len(names) != rel.width:
                raise Unsupported("a column alias list of the wrong length")
            rel = Relation(names, rel.rows)
        return alias, rel

    def _table(self, item: exp.Table) -> Relation:
        name = item.name.lower()
        if not item.args.get("db"):
            found = self._find_cte(name)
            if found is not None:
                cte, depth = found
                return self._cte(cte, depth)
        if name not in self.db.schema:
            raise Unsupported(f"the table {name}")
        return self.db.relation(name)

    def _cte(self, cte: exp.CTE, depth: int) -> Relation:
        """A CTE's relation: encoded once, or per outer row when it reads the outer query."""
        cached = self._cache.get(id(cte))
        if cached is not None:
            return cached
        # A CTE sees only the CTEs declared before it (and its enclosing WITHs).
        saved = self._ctes
        frame = self._ctes[depth]
        visible = {}
        for name, other in frame.ctes.items():
            if other is cte:
                break
            visible[name] = other
        self._ctes = [*self._ctes[:depth], _Frame(visible, frame.outer)]
        touched = self._touched
        self._touched = 1 << 30
        try:
            rel = self._derived(cte.this, frame.outer)
        finally:
            self._ctes = saved
            correlated = frame.outer is not None and self._touched <= frame.outer.level
            self._touched = min(touched, self._touched)
        alias = cte.args.get("alias")
        if isinstance(alias, exp.TableAlias) and alias.columns:
            names = tuple(c.name.lower() for c in alias.columns)
            if len(names) != rel.width:
                raise Unsupported("a CTE column list of the wrong length")
            rel = Relation(names, rel.rows)
        if not correlated:
            self._cache[id(cte)] = rel
        return rel

    def _derived(self, query: exp.Expr, outer: RowScope | None) -> Relation:
        return self.query(query, outer)

    def _values(self, node: exp.Values) -> Relation:
        rows = []
        width = None
        for tup in node.expressions:
            items = tup.expressions if isinstance(tup, exp.Tuple) else [tup]
            if width is not None and len(items) != width:
                raise Unsupported("VALUES rows of different lengths")
            width = len(items)
            empty = RowScope({}, 0)
            rows.append(Row(TRUE, tuple(self._value(i, empty) for i in items)))
        if not rows:
            raise Unsupported("an empty VALUES list")
        _check_union_kinds([r.values for r in rows])
        names = tuple(f"col{i}" for i in range(width or 0))
        return Relation(names, tuple(rows))

    def _join(self, left: Relation, right: Relation, join: exp.Join, scope: RowScope) -> Relation:
        side = (join.args.get("side") or "").upper()
        kind = (join.args.get("kind") or "").upper()
        if kind not in ("", "INNER", "OUTER", "CROSS"):
            raise Unsupported(f"{kind} JOIN")
        on = join.args.get("on")
        if kind == "CROSS" and on is not None:
            raise Unsupported("CROSS JOIN with ON")
        if side and on is None:
            raise Unsupported(f"{side} JOIN without ON")
        if kind == "OUTER" and not side:
            raise Unsupported("OUTER JOIN without a side")
        pairs = len(left.rows) * len(right.rows)
        if pairs > MAX_ROWS:
            # The solver would not finish either: give up before building them.
            raise SizeBudget(f"row budget: a join of {pairs:,} rows (limit {MAX_ROWS:,})")
        self.charge(pairs, f"a join of {len(left.rows)} x {len(right.rows)} rows")
        matched: list[list[z3.BoolRef]] = []
        rows: list[Row] = []
        for lrow in left.rows:
            line = []
            for rrow in right.rows:
                self._tick()
                values = lrow.values + rrow.values
                cond = TRUE
                if on is not None:
                    cond = self._predicate(on, scope.at(Row(TRUE, values))).true
                both = conj([lrow.exists, rrow.exists, cond])
                line.append(both)
                rows.append(Row(both, values))
            matched.append(line)
        names = left.names + right.names
        if side in ("LEFT", "FULL"):
            pad = tuple(_null_like(v) for v in _template(right))
            for i, lrow in enumerate(left.rows):
                alone = conj([lrow.exists, neg(disj(matched[i]))])
                rows.append(Row(alone, lrow.values + pad))
        if side in ("RIGHT", "FULL"):
            pad = tuple(_null_like(v) for v in _template(left))
            for j, rrow in enumerate(right.rows):
                alone = conj([rrow.exists, neg(disj([line[j] for line in matched]))])
                rows.append(Row(alone, pad + rrow.values))
        return Relation(names, tuple(rows))

    def _filter(self, rel: Relation, scope: RowScope, condition: exp.Expr) -> Relation:
        self.charge(len(rel.rows), f"a filter of {len(rel.rows)} rows")
        rows = []
        for row in rel.rows:
            self._tick()
            rows.append(row.where(self._predicate(condition, scope.at(row)).true))
        return Relation(rel.names, tuple(rows))

    # -- set operations ------------------------------------------------------------

    def _set_operation(
        self, node: exp.SetOperation, outer: RowScope | None, *, top: bool
    ) -> Relation:
        self._only(node, _SETOP_ARGS)
        with self._with(node, outer):
            left = self.query(node.this, outer)
            right = self.query(node.expression, outer)
            if left.width != right.width:
                raise Unsupported("set operation branches of different widths")
            _check_union_kinds([r.values for r in left.rows + right.rows])
            all_ = not node.args.get("distinct")
            n, m = len(left.rows), len(right.rows)
            self.charge((n + m) * (n + m) * left.width, f"a set operation over {n} and {m} rows")
            if isinstance(node, exp.Union):
                rel = union_all(left, right)
                rel = rel if all_ else distinct(rel)
            elif isinstance(node, exp.Intersect):
                rel = intersect(left, right, all_=all_)
            elif isinstance(node, exp.Except):
                rel = except_(left, right, all_=all_)
            else:
                raise Unsupported(type(node).__name__)
            return self._limit(node, _Ordered(rel, ()), outer, top=top, by_name=True)

    # -- ORDER BY ... LIMIT ----------------------------------------------------------

    def _limit(
        self, node: exp.Expr, ordered: _Ordered, outer: RowScope | None, *, top: bool, by_name: bool
    ) -> Relation:
        if not has_limit(node):
            return ordered.relation
        rel = ordered.relation
        keys = ordered.keys
        order = node.args.get("order")
        if by_name and order is not None:
            keys = tuple(keys_by_output(order, rel, i) for i in range(len(rel.rows)))
        n, width = len(rel.rows), len(keys[0]) if keys else 0
        # The pairwise order terms, each row's rank, and at the top the ties the LIMIT cuts.
        terms = n * (n - 1) * (width * ORDER_COST + 1) * (2 if top else 1)
        self.charge(terms, f"ORDER BY ... LIMIT over {n} rows x {width} keys")
        self._fresh += 1
        limited = limit_rows(node, rel, keys, tag=str(self._fresh), top=top, tick=self._tick)
        self.constraints.extend(limited.constraints)
        self.preferences.extend(limited.preferences)
        if limited.undetermined is not None:
            self.nondeterministic.append(limited.undetermined)
        return limited.relation

    # -- expressions -----------------------------------------------------------------

    def _translator(self, scope: RowScope) -> Translator:
        return Translator(
            lambda column: self._resolve(column, scope), hook=lambda node: self._hook(node, scope)
        )

    def _value(self, node: exp.Expr, scope: RowScope) -> SymValue:
        translator = self._translator(scope)
        value = translator.value(node)
        self._errors(translator)
        return value

    def _predicate(self, node: exp.Expr, scope: RowScope) -> SymBool:
        translator = self._translator(scope)
        truth = translator.predicate(node)
        self._errors(translator)
        return truth

    def _errors(self, translator: Translator) -> None:
        # The term layer's error conditions over-approximate DuckDB's runtime errors, so
        # they may only steer models away from errors, never exclude a database.
        if translator.errors:
            self.preferences.append(neg(disj(translator.errors)))

    def _resolve(self, column: exp.Column, scope: RowScope) -> SymValue:
        name = column.name.lower()
        table = column.table.lower() if column.table else ""
        current: RowScope | None = scope
        while current is not None:
            if table:
                source = current.sources.get(table)
                if source is not None and name in source.names:
                    self._touched = min(self._touched, current.level)
                    if current.group is not None:
                        return _group_key(column, current.group)
                    if current.row is None:
                        raise Unsupported(f"{column.sql()} outside a row context")
                    return current.row.values[source.offset + source.names.index(name)]
            elif name in current.outputs:
                self._touched = min(self._touched, current.level)
                return self._value(current.outputs[name], replace(current, outputs={}))
            current = current.parent
        raise Unsupported(f"the column {column.sql()} cannot be resolved")

    def _hook(self, node: exp.Expr, scope: RowScope) -> SymValue | SymBool | None:
        if isinstance(node, exp.Window):
            raise Unsupported("a window function")
        group = scope.group
        if group is not None and not isinstance(node, exp.Literal):
            for key, value in zip(group.keys, group.values, strict=True):
                if node == key:
                    return value
        if _is_aggregate(node):
            if group is None:
                raise Unsupported("an aggregate outside a grouped query")
            return self._aggregate(node, scope, group)
        if isinstance(node, exp.Exists):
            return self._exists(node, scope)
        if isinstance(node, exp.In) and node.args.get("query") is not None:
            return self._in(node, scope)
        if type(node) in COMPARISON_OPS and isinstance(node.expression, (exp.Any, exp.All)):
            return self._quantified(node, scope)
        if isinstance(node, (exp.Any, exp.All)):
            raise Unsupported("ANY/ALL outside a comparison")
        if isinstance(node, exp.Subquery):
            return self._scalar(node, scope)
        if isinstance(node, (exp.Select, exp.SetOperation)):
            raise Unsupported("a query in expression position")
        return None

    # -- aggregates --------------------------------------------------------------------

    def _aggregate(self, node: exp.Expr, scope: RowScope, group: _Group) -> SymValue:
        condition: exp.Expr | None = None
        if isinstance(node, exp.Filter):
            where = node.expression
            condition = where.this if isinstance(where, exp.Where) else where
            node = node.this
        if isinstance(node, exp.Count):
            self._only(node, {"this", "big_int"})
        else:
            self._only(node, {"this"})
        arg = node.this
        is_distinct = isinstance(arg, exp.Distinct)
        if is_distinct:
            if len(arg.expressions) != 1:
                raise Unsupported("an aggregate over DISTINCT of several expressions")
            arg = arg.expressions[0]
        star = arg is None or isinstance(arg, exp.Star)
        if not star:
            _check_local(arg, scope)
        self.charge(len(group.members), f"an aggregate over {len(group.members)} rows")
        members = []
        for member, row in group.members:
            self._tick()
            member_scope = replace(scope, row=row, group=None, outputs={})
            flag = member
            if condition is not None:
                flag = conj([member, self._predicate(condition, member_scope).true])
            value = _ONE if star else self._value(arg, member_scope)
            members.append((flag, value))
        if isinstance(node, exp.Count):
            result = count_values(members, star=star, distinct=is_distinct)
        elif star:
            raise Unsupported(f"{_name(node)}(*)")
        elif isinstance(node, exp.Sum):
            result = total(members, distinct=is_distinct)
        elif isinstance(node, exp.Avg):
            result = average(members, distinct=is_distinct, averages=self.averages)
        elif isinstance(node, (exp.Min, exp.Max)):
            result = extreme(members, largest=isinstance(node, exp.Max))
        else:
            raise Unsupported(f"the aggregate {_name(node)}")
        if result.caveat is not None and result.caveat not in self.inexact:
            self.inexact.append(result.caveat)
        return result.value

    # -- subqueries ----------------------------------------------------------------------

    def _subquery(self, node: exp.Expr, scope: RowScope) -> Relation:
        """The relation of a subquery evaluated for the current row of ``scope``.

        An uncorrelated subquery is encoded once and reused; a correlated one
        is encoded again for every outer row (its rows depend on that row).
        """
        query = node.this if isinstance(node, exp.Subquery) and not has_limit(node) else node
        cached = self._cache.get(id(query))
        if cached is not None:
            return cached
        saved = self._touched
        self._touched = 1 << 30
        try:
            rel = self.query(query, scope)
            correlated = self._touched <= scope.level
        finally:
            touched = self._touched
            self._touched = min(saved, touched)
        if not correlated:
            self._cache[id(query)] = rel
        return rel

    def _exists(self, node: exp.Exists, scope: RowScope) -> SymBool:
        rel = self._subquery(node.this, scope)
        found = disj([r.exists for r in rel.rows])
        return SymBool(found, neg(found))

    def _in(self, node: exp.In, scope: RowScope) -> SymBool:
        self._only(node, {"this", "query"})
        left = node.this
        lefts = list(left.expressions) if isinstance(left, exp.Tuple) else [left]
        values = [self._value(v, scope) for v in lefts]
        rel = self._subquery(node.args["query"], scope)
        self.charge(len(rel.rows) * len(values), f"IN over {len(rel.rows)} rows")
        if rel.width != len(values):
            raise Unsupported("IN with a subquery of a different width")
        matches = []
        for row in rel.rows:
            eq = and_(*(sql_eq(a, b) for a, b in zip(values, row.values, strict=True)))
            matches.append(SymBool(conj([row.exists, eq.true]), disj([neg(row.exists), eq.false])))
        return or_(*matches) if matches else SymBool(FALSE, TRUE)

    def _quantified(self, node: exp.Expr, scope: RowScope) -> SymBool:
        op = COMPARISON_OPS[type(node)]
        quantifier = node.expression
        value = self._value(node.this, scope)
        rel = self._subquery(quantifier.this, scope)
        if rel.width != 1:
            raise Unsupported("ANY/ALL over a subquery of several columns")
        self.charge(len(rel.rows), f"ANY/ALL over {len(rel.rows)} rows")
        parts = []
        for row in rel.rows:
            cmp = compare(op, value, row.values[0])
            if isinstance(quantifier, exp.Any):
                parts.append(
                    SymBool(conj([row.exists, cmp.true]), disj([neg(row.exists), cmp.false]))
                )
            else:
                parts.append(
                    SymBool(disj([neg(row.exists), cmp.true]), conj([row.exists, cmp.false]))
                )
        if isinstance(quantifier, exp.Any):
            return or_(*parts) if parts else SymBool(FALSE, TRUE)
        return and_(*parts) if parts else SymBool(TRUE, FALSE)

    def _scalar(self, node: exp.Subquery, scope: RowScope) -> SymValue:
        rel = self._subquery(node, scope)
        if rel.width != 1:
            raise Unsupported("a scalar subquery with several columns")
        template = _template(rel)[0]
        # The first present row's value, NULL when none: exact whenever DuckDB does not
        # fail (it raises an error when a scalar subquery returns two rows).
        value = _null_like(template)
        for row in reversed(rel.rows):
            value = _choose(row.exists, row.values[0], value)
        self.preferences.append(count([r.exists for r in rel.rows]) <= 1)
        return value


# -- helpers -------------------------------------------------------------------------------

_ONE = SymValue("int", z3.IntVal(1), FALSE, bits=32)


def _name(node: exp.Expr) -> str:
    return node.sql_name() if isinstance(node, exp.Func) else type(node).__name__.upper()


def _group_key(column: exp.Column, group: _Group) -> SymValue:
    """A column of a grouped query outside an aggregate: it must be a GROUP BY key."""
    for key, value in zip(group.keys, group.values, strict=True):
        if column == key:
            return value
    raise Unsupported(f"{column.sql()} is neither grouped nor aggregated")


def _distinct_keyed(
    rel: Relation, keys: list[tuple[SymValue, ...]]
) -> tuple[Relation, list[tuple[SymValue, ...]]]:
    # Sort keys of a DISTINCT query are output columns, so duplicates share them.
    return distinct(rel), keys


def _template(rel: Relation) -> tuple[SymValue, ...]:
    if not rel.rows:
        raise Unsupported("a relation without rows to take column types from")
    return rel.rows[0].values


def _null_like(v: SymValue) -> SymValue:
    return null_of(v.kind, scale=v.scale, bits=v.bits, precision=v.precision)


def _choose(cond: z3.BoolRef, a: SymValue, b: SymValue) -> SymValue:
    return ite(cond, a, b)


def _check_union_kinds(rows: Sequence[tuple[SymValue, ...]]) -> None:
    """Set operation branches and VALUES rows must agree on each column's type."""
    if not rows:
        return
    first = rows[0]
    for values in rows[1:]:
        for a, b in zip(first, values, strict=True):
            if (a.kind, a.scale) != (b.kind, b.scale) and "other" not in (a.kind, b.kind):
                raise Unsupported(f"a set operation mixing {a.kind} and {b.kind} columns")


def _is_aggregate(node: exp.Expr) -> bool:
    if isinstance(node, exp.Filter):
        return isinstance(node.this, exp.AggFunc)
    return isinstance(node, exp.AggFunc)


def _has_aggregate(node: exp.Expr) -> bool:
    """Whether ``node`` holds an aggregate of this query level (not one inside a subquery)."""
    return any(isinstance(sub, exp.AggFunc) for sub in _walk_level(node))


def _walk_level(node: exp.Expr) -> Iterator[exp.Expr]:
    yield node
    for child in node.iter_expressions():
        if isinstance(child, (exp.Subquery, exp.Select, exp.SetOperation, exp.Window)):
            if isinstance(child, exp.Window):
                yield child
            continue
        yield from _walk_level(child)


def _check_local(arg: exp.Expr, scope: RowScope) -> None:
    """An aggregate's argument must read the query it belongs to (outer-only args are not ours)."""
    for column in _walk_level(arg):
        if isinstance(column, exp.Column):
            table = column.table.lower() if column.table else ""
            if table and table not in scope.sources:
                raise Unsupported("an aggregate over a column of an outer query")
