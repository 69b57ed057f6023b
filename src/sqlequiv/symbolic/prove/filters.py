"""Two filter conditions that keep the same rows, whatever the rows are.

A proof by parts (:mod:`.congruence`) may end at a WHERE, HAVING or ON condition that
two queries, written alike everywhere else, write differently: sqlglot's optimizer puts
TPC-DS query 53's ``(a AND b AND c) OR (d AND e AND f)`` in conjunctive normal form,
inside a derived table whose window over groups the prover does not read.
:func:`same_filter` proves such a pair over free values.

Why this is sound: a WHERE, a HAVING and an ON keep exactly the rows (or pairs of rows)
on which their condition is TRUE; FALSE and UNKNOWN both drop them (an outer join pads
what its ON drops, for both conditions alike). So two conditions over the same rows, in
the same place of queries written alike everywhere else, keep the same rows when one is
TRUE exactly when the other is. That is proved for *every* value of every column the
conditions read (a column is a z3 constant of its declared type, NULL or not, text beyond
ASCII, as if no constraint held): more than the rows a database can hold. A subquery is
not translated: ``EXISTS (q)`` written alike on both sides is one two-valued atom (it
reads the same row in both queries, and ``q`` calls nothing volatile), and so is an
aggregate written alike in a HAVING (a value of its annotated type, for the same group).
Anything else the translator does not model, a condition that may raise an error on
some row (a cast out of range), or a column or aggregate of unknown type, leaves the
pair unproved.
"""

from __future__ import annotations

import z3
from sqlglot import exp

from sqlequiv.normalize._util import sql_text
from sqlequiv.policy import is_volatile
from sqlequiv.symbolic.prove.solver import BudgetExhausted, ProofSolver
from sqlequiv.symbolic.terms import SymBool, SymValue, Unsupported
from sqlequiv.symbolic.terms.domain import ASCII_ONLY_NODES, beyond_ascii, variable
from sqlequiv.symbolic.terms.formulas import bool_not
from sqlequiv.symbolic.terms.translate import Translator

__all__ = ["FILTER_PARENTS", "is_filter", "same_filter"]

#: The clauses whose condition only filters: what is not TRUE is dropped.
FILTER_PARENTS = (exp.Where, exp.Having)


def is_filter(node: exp.Expr) -> bool:
    """Whether ``node`` is a whole WHERE, HAVING or join ON condition."""
    parent = node.parent
    if isinstance(parent, FILTER_PARENTS):
        return True
    return isinstance(parent, exp.Join) and node.arg_key == "on"


class _Free:
    """Free constants for the columns and atoms two conditions read, shared by both."""

    def __init__(self) -> None:
        self.values: dict[str, SymValue] = {}
        self.atoms: dict[str, SymBool] = {}
        self.domain: list[z3.BoolRef] = []

    def constraints(self) -> list[z3.BoolRef]:
        return self.domain

    def value(self, key: str, node: exp.Expr) -> SymValue:
        found = self.values.get(key)
        if found is None:
            dtype = node.type
            if dtype is None or dtype.this in (exp.DataType.Type.UNKNOWN, exp.DataType.Type.NULL):
                raise Unsupported(f"a value of unknown type ({key})")
            found, domain = variable(f"v{len(self.values)}", dtype)
            self.values[key] = found
            self.domain.extend(beyond_ascii(domain))  # a proof about any text
        return found

    def atom(self, key: str) -> SymBool:
        found = self.atoms.get(key)
        if found is None:
            holds = z3.Bool(f"exists{len(self.atoms)}")
            found = self.atoms[key] = SymBool(holds, bool_not(holds))
        return found

    def hook(self, node: exp.Expr) -> SymValue | SymBool | None:
        if isinstance(node, ASCII_ONLY_NODES):
            raise Unsupported(f"{node.key.upper()} over strings beyond ASCII")
        if isinstance(node, exp.Exists):
            if is_volatile(node):
                raise Unsupported("a volatile EXISTS")
            return self.atom(sql_text(node))
        if isinstance(node, exp.AggFunc):
            if is_volatile(node) or node.find(exp.Query) is not None:
                raise Unsupported(f"the aggregate {node.sql()[:60]}")
            return self.value("aggregate " + sql_text(node), node)
        if isinstance(node, (exp.Subquery, exp.Query, exp.Window)):
            raise Unsupported(f"{type(node).__name__} in a filter")
        return None


def same_filter(left: exp.Expr, right: exp.Expr, solver: ProofSolver) -> bool:
    """Whether the conditions ``left`` and ``right`` are TRUE on exactly the same values.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.symbolic.prove.solver import ProofSolver
        >>> a, b = (sqlglot.parse_one(s) for s in ("t.x > 1 AND t.x < 5", "t.x BETWEEN 2 AND 4"))
        >>> for c in [*a.find_all(exp.Column), *b.find_all(exp.Column)]:
        ...     c.type = exp.DataType.build("INT")
        >>> same_filter(a, b, ProofSolver(solver_rlimit=1_000_000, max_checks=4))
        True
    """
    free = _Free()

    def resolve(column: exp.Column) -> SymValue:
        return free.value(sql_text(column), column)

    try:
        conditions = []
        for side in (left, right):
            translator = Translator(resolve, hook=free.hook)
            condition = translator.predicate(side)
            if translator.errors:
                return False  # it may raise on some row: not a plain filter
            conditions.append(condition)
        solver.start()
        try:
            return solver.valid(free, conditions[0].true == conditions[1].true)
        finally:
            solver.stop()
    except (Unsupported, BudgetExhausted):
        return False
