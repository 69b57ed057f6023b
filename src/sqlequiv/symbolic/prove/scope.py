"""Symbolic rows for the sources of one or two blocks.

A :class:`Scope` gives every source of a block one symbolic row: a z3 value
per column the queries mention, with the constraints the schema declares
(types, NOT NULL, CHECK; NULL-padding for LEFT-joined sources; two
occurrences of a table that agree on a key are the same row). When two
blocks are compared under a source bijection, a reference source and the
candidate source it is mapped to share one row.

Whatever the predicates mention that is not a column of the block —
subqueries, aggregates — becomes an *atom*: a fresh, unconstrained z3 value
named by the atom's text (with the outer columns it reads replaced by their
row's names), so two occurrences of the same atom over the same row are the
same value. An unconstrained value can only make a proof harder, never
wrong. A few facts about atoms are added because they always hold: an
``EXISTS`` over a table is true when an outer source of that table satisfies
its condition; ``COUNT`` is never NULL or negative, and at least 1 in a group.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import z3
from sqlglot import exp

from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Column, Schema
from sqlequiv.symbolic.prove.blocks import (
    Block,
    Query,
    SetOp,
    Source,
    fk_conjuncts,
    has_aggregate,
    read_query,
)
from sqlequiv.symbolic.prove.semijoin import SemiJoin, semi_join
from sqlequiv.symbolic.prove.solver import ProofSolver
from sqlequiv.symbolic.terms import (
    SymBool,
    SymValue,
    Translator,
    Unsupported,
    and_,
    null_of,
    same,
    variable,
)
from sqlequiv.symbolic.terms.domain import ASCII_ONLY_NODES, beyond_ascii
from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or
from sqlequiv.values import decimal_scale, kind_of

__all__ = ["Scope", "Side"]

Side = Literal["c", "r"]

_AGGREGATES = {exp.Count: "count", exp.Sum: "sum", exp.Avg: "avg", exp.Min: "min", exp.Max: "max"}
_KIND_TYPES = {
    "int": "BIGINT",
    "float": "DOUBLE",
    "text": "VARCHAR",
    "bool": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
}


class Scope:
    """Symbolic source rows, atoms and constraints for a proof."""

    def __init__(
        self,
        schema: Schema,
        solver: ProofSolver,
        blocks: dict[Side, Block],
        mapping: dict[str, str] | None = None,
        *,
        prefix: str = "",
        depth: int = 0,
        ascii_text: bool = False,
    ) -> None:
        #: Keep text columns to printable ASCII (as the term layer's domain says).
        #: Proofs must hold for every string, so they leave it off, and refuse what
        #: the term layer only models exactly on ASCII (ILIKE's case folding, LENGTH).
        self._ascii_text = ascii_text
        #: Names z3 constants apart from those of enclosing scopes (z3 identifies
        #: constants by name).
        self._prefix = prefix
        self._depth = depth
        self.schema = schema
        #: Decides the formulas of this scope, under its proof's budget.
        self.solver = solver
        self.blocks = blocks
        #: reference alias -> candidate alias
        self.mapping = mapping or {}
        #: Rows kept by the WHERE; aggregates' arguments are compared under it.
        self.kept: z3.BoolRef = z3.BoolVal(True)
        #: Per side, when the two blocks keep different rows (no source shared).
        self.kept_by_side: dict[str, z3.BoolRef] = {}
        self._vars: dict[str, SymValue] = {}
        self._constraints: list[z3.BoolRef] = []
        self._pads: dict[str, z3.BoolRef] = {}
        self._atoms: dict[str, SymValue | SymBool] = {}
        self._aggregates: list[tuple[str, bool, SymValue | None, SymValue]] = []
        #: The side each aggregate atom was made for.
        self._aggregate_sides: list[Side] = []
        #: Whether both sides aggregate the same rows (a source bijection shares them),
        #: so that one atom may stand for an aggregate on either side.
        self.shared_rows = True
        self._checked: set[str] = set()
        self._base: dict[str, tuple[str, Source, Side]] = {}
        # The key axioms of the variables so far ((len(_vars), len(_base)) -> axioms):
        # both only grow, and a proof asks for them at every solver call.
        self._axioms: tuple[tuple[int, int], list[z3.BoolRef]] | None = None
        self._translators = {side: self._translator(side) for side in blocks}

    # -- public ----------------------------------------------------------

    def predicate(self, side: Side, parts: Sequence[exp.Expr]) -> SymBool:
        """The conjunction of ``parts`` (TRUE when empty)."""
        translator = self._translators[side]
        return translator.conjunction(parts) if parts else _true()

    def value(self, side: Side, node: exp.Expr) -> SymValue:
        return self._translators[side].value(node)

    def pad(self, side: Side, alias: str) -> z3.BoolRef:
        """True when the LEFT-joined source's row is the NULL padding."""
        sid = self._source_id(side, alias)
        if sid not in self._pads:
            self._pads[sid] = z3.Bool(f"pad:{sid}")
            block = self.blocks[side]
            if block.full:
                # A FULL JOIN pads one side of a row, never both.
                a, b = block.sources[0].alias, block.left_joins[0].source.alias
                other = b if block.resolve_alias(alias) == a else a
                other_sid = self._source_id(side, other)
                if other_sid in self._pads:
                    both = bool_and(self._pads[sid], self._pads[other_sid])
                    self._constraints.append(bool_not(both))
        return self._pads[sid]

    @property
    def pads(self) -> dict[str, z3.BoolRef]:
        """The padding flag of every LEFT-joined source seen so far, by source id."""
        return self._pads

    def key_equal(self, side: Side, a: str, b: str, column: str) -> z3.BoolRef:
        """Both sources have the same non-NULL value in ``column``."""
        va = self._column(side, a, column)
        vb = self._column(side, b, column)
        return bool_and(bool_not(va.null), bool_not(vb.null), same(va, vb))

    def row_values(self) -> dict[str, SymValue]:
        """The symbolic value of every base-table column mentioned so far, by name."""
        return {k: v for k, v in self._vars.items() if k.rsplit(".", 1)[0] in self._base}

    def source_rows(self) -> dict[str, tuple[str, dict[str, SymValue]]]:
        """Per base-table source row: its table and its mentioned columns' values."""
        rows: dict[str, tuple[str, dict[str, SymValue]]] = {}
        for sid, (table, _source, _side) in self._base.items():
            prefix = f"{sid}."
            columns = {k[len(prefix) :]: v for k, v in self._vars.items() if k.startswith(prefix)}
            rows[sid] = (table, columns)
        return rows

    def constraints(self) -> list[z3.BoolRef]:
        """Everything known about the rows and atoms, key axioms included."""
        return self._constraints + self._key_axioms()

    # -- columns ---------------------------------------------------------

    def _translator(self, side: Side) -> Translator:
        return Translator(
            lambda column: self._resolve(side, column),
            hook=lambda node: self._hook(side, node),
        )

    def _resolve(self, side: Side, column: exp.Column) -> SymValue:
        if not column.table:
            raise Unsupported(f"unqualified column {column.sql()}")
        return self._column(side, column.table, column.name)

    def _source(self, side: Side, alias: str) -> Source:
        block = self.blocks[side]
        alias = block.resolve_alias(alias)
        for source in block.all_sources:
            if source.alias == alias:
                return source
        raise Unsupported(f"column of {alias}, which is not a source of this block")

    def _source_id(self, side: Side, alias: str) -> str:
        alias = self.blocks[side].resolve_alias(alias)
        if side == "r":
            if alias not in self.mapping:
                return f"{self._prefix}r:{alias}"
            alias = self.mapping[alias]
        return f"{self._prefix}c:{alias}"

    def _is_padded(self, side: Side, alias: str) -> bool:
        return self.blocks[side].padded(alias)

    def _column_key(self, side: Side, alias: str, name: str) -> str:
        source = self._source(side, alias)
        sid = self._source_id(side, alias)
        if source.table is not None:
            return f"{sid}.{self._table_column(source, name).name}"
        return f"{sid}.#{_position(source, name)}"

    def _table_column(self, source: Source, name: str) -> Column:
        """The column ``name`` of the table ``source`` reads.

        A block whose rewrites left a column qualified by a table source that has no
        such column (a derived table's renamed output, ``n_name0``, read through a
        source that now stands for the base table) is outside what the prover can
        read: Unsupported, as for any construct it cannot translate, never a KeyError
        (an internal error in the verdict).
        """
        assert source.table is not None
        try:
            return self.schema.table(source.table).column(name)
        except KeyError:
            raise Unsupported(
                f"column {name} of {source.alias}, which its table {source.table} lacks"
            ) from None

    def _column(self, side: Side, alias: str, name: str) -> SymValue:
        source = self._source(side, alias)
        sid = self._source_id(side, alias)
        key = self._column_key(side, alias, name)
        if source.table is not None:
            column = self._table_column(source, name)
            if key not in self._vars:
                self._base[sid] = (source.table, source, side)
                self._new_var(key, column.type, column.nullable, side, alias, keep=True)
                self._add_checks(side, alias, sid)
            return self._vars[key]
        if key not in self._vars:
            # Every column of the derived row at once, then what its query implies
            # about them (its WHERE held, its outputs are those expressions).
            for position in range(len(source.columns)):
                dtype = _output_type(source, position)
                self._new_var(f"{sid}.#{position}", dtype, True, side, alias, keep=False)
            self._derived_facts(side, alias, source, sid)
        return self._vars[key]

    def _derived_facts(self, side: Side, alias: str, source: Source, sid: str) -> None:
        """Constrain a derived row to the rows its query can produce (an over-approximation)."""
        if source.query is None or self._depth > 3:
            return
        row = [self._vars[f"{sid}.#{p}"] for p in range(len(source.columns))]
        try:
            fact = self._query_facts(source.query, row, f"{sid}/")
        except (Unsupported, KeyError):
            return
        if self._is_padded(side, alias):
            fact = z3.Implies(bool_not(self.pad(side, alias)), fact)
        self._constraints.append(fact)

    def _query_facts(self, query: Query, row: list[SymValue], prefix: str) -> z3.BoolRef:
        if isinstance(query, SetOp):
            parts = [
                self._query_facts(b, row, f"{prefix}{i}/") for i, b in enumerate(query.branches)
            ]
            if query.kind == "union":
                return bool_or(*parts)
            if query.kind == "intersect":
                return bool_and(*parts)
            return parts[0]  # EXCEPT: a row of the result is a row of the first operand
        if query.aggregate and query.group is None:
            # One row even when no source row qualifies: nothing follows from the WHERE.
            return z3.BoolVal(True)
        nested = Scope(
            self.schema,
            self.solver,
            {"c": query},
            prefix=prefix,
            depth=self._depth + 1,
            ascii_text=self._ascii_text,
        )
        facts = [nested.predicate("c", query.where).true]
        for value, output in zip(row, query.outputs, strict=True):
            if query.aggregate and has_aggregate(output):
                continue
            facts.append(same(value, nested.value("c", output)))
        return bool_and(*nested.constraints(), *facts)

    def _new_var(
        self, key: str, dtype: exp.DataType, nullable: bool, side: Side, alias: str, *, keep: bool
    ) -> None:
        padded = self._is_padded(side, alias)
        value, domain = variable(key, dtype, nullable=nullable or padded)
        self._vars[key] = value
        facts = list(domain) if keep else []
        if not self._ascii_text:
            facts = beyond_ascii(facts)
        if padded:
            pad = self.pad(side, alias)
            if not nullable:
                facts.append(bool_not(value.null))
            self._constraints.append(z3.Implies(pad, value.null))
            self._constraints.extend(z3.Implies(bool_not(pad), f) for f in facts)
        else:
            self._constraints.extend(facts)

    def _add_checks(self, side: Side, alias: str, sid: str) -> None:
        if sid in self._checked:
            return
        self._checked.add(sid)
        source = self._source(side, alias)
        assert source.table is not None
        table = self.schema.table(source.table)
        padded = self._is_padded(side, alias)
        for check in table.checks:
            translator = Translator(lambda c: self._column(side, alias, c.name))
            try:
                holds = bool_not(translator.predicate(check).false)
            except Unsupported:
                continue  # a dropped constraint only makes proofs harder
            self._constraints.append(
                z3.Implies(bool_not(self.pad(side, alias)), holds) if padded else holds
            )

    def _key_axioms(self) -> list[z3.BoolRef]:
        state = (len(self._vars), len(self._base))
        if self._axioms is None or self._axioms[0] != state:
            self._axioms = state, self._build_key_axioms()
        return self._axioms[1]

    def _build_key_axioms(self) -> list[z3.BoolRef]:
        axioms: list[z3.BoolRef] = []
        by_table: dict[str, list[str]] = {}
        for sid, (name, _source, _side) in self._base.items():
            by_table.setdefault(name, []).append(sid)
        for table_name, sids in by_table.items():
            if len(sids) < 2:
                continue
            table = self.schema.table(table_name)
            for i, a in enumerate(sids):
                for b in sids[i + 1 :]:
                    shared = [
                        c.name
                        for c in table.columns
                        if f"{a}.{c.name}" in self._vars and f"{b}.{c.name}" in self._vars
                    ]
                    for key in table.keys:
                        if not all(
                            f"{a}.{k}" in self._vars and f"{b}.{k}" in self._vars for k in key
                        ):
                            continue
                        premise = bool_and(
                            *(
                                bool_and(
                                    bool_not(self._vars[f"{a}.{k}"].null),
                                    same(self._vars[f"{a}.{k}"], self._vars[f"{b}.{k}"]),
                                )
                                for k in key
                            )
                        )
                        axioms.append(
                            z3.Implies(
                                premise,
                                bool_and(
                                    *(
                                        same(self._vars[f"{a}.{c}"], self._vars[f"{b}.{c}"])
                                        for c in shared
                                    )
                                ),
                            )
                        )
        return axioms

    # -- atoms -----------------------------------------------------------

    def _hook(self, side: Side, node: exp.Expr) -> SymValue | SymBool | None:
        if not self._ascii_text and isinstance(node, ASCII_ONLY_NODES):
            raise Unsupported(f"{node.key.upper()} over strings beyond ASCII")
        if isinstance(node, exp.AggFunc):
            return self._aggregate(side, node)
        if isinstance(node, exp.Exists):
            semi = semi_join(node.this)
            atom = self._semi_atom(side, semi) if semi else self._atom(side, node, "exists")
            assert isinstance(atom, SymBool)
            self._exists_facts(side, node, atom)
            return atom
        if isinstance(node, exp.In) and node.args.get("query") is not None:
            semi = semi_join(node.args["query"], node.this)
            if semi is None:
                return self._atom(side, node, "in")
            found = self._semi_atom(side, semi)
            # IN is true exactly when a match exists; when it is false rather than
            # unknown depends on NULLs, which the atom does not track: leave it free.
            false = z3.Bool(f"{self._prefix}in-false:{id(node)}")
            self._constraints.append(z3.Implies(false, bool_not(found.true)))
            if self._never_null(semi):
                # No NULL among the subquery's values: with a non-NULL value on the left,
                # no match means false (NOT IN is then NOT EXISTS).
                outer = self._translators[side].value(node.this)
                self._constraints.append(
                    z3.Implies(bool_and(bool_not(outer.null), bool_not(found.true)), false)
                )
            return SymBool(found.true, false)
        if isinstance(node, exp.Window):
            return self._window(side, node)
        if isinstance(node, exp.Subquery) and _top_one(node.this) is not None:
            # (SELECT x … ORDER BY x DESC LIMIT 1) is (SELECT MAX(x) …), NULLs last.
            return self._hook(side, exp.Subquery(this=_top_one(node.this)))
        if isinstance(node, exp.Subquery) and _constant_select(node.this):
            # (SELECT <expression>) with no FROM: the expression's one value.
            return self._translators[side].value(node.this.expressions[0].unalias())
        if isinstance(node, exp.Filter) and isinstance(node.this, exp.AggFunc):
            where = node.expression
            condition = where.this if isinstance(where, exp.Where) else where
            test = self._translators[side].predicate(condition)
            if self.solver.valid(self, z3.Implies(self._kept(side), bool_not(test.true))):
                name = _AGGREGATES.get(type(node.this))
                if name is None:
                    raise Unsupported(f"aggregate {node.this.sql()}")
                argument = node.this.this
                if isinstance(argument, exp.Distinct):
                    argument = argument.expressions[0]
                value = (
                    None
                    if argument is None or isinstance(argument, exp.Star)
                    else self._translators[side].value(argument)
                )
                return _no_value(name, value)  # FILTER keeps no row
            if self.solver.valid(self, z3.Implies(self._kept(side), test.true)):
                return self._aggregate(side, node.this)  # FILTER keeps every row
            raise Unsupported(f"FILTER ({node.sql()})")
        if isinstance(node, (exp.Subquery, exp.Any, exp.All)):
            return self._atom(side, node, "scalar" if isinstance(node, exp.Subquery) else "in")
        return None

    def _window(self, side: Side, node: exp.Window) -> SymValue:
        """A window function's value on this block's row: an atom named by its text, the
        columns it reads named by row. Its value depends on the row and on the bag of
        rows the block keeps, so two windows of one text are one value on blocks whose
        sources are shared and whose WHERE keep the same rows, which is what a proof
        checks before it compares outputs."""
        if self.blocks[side].aggregate:
            raise Unsupported("window function over groups")
        if node.find(exp.Query) is not None:
            raise Unsupported("window function over a subquery")
        key = f"{self._prefix}window:{self._atom_text(side, node)}"
        atom = self._atoms.get(key)
        if atom is None:
            atom, _domain = variable(key, _typed(node), nullable=True)
            self._atoms[key] = atom
        assert isinstance(atom, SymValue)
        return atom

    def _never_null(self, semi: SemiJoin) -> bool:
        """The subquery selects a NOT NULL column of one of its base tables."""
        inner = semi.inner
        if not isinstance(inner, exp.Column):
            return False
        for source in semi.sources:
            if source.alias == inner.table and source.table is not None:
                table = self.schema.table(source.table)
                return inner.name.lower() in table.column_names and not (
                    table.column(inner.name).nullable
                )
        return False

    def _semi_atom(self, side: Side, semi: SemiJoin) -> SymBool:
        """ "Some row of the subquery matches": one atom for EXISTS, IN and semi-join forms."""
        key = f"{self._prefix}semi:{self._atom_text(side, semi.as_in())}"
        if key not in self._atoms:
            b = z3.Bool(key)
            self._atoms[key] = SymBool(b, bool_not(b))
        atom = self._atoms[key]
        assert isinstance(atom, SymBool)
        return atom

    def _atom(self, side: Side, node: exp.Expr, kind: str) -> SymValue | SymBool:
        key = f"{self._prefix}{kind}:{self._atom_text(side, node)}"
        if key in self._atoms:
            return self._atoms[key]
        atom: SymValue | SymBool
        if kind == "exists":
            b = z3.Bool(key)
            atom = SymBool(b, bool_not(b))
        elif kind == "in":
            t, f = z3.Bool(key + "#t"), z3.Bool(key + "#f")
            self._constraints.append(bool_not(bool_and(t, f)))
            atom = SymBool(t, f)
        else:
            query = node.this if isinstance(node, exp.Subquery) else node
            dtype = _query_output_type(query)
            atom, _domain = variable(key, dtype, nullable=True)
        self._atoms[key] = atom
        return atom

    def _atom_text(self, side: Side, node: exp.Expr) -> str:
        """The atom's SQL with inner aliases renamed in order and outer columns named by row."""
        copy = node.copy()
        inner: dict[str, str] = {}
        for found in copy.find_all(exp.Table, exp.Subquery, bfs=False):
            alias = found.alias_or_name
            if alias and alias not in inner:
                inner[alias] = f"i{len(inner)}"
        for found in copy.find_all(exp.Table, exp.Subquery):
            if found.alias_or_name in inner and found.args.get("alias") is not None:
                found.set(
                    "alias", exp.TableAlias(this=exp.to_identifier(inner[found.alias_or_name]))
                )
        for column in list(copy.find_all(exp.Column)):
            table = column.table
            if table in inner:
                column.set("table", exp.to_identifier(inner[table]))
            elif table:
                self._resolve(side, column)  # the row value must exist
                name = self._column_key(side, table, column.name)
                column.replace(exp.column(name.replace(".", "_").replace(":", "_")))
        return copy.sql(dialect="duckdb")

    def _exists_facts(self, side: Side, node: exp.Exists, atom: SymBool) -> None:
        """EXISTS (SELECT … FROM t s WHERE p) holds if an outer source o of t satisfies p[s:=o]."""
        try:
            query = read_query(node.this)
        except Exception:
            return
        if not isinstance(query, Block) or query.aggregate or query.left_joins:
            return
        if query.limit is not None:
            return  # LIMIT 0 empties the subquery whatever the rows
        if len(query.sources) != 1 or query.sources[0].table is None:
            return
        inner = query.sources[0]
        block = self.blocks[side]
        for outer in block.sources:
            if outer.table != inner.table or block.padded(outer.alias):
                continue

            def resolve(column: exp.Column, outer: Source = outer) -> SymValue:
                if column.table == inner.alias:
                    return self._column(side, outer.alias, column.name)
                return self._resolve(side, column)

            translator = Translator(resolve, hook=lambda n: self._hook(side, n))
            try:
                condition = (
                    and_(*(translator.predicate(p) for p in query.where))
                    if query.where
                    else _true()
                )
            except Unsupported:
                continue
            self._constraints.append(z3.Implies(condition.true, atom.true))
        if self._exists_by_foreign_key(side, inner, query.where):
            self._constraints.append(atom.true)

    def _exists_by_foreign_key(self, side: Side, inner: Source, where: list[exp.Expr]) -> bool:
        """EXISTS (SELECT … FROM parent p WHERE p.key = o.fk) with o.fk a NOT NULL foreign key."""
        for outer in self.blocks[side].sources:
            if outer.table is None or self.blocks[side].padded(outer.alias):
                continue
            table = self.schema.table(outer.table)
            for fk in table.foreign_keys:
                if fk.ref_table.lower() != inner.table:
                    continue
                if any(table.column(c).nullable for c in fk.columns):
                    continue
                pairs = dict(zip(fk.ref_columns, fk.columns, strict=True))
                found = fk_conjuncts(where, outer.alias, inner.alias, pairs)
                if found is not None and len(found) == len(where):
                    return True
        return False

    def _aggregate(self, side: Side, node: exp.AggFunc) -> SymValue:
        name = _AGGREGATES.get(type(node))
        if name is None:
            raise Unsupported(f"aggregate {node.sql()}")
        if not self.blocks[side].aggregate:
            raise Unsupported("aggregate outside an aggregate block")
        argument = node.this
        folded = _sum_of_coalesce(node)
        if folded is not None and self.blocks[side].group is not None:
            # In a non-empty group, SUM(COALESCE(x, 0)) is COALESCE(SUM(x), 0).
            return self._translators[side].value(folded)
        distinct = isinstance(argument, exp.Distinct)
        if distinct:
            assert isinstance(argument, exp.Distinct)
            if len(argument.expressions) != 1:
                raise Unsupported("aggregate over several DISTINCT arguments")
            argument = argument.expressions[0]
        if name in ("min", "max"):
            distinct = False
        arg: SymValue | None = None
        if isinstance(argument, exp.Null):
            return _no_value(name, None)  # an aggregate of NULLs
        if argument is not None and not isinstance(argument, exp.Star):
            if any(isinstance(n, exp.AggFunc) for n in argument.find_all(exp.AggFunc)):
                raise Unsupported("nested aggregate")
            arg = self._translators[side].value(argument)
            if (
                name == "count"
                and not distinct
                and self.solver.valid(self, z3.Implies(self._kept(side), bool_not(arg.null)))
            ):
                arg = None  # COUNT(x) over rows where x is never NULL is COUNT(*)
        elif name != "count":
            raise Unsupported(f"{name}(*)")
        if self.blocks[side].group is None and (
            (arg is not None and self.solver.valid(self, z3.Implies(self._kept(side), arg.null)))
            or (arg is None and not self.solver.satisfiable(self, self._kept(side)))
        ):
            # Without GROUP BY: over no row, or over NULLs only, COUNT is 0, the rest NULL.
            return _no_value(name, arg)
        for (other_name, other_distinct, other_arg, atom), other_side in zip(
            self._aggregates, self._aggregate_sides, strict=True
        ):
            if (other_name, other_distinct) != (name, distinct):
                continue
            if other_side != side and not self.shared_rows:
                continue
            if arg is None and other_arg is None:
                return atom
            if (
                arg is not None
                and other_arg is not None
                and _comparable(arg, other_arg)
                and self.solver.valid(self, z3.Implies(self._kept(side), same(arg, other_arg)))
            ):
                return atom
        atom = self._new_aggregate(name, arg, side)
        self._aggregates.append((name, distinct, arg, atom))
        self._aggregate_sides.append(side)
        return atom

    def _kept(self, side: Side) -> z3.BoolRef:
        return self.kept_by_side.get(side, self.kept)

    def _new_aggregate(self, name: str, arg: SymValue | None, side: Side) -> SymValue:
        label = f"{self._prefix}agg{len(self._aggregates)}"
        if name == "count":
            value, _ = variable(label, exp.DataType.build("BIGINT"), nullable=False)
            self._constraints.append(bool_not(value.null))  # COUNT is never NULL
            low = 1 if self.blocks[side].group is not None else 0
            self._constraints.append(value.value >= low if arg is None else value.value >= 0)
            return value
        assert arg is not None
        if name == "avg":
            dtype = exp.DataType.build("DOUBLE")
        elif arg.kind == "decimal":
            dtype = exp.DataType.build(f"DECIMAL(38,{arg.scale})")
        elif arg.kind in _KIND_TYPES:
            dtype = exp.DataType.build(_KIND_TYPES[arg.kind])
        else:
            raise Unsupported(f"{name} over {arg.kind}")
        value, _ = variable(label, dtype, nullable=True)
        return value


