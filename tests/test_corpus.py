"""Every corpus pair gets the verdict its metadata says.

The corpus is data (``corpus/*.sql``); this file only runs it.
"""

from __future__ import annotations

import pytest

from sqlequiv import check
from sqlequiv.corpus import CorpusCase, load_corpus

CASES = load_corpus()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corpus_case(case: CorpusCase) -> None:
    verdict = check(case.candidate, case.reference, case.schema_ddl, case.dialect)
    where = f"{case.file.name}:{case.line} {case.title}"
    if case.expect == "error":
        assert verdict.verdict == "error", (where, verdict.verdict)
        assert verdict.error is not None
        if case.kind:
            assert verdict.error.kind == case.kind, (where, verdict.error)
        return
    assert verdict.verdict != "error", (where, verdict.error)
    if case.expect == "not_equivalent":
        assert verdict.verdict == "not_equivalent", (where, verdict.verdict, verdict.evidence)
        assert verdict.counterexample is not None
        if case.cause:
            assert verdict.counterexample.cause == case.cause, (
                where,
                verdict.counterexample.detail,
            )
        return
    # Truth is "equivalent": never refuted; proved by the named stage when one is given.
    assert verdict.verdict != "not_equivalent", (where, verdict.counterexample)
    if case.method:
        assert (verdict.verdict, verdict.method) == ("equivalent", case.method), where
