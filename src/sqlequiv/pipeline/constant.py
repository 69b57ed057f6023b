"""The constant decision: queries that read no table have one result on every database."""

from __future__ import annotations

import dataclasses

from sqlequiv.database import Database
from sqlequiv.errors import QueryFailed
from sqlequiv.pipeline.counterexample import difference
from sqlequiv.pipeline.failures import execution_error
from sqlequiv.pipeline.pair import Pair
from sqlequiv.policy import varies_between_runs
from sqlequiv.verdict import Verdict


def constant_decision(pair: Pair) -> Verdict | None:
    """When neither query reads a table (and neither reads the clock or a random number),
    both results are the same on every database, so one execution decides, and proves
    equality."""
    if pair.tables_read or any(
        varies_between_runs(q.qualified) for q in (pair.candidate, pair.reference)
    ):
        return None
    with pair.timer.stage("constant"):
        try:
            cand_rows, ref_rows = pair.results_on_empty()
        except QueryFailed as exc:
            return execution_error(exc, pair)
        comparison, example = difference(
            Database({}), pair.schema, pair.candidate, pair.reference, cand_rows, ref_rows,
            pair.options,
        )  # fmt: skip
        if comparison.equal:
            return pair.verdict("equivalent", method="constant")
        if example is None:  # the column matching ran out of budget
            evidence = dataclasses.replace(pair.evidence, ambiguous_columns=True)
            return pair.verdict("unknown", evidence=evidence)
        return pair.verdict("not_equivalent", method="constant", counterexample=example)