def _top_one(node: exp.Expr) -> exp.Select | None:
    """``SELECT MAX(x) FROM … WHERE …`` for ``SELECT x FROM … WHERE … ORDER BY x DESC
    LIMIT 1`` (MIN for ASC), when NULLs sort last: the first row holds the largest
    non-NULL value, or NULL when there is none, as MAX does; no row gives NULL too."""
    if not isinstance(node, exp.Select) or len(node.expressions) != 1:
        return None
    if any(node.args.get(k) for k in ("group", "having", "distinct", "offset", "qualify")):
        return None
    limit = node.args.get("limit")
    order = node.args.get("order")
    if not isinstance(limit, exp.Limit) or order is None or len(order.expressions) != 1:
        return None
    count = limit.args.get("expression")
    if not (isinstance(count, exp.Literal) and count.is_int and int(count.name) == 1):
        return None
    (item,) = node.expressions
    value = item.unalias()
    (key,) = order.expressions
    sort = key.this
    if isinstance(sort, exp.Literal) and sort.is_int and sort.name == "1":
        sort = value
    if sort != value or key.args.get("nulls_first") or value.find(exp.AggFunc, exp.Window):
        return None
    if value.find(exp.Query) is not None or value.type is None:
        return None
    aggregate = (exp.Max if key.args.get("desc") else exp.Min)(this=value.copy())
    aggregate.type = value.type
    select = node.copy()
    select.set("expressions", [aggregate])
    select.set("order", None)
    select.set("limit", None)
    return select


