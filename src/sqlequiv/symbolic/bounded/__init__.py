"""Bounded verification: both whole queries over k symbolic rows per table.

:mod:`~sqlequiv.symbolic.bounded.tables` and
:mod:`~sqlequiv.symbolic.bounded.relations` hold the symbolic tables and the bags of
rows each operator makes, :mod:`~sqlequiv.symbolic.bounded.encode` encodes a query
(with :mod:`~sqlequiv.symbolic.bounded.aggregates`,
:mod:`~sqlequiv.symbolic.bounded.averages` and
:mod:`~sqlequiv.symbolic.bounded.ordering`), and
:mod:`~sqlequiv.symbolic.bounded.verify` asks z3 for a database of at most k rows per
table on which the two differ: a model is a counterexample (verified by execution like
any other), no model is evidence. It reads expressions through
:mod:`sqlequiv.symbolic.terms` and shares nothing with the prover.
"""
