"""Every error sqlequiv raises on purpose sits under one root and is still its builtin."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import sqlequiv
from sqlequiv.corpus import CorpusError
from sqlequiv.errors import (
    ExecutionError,
    InvalidOption,
    PlainError,
    QueryError,
    QueryFailed,
    SchemaError,
    SqlequivError,
)
from sqlequiv.grading.pools import WorkerStartError
from sqlequiv.grading.ray_pool import RayUnavailable
from sqlequiv.stats import StatsError
from sqlequiv.suite.fixtures import FixtureError
from sqlequiv.suite.load import PredicateError, Problem, SuiteError
from sqlequiv.text2sql.formats import BenchmarkInputError

ERRORS = [
    (QueryError("candidate", "parse_error", "x"), ValueError, "candidate"),
    (SchemaError("parse_error", "x"), ValueError, "schema"),
    (ExecutionError("reference", "timeout", "x"), RuntimeError, "reference"),
    (InvalidOption("x"), TypeError, "options"),
    (SuiteError([Problem("file", "x")]), ValueError, "suite"),
    (PredicateError("x"), ValueError, "suite"),
    (FixtureError("x"), ValueError, "suite"),
    (CorpusError(Path("c.sql"), 3, "x"), ValueError, "corpus"),
    (StatsError(["x"]), ValueError, "stats"),
    (BenchmarkInputError(["x"]), ValueError, "benchmark"),
    (WorkerStartError("x"), RuntimeError, "backend"),
    (RayUnavailable("x"), RuntimeError, "backend"),
]


@pytest.mark.parametrize(("err", "builtin", "side"), ERRORS, ids=lambda v: type(v).__name__)
def test_every_input_error_is_under_the_root(
    err: SqlequivError, builtin: type[Exception], side: str
) -> None:
    assert isinstance(err, SqlequivError)
    assert isinstance(err, builtin)
    assert err.side == side
    assert err.kind
    assert "x" in err.message


@pytest.mark.parametrize(
    ("err", "text"),
    [
        (SuiteError([Problem("file", "x")]), "1 problem in the suite:\n  file: x"),
        (PredicateError("no such function"), "no such function"),
        (FixtureError("rows: unknown table 't'"), "rows: unknown table 't'"),
        (CorpusError(Path("c.sql"), 3, "bad"), "c.sql:3: bad"),
        (StatsError(["a", "b"]), "2 problems:\n  a\n  b"),
        (BenchmarkInputError(["a"]), "a"),
        (WorkerStartError("a worker died"), "a worker died"),
    ],
)
def test_plain_errors_keep_their_text(err: PlainError, text: str) -> None:
    assert str(err) == text
    assert err.args == (text,)


def test_with_side_keeps_kind_and_message() -> None:
    moved = FixtureError("x").with_side("reference")
    assert (moved.side, moved.kind, moved.message) == ("reference", "invalid_fixture", "x")


@pytest.mark.parametrize(
    "err", [SuiteError([Problem("file", "x")]), StatsError(["a", "b"]), PredicateError("x")]
)
def test_errors_sent_between_processes_survive(err: SqlequivError) -> None:
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err)
    assert str(again) == str(err)


def test_the_executor_signal_is_not_an_input_error() -> None:
    assert not isinstance(QueryFailed("x", static=True), SqlequivError)


def test_public_names_are_kept() -> None:
    for name in ("SqlequivError", "QueryError", "SchemaError", "SuiteError"):
        assert name in sqlequiv.__all__
