"""Assertions for test suites: ``assert_equivalent``, ``assert_not_equivalent`` and a
:class:`Checker` that keeps a schema, dialect, engine and options for many of them (the
pytest plugin's ``sqlequiv_checker`` fixture is one, configured from ``[tool.sqlequiv]``).

They call :func:`sqlequiv.check` and raise a plain ``AssertionError`` whose
message explains the verdict: for two queries that differ, the database that
tells them apart (every table, as a small text table), both results and the
rows one has and the other lacks. They work under pytest, unittest or plain
``assert``-free scripts alike; under pytest the helper's own frame is hidden
from the traceback.

Example:
    >>> ddl = "CREATE TABLE t (a INT)"
    >>> assert_equivalent("SELECT a FROM t WHERE NOT a <= 1", "SELECT a FROM t WHERE a > 1",
    ...                   schema=ddl).method
    'normalized'
    >>> assert_equivalent("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a >= 1",
    ...                   schema=ddl)
    Traceback (most recent call last):
    ...
    AssertionError: the candidate query is NOT EQUIVALENT to the reference (found by ...)
    ...
    missing rows (in the reference result, not in the candidate's):
      a
      -
      1
    ...
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from sqlequiv import api
from sqlequiv.api import SchemaSource
from sqlequiv.errors import SchemaError, SqlequivError
from sqlequiv.options import Options
from sqlequiv.render import render, table_lines
from sqlequiv.schema import load_schema
from sqlequiv.verdict import Counterexample, Verdict

if TYPE_CHECKING:
    from sqlequiv.corpus import CorpusCase

__all__ = ["Checker", "assert_equivalent", "assert_not_equivalent"]


def assert_equivalent(
    candidate: str,
    reference: str,
    *,
    schema: SchemaSource,
    dialect: str = "duckdb",
    options: Options | None = None,
    allow_unknown: bool = False,
    engine: str | None = None,
) -> Verdict:
    """Assert that ``candidate`` returns the same rows as ``reference`` on every database.

    Args:
        candidate: The query under test.
        reference: The query it must match.
        schema: Anything :func:`sqlequiv.load_schema` accepts.
        dialect: The sqlglot dialect of both queries (and of DDL text).
        options: What "the same rows" means and how hard to search; the defaults if None.
        allow_unknown: Also pass when the check neither proves nor refutes
            equivalence (no counterexample was found, but nothing was proved).
        engine: Where the queries run ("duckdb", "sqlite", "postgres"); by default the
            dialect's own engine, as :func:`sqlequiv.check` chooses.

    Returns:
        The verdict (``equivalent``, or ``unknown`` with ``allow_unknown``).

    Raises:
        AssertionError: Any other verdict. The message names the verdict and
            the method; for ``not_equivalent`` it shows the cause, the
            distinguishing database, both results and the missing and extra
            rows; for ``unknown`` what was tried; for ``error`` which query
            failed, how, and why.

    Example:
        >>> assert_equivalent("SELECT b, a FROM t", "SELECT a, b FROM t",
        ...                   schema="CREATE TABLE t (a INT, b INT)").verdict
        'equivalent'
    """
    __tracebackhide__ = True
    verdict = api.check(candidate, reference, schema, dialect, options, engine=engine)
    if verdict.verdict == "equivalent" or (allow_unknown and verdict.verdict == "unknown"):
        return verdict
    raise AssertionError(_message(verdict, candidate, reference, schema, dialect, "equivalent"))


def assert_not_equivalent(
    candidate: str,
    reference: str,
    *,
    schema: SchemaSource,
    dialect: str = "duckdb",
    options: Options | None = None,
    engine: str | None = None,
) -> Counterexample:
    """Assert that some database the schema allows tells ``candidate`` and ``reference`` apart.

    Returns:
        The verified counterexample: the database and both queries' results on it.

    Raises:
        AssertionError: The verdict is ``equivalent``, ``unknown`` (no
            counterexample found) or ``error``; the message says which and why.

    Example:
        >>> ce = assert_not_equivalent("SELECT a FROM t WHERE a > 1",
        ...                            "SELECT a FROM t WHERE a >= 1",
        ...                            schema="CREATE TABLE t (a INT)")
        >>> ce.cause, ce.missing_rows
        ('filter_window', [[1]])
        >>> assert_not_equivalent("SELECT a FROM t", "SELECT a FROM t AS x",
        ...                       schema="CREATE TABLE t (a INT)")
        Traceback (most recent call last):
        ...
        AssertionError: expected ... NOT to be equivalent ... EQUIVALENT (proved by normalized)
        ...
    """
    __tracebackhide__ = True
    verdict = api.check(candidate, reference, schema, dialect, options, engine=engine)
    if verdict.verdict == "not_equivalent" and verdict.counterexample is not None:
        return verdict.counterexample
    raise AssertionError(_message(verdict, candidate, reference, schema, dialect, "not_equivalent"))


class Checker:
    """Checks and assertions with one schema, dialect, engine and options.

    The schema is loaded once, on first use. The pytest plugin's ``sqlequiv_checker``
    fixture is a ``Checker`` configured from ``[tool.sqlequiv]``, the command line and
    the test's ``@pytest.mark.sqlequiv(...)``.

    Example:
        >>> checker = Checker("CREATE TABLE t (a INT)")
        >>> checker.assert_equivalent("SELECT a FROM t WHERE NOT a <= 1",
        ...                           "SELECT a FROM t WHERE a > 1").method
        'normalized'
        >>> checker.assert_not_equivalent("SELECT a FROM t WHERE a > 1",
        ...                               "SELECT a FROM t WHERE a >= 1").cause
        'filter_window'
    """

    def __init__(
        self,
        schema: SchemaSource | None,
        dialect: str = "duckdb",
        options: Options | None = None,
        engine: str | None = None,
    ) -> None:
        self.schema_source = schema
        self.dialect = dialect
        self.options = options or Options()
        self.engine = engine
        self._schema: SchemaSource | None = None

    def __repr__(self) -> str:
        source = self.schema_source
        plain = source is None or isinstance(source, (str, os.PathLike))
        shown = source if plain else type(source).__name__
        return f"Checker(schema={shown!r}, dialect={self.dialect!r}, engine={self.engine!r})"

    @property
    def schema(self) -> SchemaSource:
        """The schema, loaded on first use (its source when it does not load: the check
        then reports why, as an ``error`` verdict).

        Raises:
            SchemaError: no schema was given (kind ``no_schema``).
        """
        if self._schema is None:
            if self.schema_source is None:
                raise SchemaError(
                    "no_schema",
                    "no schema to check against: set schema in [tool.sqlequiv] of "
                    "pyproject.toml, pass --sqlequiv-schema, or mark the test "
                    "@pytest.mark.sqlequiv(schema=...)",
                )
            try:
                self._schema = load_schema(self.schema_source, self.dialect)
            except SqlequivError:
                self._schema = self.schema_source
        return self._schema

    def check(self, candidate: str, reference: str) -> Verdict:
        """The verdict on the pair (:func:`sqlequiv.check`)."""
        return api.check(
            candidate, reference, self.schema, self.dialect, self.options, engine=self.engine
        )

    def assert_equivalent(
        self, candidate: str, reference: str, *, allow_unknown: bool = False
    ) -> Verdict:
        """:func:`assert_equivalent` with this checker's settings."""
        __tracebackhide__ = True
        return assert_equivalent(
            candidate, reference, schema=self.schema, dialect=self.dialect,
            options=self.options, allow_unknown=allow_unknown, engine=self.engine,
        )  # fmt: skip

    def assert_not_equivalent(self, candidate: str, reference: str) -> Counterexample:
        """:func:`assert_not_equivalent` with this checker's settings."""
        __tracebackhide__ = True
        return assert_not_equivalent(
            candidate, reference, schema=self.schema, dialect=self.dialect,
            options=self.options, engine=self.engine,
        )  # fmt: skip

    def assert_case(self, case: CorpusCase, *, allow_unknown: bool = False) -> Verdict:
        """Assert that a corpus pair gets the verdict it declares (``# expect:``), on
        its own schema and dialect with this checker's options and engine.

        An ``error`` case must come back as an ``error`` verdict, of its ``# kind:``
        when it names one.

        Raises:
            AssertionError: another verdict; the message is that of
                :func:`assert_equivalent` or :func:`assert_not_equivalent`.
        """
        __tracebackhide__ = True
        schema, dialect = case.schema_ddl, case.dialect
        verdict = api.check(
            case.candidate, case.reference, schema, dialect, self.options, engine=self.engine
        )
        kind = verdict.error.kind if verdict.error is not None else None
        if case.expect == "equivalent":
            ok = verdict.verdict == "equivalent" or (allow_unknown and verdict.verdict == "unknown")
        elif case.expect == "not_equivalent":
            ok = verdict.verdict == "not_equivalent" and verdict.counterexample is not None
        else:
            ok = verdict.verdict == "error" and case.kind in (None, kind)
        if ok:
            return verdict
        expected = case.expect if case.kind is None else f"error ({case.kind})"
        message = _message(verdict, case.candidate, case.reference, schema, dialect, expected)
        raise AssertionError(f"{case.file}:{case.line}: {case.title}\n{message}")


