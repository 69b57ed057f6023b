"""SQL scalar expressions and predicates as z3 terms, with SQL three-valued logic.

This is the public face of the symbolic layer's term translation; the
implementation is split by concern:

* :mod:`~sqlequiv.symbolic.terms.sqlvalue` -- :class:`SymValue`, :class:`SymBool`,
  3VL connectives, comparisons, implicit casts (the representation of each
  kind is documented there);
* :mod:`~sqlequiv.symbolic.terms.domain` -- :func:`variable`, :func:`constant`,
  :func:`model_value` and the domain restrictions;
* :mod:`~sqlequiv.symbolic.terms.arith` -- arithmetic, casts and string functions
  with DuckDB's result types and error conditions;
* :mod:`~sqlequiv.symbolic.terms.like` -- LIKE/ILIKE patterns as regular expressions;
* :mod:`~sqlequiv.symbolic.terms.calendar` -- EXTRACT/YEAR/.../DATE_TRUNC in linear arithmetic;
* :mod:`~sqlequiv.symbolic.terms.functions` -- other function calls: exact string functions
  and ROUND, uninterpreted functions for listed deterministic ones and casts from or
  to text;
* :mod:`~sqlequiv.symbolic.terms.translate` -- :class:`Translator` for sqlglot trees.

Errors are part of the meaning: :attr:`Translator.errors` lists conditions
under which DuckDB may raise an error (overflow, division by zero, failed
casts) instead of producing the value; when none holds, the term is exact.
DOUBLE/REAL values are z3 floating point with exact IEEE semantics: sound,
but formulas mixing them with integers are slow to solve (expect timeouts).

Example:
    >>> import z3
    >>> from sqlglot import exp, parse_one
    >>> ts, domain = variable("t.ts", exp.DataType.build("TIMESTAMP"))
    >>> tr = Translator(lambda column: ts)
    >>> p = tr.predicate(parse_one("t.ts BETWEEN '2024-01-01' AND '2024-01-31'"))
    >>> s = z3.Solver()
    >>> s.set("timeout", 5000)
    >>> s.add(*domain, p.true, ts.value >= 19753 * 86_400_000_000)  # on or after 2024-01-31
    >>> s.check(), model_value(s.model(), ts)
    (sat, datetime.datetime(2024, 1, 31, 0, 0))
"""

from __future__ import annotations

from sqlequiv.symbolic.terms.domain import constant, evaluate, model_value, variable
from sqlequiv.symbolic.terms.sqlvalue import (
    SymBool,
    SymValue,
    Unsupported,
    and_,
    as_predicate,
    compare,
    ite,
    not_,
    null_of,
    or_,
    same,
    sql_eq,
    text_value,
    truth_value,
    unify,
    unify_all,
)
from sqlequiv.symbolic.terms.translate import Hook, Resolver, Translator

__all__ = [
    "Hook",
    "Resolver",
    "SymBool",
    "SymValue",
    "Translator",
    "Unsupported",
    "and_",
    "as_predicate",
    "compare",
    "constant",
    "evaluate",
    "ite",
    "model_value",
    "not_",
    "null_of",
    "or_",
    "same",
    "sql_eq",
    "text_value",
    "truth_value",
    "unify",
    "unify_all",
    "variable",
]
