"""The prover: two queries of the same shape proved equivalent under the schema.

* :mod:`~sqlequiv.symbolic.prove.blocks` reads a query as blocks (sources, joins, WHERE,
  grouping, outputs) and :mod:`~sqlequiv.symbolic.prove.unnest` brings nested queries
  and derived tables into them; :mod:`~sqlequiv.symbolic.prove.semijoin` and
  :mod:`~sqlequiv.symbolic.prove.setops` read EXISTS/IN and set operations;
* :mod:`~sqlequiv.symbolic.prove.scope` translates a block's expressions into z3 terms
  over one row of each source, with the schema's constraints;
  :mod:`~sqlequiv.symbolic.prove.dependencies` adds what keys and foreign keys imply;
* :mod:`~sqlequiv.symbolic.prove.prover` matches the two queries' blocks and asks z3
  (:class:`~sqlequiv.symbolic.prove.prover.Prover`);
* :mod:`~sqlequiv.symbolic.prove.witness` turns the rows on which two filters disagree
  into databases that seed the search.

It reads expressions through :mod:`sqlequiv.symbolic.terms` and shares nothing with
bounded verification (:mod:`sqlequiv.symbolic.bounded`).
"""