def _message(
    verdict: Verdict,
    candidate: str,
    reference: str,
    schema: SchemaSource,
    dialect: str,
    expected: str,
) -> str:
    lines = [_headline(verdict, expected)]
    ce = verdict.counterexample
    if verdict.verdict == "not_equivalent" and ce is not None:
        lines.extend(_counterexample(ce, _columns(schema, dialect)))
    else:
        # render() writes the error line and the unknown verdict's evidence;
        # its first line repeats the headline, its timings are noise here.
        body = render(verdict).splitlines()[1:]
        lines.extend(line for line in body if not line.startswith("timings: "))
    lines += ["", "candidate query:", _indent(candidate)]
    lines += ["", "reference query:", _indent(reference)]
    return "\n".join(lines)


def _headline(verdict: Verdict, expected: str) -> str:
    method = verdict.method or "?"
    if expected.startswith("error"):
        got = f"error ({verdict.error.kind})" if verdict.error is not None else verdict.verdict
        return f"expected the check to fail with an {expected}, but the verdict is {got}"
    if verdict.verdict == "not_equivalent":
        return f"the candidate query is NOT EQUIVALENT to the reference (found by {method})"
    if verdict.verdict == "error":
        err = verdict.error
        what = f"{err.side} query: {err.kind}" if err is not None else "no details"
        return f"the check failed with an ERROR ({what}): nothing was compared"
    if verdict.verdict == "unknown":
        hint = " (pass allow_unknown=True to accept this)" if expected == "equivalent" else ""
        return f"UNKNOWN: no counterexample found, not proved equivalent either{hint}"
    return (
        "expected the candidate query NOT to be equivalent to the reference, "
        f"but it is EQUIVALENT (proved by {method})"
    )


