"""The bundled example suite loads, and its q-0142 and predicate answers grade as labelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqlequiv import Options, grade, load_suite
from sqlequiv.grading.results import read_candidates

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SUITE = load_suite(EXAMPLES / "suite.yaml")
TASKS = {(t.item_id, t.sample): t for t in read_candidates(EXAMPLES / "candidates.jsonl", SUITE)}
FAST = Options(max_fixtures=60, time_budget=3.0, bounded_time_budget=1.0)


def test_example_suite_is_complete() -> None:
    assert len(SUITE) >= 13 and SUITE.items[0].id == "q-0142"
    kinds = {item.reference_kind for item in SUITE.items}
    assert kinds == {"query", "predicate"}
    assert any(len(item.references) > 1 for item in SUITE.items)
    assert all(item.clarification for item in SUITE.items)
    assert len(TASKS) >= 40


@pytest.mark.parametrize(
    ("item_id", "sample", "status", "cause"),
    [
        ("q-0142", 0, "pass", None),  # correlated subquery keeps zero-count customers
        ("q-0142", 1, "fail", "missing_rows"),  # inner join drops them
        ("q-0142", 3, "fail", "same_keys_different_values"),  # COUNT(*) over the LEFT JOIN
        ("q-0155", 0, "pass", None),
        ("q-0155", 1, "fail", None),  # predicate violated on a fixture
    ],
)
def test_labelled_answers(item_id: str, sample: int, status: str, cause: str | None) -> None:
    task = TASKS[(item_id, sample)]
    record = grade(SUITE.item(item_id), task.sql, FAST, sample=sample, predicate_databases=10)
    assert record.status == status
    assert record.cause == cause
    if status == "fail" and item_id == "q-0142":
        assert record.counterexample is not None
        assert record.counterexample["name"] == "enterprise_with_no_orders"
