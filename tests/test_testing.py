"""sqlequiv.testing: the assertion helpers and the messages they fail with."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import SHOP_DDL
from sqlequiv import Options, check
from sqlequiv.testing import assert_equivalent, assert_not_equivalent

#: Two tables, so that the counterexample shows one of them empty.
TWO_TABLES = "CREATE TABLE t (a INT, label VARCHAR); CREATE TABLE u (x INT, y VARCHAR)"
DIFFERENT = ("SELECT a, label FROM t WHERE a > 1", "SELECT a, label FROM t WHERE a >= 1")
#: Equivalent, but with the symbolic layer off nothing proves it: the verdict is unknown.
UNPROVED = ("SELECT a FROM t WHERE abs(a) >= 0", "SELECT a FROM t WHERE a IS NOT NULL")
NO_PROOF = Options(symbolic=False, max_fixtures=20)


def _failure(candidate: str, reference: str, **kwargs: Any) -> str:
    with pytest.raises(AssertionError) as info:
        assert_equivalent(candidate, reference, **kwargs)
    return str(info.value)


def _section(message: str, title: str) -> list[str]:
    """The lines under ``title`` up to the next blank line, stripped."""
    lines = message.splitlines()
    start = [line.strip() for line in lines].index(title) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return [line.strip() for line in lines[start:end]]


def _cells(row: list[Any]) -> list[str]:
    return ["NULL" if v is None else str(v) for v in row]


def _shows_rows(section: list[str], rows: list[list[Any]]) -> bool:
    rendered = [[c.strip() for c in line.split(" | ")] for line in section]
    return all(_cells(row) in rendered for row in rows)


def test_an_equivalent_pair_passes_and_returns_the_verdict() -> None:
    verdict = assert_equivalent(
        "SELECT c.name FROM customers c WHERE c.plan = 'pro'",
        "SELECT name FROM customers WHERE 'pro' = plan",
        schema=SHOP_DDL,
    )
    assert verdict.verdict == "equivalent"
    assert verdict.method is not None


def test_a_different_pair_fails_with_the_database_and_both_results() -> None:
    verdict = check(*DIFFERENT, TWO_TABLES)  # the same seed finds the same database
    ce = verdict.counterexample
    assert ce is not None
    message = _failure(*DIFFERENT, schema=TWO_TABLES)

    assert message.splitlines()[0] == (
        f"the candidate query is NOT EQUIVALENT to the reference (found by {verdict.method})"
    )
    assert f"cause: {ce.cause}" in message
    assert ce.detail in message
    # Every table, with its column headers; the empty one too.
    t_rows = _section(message, "t:")
    assert t_rows[0].split(" | ") == ["a", "label"]
    assert _shows_rows(t_rows[2:], [list(r.values()) for r in ce.tables["t"]])
    assert _section(message, "u:") == ["x | y", "(no rows)"]
    # Both result sets, with their columns and rows.
    cand = _section(message, "candidate result:")
    ref = _section(message, "reference result:")
    assert cand[0].split(" | ") == ce.candidate_columns
    assert ref[0].split(" | ") == ce.reference_columns
    assert _shows_rows(cand[2:], ce.candidate_rows)
    assert _shows_rows(ref[2:], ce.reference_rows)
    assert len(ref) - 2 == len(ce.reference_rows) > len(ce.candidate_rows) == len(cand) - 2
    missing = _section(message, "missing rows (in the reference result, not in the candidate's):")
    assert ce.missing_rows and _shows_rows(missing[2:], ce.missing_rows)
    assert "extra rows" not in message  # there are none
    # And the two queries.
    assert _section(message, "candidate query:") == [DIFFERENT[0]]
    assert _section(message, "reference query:") == [DIFFERENT[1]]


def test_null_cells_read_null_and_extra_rows_are_listed() -> None:
    message = _failure("SELECT a FROM t", "SELECT a FROM t WHERE a > 1", schema=TWO_TABLES)
    extra = _section(message, "extra rows (in the candidate result, not in the reference's):")
    assert extra[0] == "a"
    assert len(extra) > 2
    # Only a NULL tells these two apart.
    message = _failure("SELECT a FROM t WHERE a IS NOT NULL", "SELECT a FROM t", schema=TWO_TABLES)
    missing = _section(message, "missing rows (in the reference result, not in the candidate's):")
    assert missing[2:] == ["NULL"]


def test_unknown_fails_unless_allowed() -> None:
    message = _failure(*UNPROVED, schema=TWO_TABLES, options=NO_PROOF)
    assert message.startswith("UNKNOWN: no counterexample found, not proved")
    assert "allow_unknown=True" in message
    assert "No difference found on" in message  # the evidence, from render()
    assert "timings:" not in message
    verdict = assert_equivalent(*UNPROVED, schema=TWO_TABLES, options=NO_PROOF, allow_unknown=True)
    assert verdict.verdict == "unknown"


def test_allow_unknown_does_not_let_a_difference_pass() -> None:
    with pytest.raises(AssertionError, match="NOT EQUIVALENT"):
        assert_equivalent(*DIFFERENT, schema=TWO_TABLES, allow_unknown=True)


@pytest.mark.parametrize(
    ("candidate", "reference", "side", "kind"),
    [
        ("SELEC a FROM t", "SELECT a FROM t", "candidate", "parse_error"),
        ("SELECT a FROM t", "SELECT nope FROM t", "reference", "unknown_column"),
        ("SELECT a FROM t", "SELECT a FROM v", "reference", "unknown_table"),
    ],
)
def test_an_error_names_the_side_and_kind(
    candidate: str, reference: str, side: str, kind: str
) -> None:
    message = _failure(candidate, reference, schema=TWO_TABLES)
    assert message.splitlines()[0] == (
        f"the check failed with an ERROR ({side} query: {kind}): nothing was compared"
    )
    error = check(candidate, reference, TWO_TABLES).error
    assert error is not None
    assert error.message in message


def test_a_schema_that_does_not_load_is_an_error_not_a_crash() -> None:
    message = _failure("SELECT 1", "SELECT 1", schema="no such file.sql")
    assert "ERROR (schema" in message.splitlines()[0]


def test_pytest_hides_the_helper_frame() -> None:
    with pytest.raises(AssertionError) as info:
        assert_equivalent(*DIFFERENT, schema=TWO_TABLES)
    shown = [entry.name for entry in info.traceback.filter(info)]
    assert "assert_equivalent" not in shown
    assert "assert_equivalent" in [entry.name for entry in info.traceback]


def test_assert_not_equivalent_returns_the_counterexample() -> None:
    ce = assert_not_equivalent(*DIFFERENT, schema=TWO_TABLES)
    assert ce.cause == "filter_window"
    assert ce.missing_rows and not ce.extra_rows


@pytest.mark.parametrize(
    ("pair", "options", "headline"),
    [
        (("SELECT b, a FROM u2", "SELECT a, b FROM u2"), None, "but it is EQUIVALENT (proved by"),
        (UNPROVED, NO_PROOF, "UNKNOWN: no counterexample found, not proved"),
        (("SELECT zz FROM t", "SELECT a FROM t"), None, "ERROR (candidate query: unknown_column)"),
    ],
)
def test_assert_not_equivalent_fails_without_a_counterexample(
    pair: tuple[str, str], options: Options | None, headline: str
) -> None:
    schema = TWO_TABLES + "; CREATE TABLE u2 (a INT, b INT)"
    with pytest.raises(AssertionError) as info:
        assert_not_equivalent(*pair, schema=schema, options=options)
    assert headline in str(info.value).splitlines()[0]
    assert "allow_unknown" not in str(info.value)