def _counterexample(ce: Counterexample, columns: dict[str, list[str]]) -> list[str]:
    lines = [f"cause: {ce.cause}", ce.detail, "", f"database ({ce.name}):"]
    for table, rows in ce.tables.items():
        header = list(rows[0]) if rows else columns.get(table, [])
        lines.append(f"  {table}:")
        lines.extend(_table(header, [list(r.values()) for r in rows], "    "))
    lines += ["", "candidate result:", *_table(ce.candidate_columns, ce.candidate_rows, "  ")]
    lines += ["", "reference result:", *_table(ce.reference_columns, ce.reference_rows, "  ")]
    if ce.missing_rows:
        lines += ["", "missing rows (in the reference result, not in the candidate's):"]
        lines += _table(ce.reference_columns, ce.missing_rows, "  ")
    if ce.extra_rows:
        lines += ["", "extra rows (in the candidate result, not in the reference's):"]
        lines += _table(ce.candidate_columns, ce.extra_rows, "  ")
    return lines


def _table(columns: list[str], rows: list[Any], indent: str) -> list[str]:
    return [indent + line for line in table_lines(columns, [list(r) for r in rows])]


def _columns(schema: SchemaSource, dialect: str) -> dict[str, list[str]]:
    """Column names per table, so that an empty table still shows its header."""
    try:
        return {t.name: list(t.column_names) for t in load_schema(schema, dialect)}
    except SqlequivError:
        return {}


def _indent(sql: str) -> str:
    return "\n".join("  " + line for line in sql.strip().splitlines())