def _constant_select(node: exp.Expr) -> bool:
    return (
        isinstance(node, exp.Select)
        and len(node.expressions) == 1
        and not any(node.args.get(k) for k in ("from_", "from", "where", "group", "having"))
        and node.expressions[0].find(exp.Column, exp.Query, exp.AggFunc) is None
        and not is_volatile(node)
    )


def _no_value(name: str, arg: SymValue | None) -> SymValue:
    """An aggregate over no (non-NULL) value: COUNT is 0, the others NULL."""
    if name == "count":
        return SymValue("int", z3.IntVal(0), z3.BoolVal(False))
    if name == "avg":
        return null_of("float")
    if arg is None:
        raise Unsupported(f"{name} of NULL")
    return null_of(arg.kind, scale=arg.scale, bits=arg.bits, precision=arg.precision)


def _sum_of_coalesce(node: exp.AggFunc) -> exp.Expr | None:
    """``COALESCE(SUM(x), 0)`` for ``SUM(COALESCE(x, 0))``, else None."""
    if not isinstance(node, exp.Sum) or not isinstance(node.this, exp.Coalesce):
        return None
    coalesce = node.this
    rest = coalesce.expressions
    if len(rest) != 1 or not (isinstance(rest[0], exp.Literal) and rest[0].name == "0"):
        return None
    return exp.Coalesce(this=exp.Sum(this=coalesce.this.copy()), expressions=[rest[0].copy()])


