"""A short fuzz of every entry point that takes untrusted input.

Bad input must come back as a refusal, never as a traceback: ``guard_query`` raises
only ``SqlequivError``, ``load_schema`` only ``SchemaError``, ``check`` never raises and
returns one of the four verdicts, and ``sqlequiv check`` exits 0-3 without printing a
traceback. The inputs (``support/fuzz_inputs.py``) are mutated corpus queries and schemas, token
soups, junk text and bytes, and junk dialects. Derandomized, so CI sees the same inputs
on every run; ``benchmarks/fuzz.py`` runs the same generators for as long as you like.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings

from sqlequiv import Schema, SchemaError, SqlequivError, Verdict, check, load_schema
from sqlequiv.cli import main
from sqlequiv.guard import guard_query
from support.fuzz_inputs import (
    SMALL,
    SMALL_ARGS,
    VERDICTS,
    CheckCase,
    CliCase,
    GuardCase,
    check_cases,
    cli_cases,
    dialects,
    guard_cases,
    schema_sources,
)

#: Seconds one input may take before it counts as a hang.
LIMIT = 10.0
R = TypeVar("R")

FUZZ = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)


class _Expired(BaseException):
    """Raised by the alarm; a BaseException so that no ``except Exception`` swallows it."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise _Expired

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def bounded(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``fn(*args, **kwargs)``, failing the example when it runs past ``LIMIT`` seconds
    (a hang must fail, and shrink, instead of stalling CI)."""
    try:
        with _alarm(LIMIT):
            return fn(*args, **kwargs)
    except _Expired:
        raise AssertionError(f"no answer within {LIMIT:g} s") from None


@functools.cache
def _schema(ddl: str) -> Schema:
    return load_schema(ddl)


@FUZZ
@given(case=guard_cases)
def test_guard_raises_only_sqlequiv_errors(case: GuardCase) -> None:
    schema = _schema(case.schema_ddl)
    with contextlib.suppress(SqlequivError):
        guarded = bounded(guard_query, case.sql, schema, dialect=case.dialect, side="candidate")
        assert guarded.duckdb_sql


@FUZZ
@given(source=schema_sources, dialect=dialects)
def test_load_schema_raises_only_schema_errors(source: str | dict[str, Any], dialect: str) -> None:
    try:
        schema = bounded(load_schema, source, dialect)
    except SchemaError as err:
        assert err.kind
        assert err.message
    else:
        assert isinstance(schema, Schema)


def assert_well_formed(verdict: Verdict) -> None:
    assert isinstance(verdict, Verdict)
    assert verdict.verdict in VERDICTS
    json.loads(verdict.to_json())
    if verdict.verdict == "error":
        assert verdict.error is not None
        assert isinstance(verdict.error.kind, str) and verdict.error.kind
        assert isinstance(verdict.error.message, str) and verdict.error.message


@settings(FUZZ, max_examples=250)
@given(case=check_cases)
def test_check_never_raises(case: CheckCase) -> None:
    verdict = bounded(
        check, case.candidate, case.reference, case.schema, case.dialect, options=SMALL
    )
    assert_well_formed(verdict)


@settings(FUZZ, max_examples=200)
@given(case=cli_cases)
def test_cli_check_exits_cleanly(case: CliCase, tmp_path_factory: pytest.TempPathFactory) -> None:
    code, _out, err = run_cli(case, tmp_path_factory.mktemp("cli"))
    assert code in (0, 1, 2, 3), err
    assert "Traceback" not in err, err


def run_cli(case: CliCase, directory: Path) -> tuple[int, str, str]:
    """Write the case's files and run ``sqlequiv check`` on them in-process."""
    cand = directory / "candidate.sql"
    ref = directory / "reference.sql"
    schema = directory / f"schema{case.schema_suffix}"
    cand.write_bytes(case.candidate)
    ref.write_bytes(case.reference)
    schema.write_bytes(case.schema)
    argv = ["check", str(cand), str(ref), "--schema", str(schema), *SMALL_ARGS, *case.extra_args]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = bounded(main, argv)
    return code, out.getvalue(), err.getvalue()
