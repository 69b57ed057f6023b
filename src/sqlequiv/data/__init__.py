"""The user's own database (``--data``): its rows read once, the facts they show, and how
realistic a counterexample is against them.

* :mod:`~sqlequiv.data.source`: the database opened read-only, a snapshot of its rows;
* :mod:`~sqlequiv.data.mining`: what the data shows beyond the declared schema (never
  NULL, unique, the foreign key the schema forgot, categories, ranges), in words;
* :mod:`~sqlequiv.data.realism`: the tiers ``on_data``, ``realistic``, ``edge``, the
  facts a counterexample breaks, and the schema with the facts added as constraints.

The pipeline sorts its refutations with them (:mod:`sqlequiv.pipeline.realism`).
"""
