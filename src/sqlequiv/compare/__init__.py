"""Do two results differ, and how: the comparison every stage and every grader uses.

* :mod:`~sqlequiv.compare.rows`: two results as bags or lists, columns matched by
  value, floats within a tolerance, ties of the reference's ORDER BY in any order
  (:func:`~sqlequiv.compare.rows.compare_results`);
* :mod:`~sqlequiv.compare.classify`: the cause of a difference, from a fixed set, and a
  sentence naming the rows.

Turning a difference into a reported counterexample (and verifying it) belongs to the
pipeline (:mod:`sqlequiv.pipeline.counterexample`), which calls both.
"""