def _true() -> SymBool:
    return SymBool(z3.BoolVal(True), z3.BoolVal(False))


def _comparable(a: SymValue, b: SymValue) -> bool:
    return a.kind == b.kind and a.scale == b.scale


def _position(source: Source, name: str) -> int:
    position = source.position(name)
    if position is None:
        raise Unsupported(f"derived column {name} is missing or ambiguous")
    return position


def _output_type(source: Source, position: int) -> exp.DataType:
    if source.query is None:
        raise Unsupported("column of a VALUES list")
    return _query_block_type(source.query, position)


def _query_block_type(query: Query, position: int) -> exp.DataType:
    while isinstance(query, SetOp):
        query = query.branches[0]
    return _typed(query.outputs[position])


def _query_output_type(query: exp.Expr) -> exp.DataType:
    while isinstance(query, (exp.SetOperation, exp.Subquery)):
        query = query.this
    if not isinstance(query, exp.Select) or len(query.expressions) != 1:
        raise Unsupported("scalar subquery without exactly one column")
    item = query.expressions[0]
    return _typed(item.this if isinstance(item, exp.Alias) else item)


def _typed(node: exp.Expr) -> exp.DataType:
    dtype = node.type
    if dtype is None or kind_of(dtype) == "other":
        raise Unsupported(f"unknown type of {node.sql()}")
    if kind_of(dtype) == "decimal":
        decimal_scale(dtype)
    return dtype
