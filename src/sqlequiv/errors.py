"""One error root for everything sqlequiv reports as bad input.

Every error carries structured fields (which side of the check it concerns, a
machine-readable ``kind`` and, where known, a line and column) so the CLI and
the verdict can show them without parsing strings.

Every error sqlequiv raises on purpose is a :class:`SqlequivError` and also the
builtin it has always been (``except ValueError`` keeps working):

- a check's inputs: :class:`QueryError`, :class:`SchemaError`, :class:`InvalidOption`
  (a ``TypeError``), :class:`ExecutionError` (a ``RuntimeError``);
- files and runs, each a :class:`PlainError` whose text is its message alone:
  ``SuiteError``, ``PredicateError`` and ``FixtureError`` (side ``suite``,
  :mod:`sqlequiv.suite`), ``CorpusError`` (``corpus``), ``StatsError``
  (``stats``), ``BenchmarkInputError`` (``benchmark``), all ``ValueError``;
  ``WorkerStartError``, ``RayUnavailable``, ``ResultsBusy`` and ``ResultsUnwritable``
  (``backend``, :mod:`sqlequiv.grading`), all ``RuntimeError``; ``GitError`` (``git``,
  :mod:`sqlequiv.ci_output.gitdiff`), a ``RuntimeError``.

:class:`QueryFailed` is not one of them: it is the executor's internal signal
that a query failed on a fixture, turned into a verdict or record by its caller.
So are the stages' own control-flow exceptions (``TooLarge``, ``Unsupported``,
``NotABlock``, ``BudgetExceeded``, ``UncompilableCheck``): none leaves the library.
"""

from __future__ import annotations

from typing import ClassVar, Literal

#: What an error concerns: a query or the schema of a check, its options, or the file or
#: run a command was given (a suite, the corpus, results to summarise, benchmark files, the
#: workers' backend, the git repository ``sqlequiv diff`` reads).
Side = Literal[
    "candidate",
    "reference",
    "schema",
    "options",
    "suite",
    "corpus",
    "stats",
    "benchmark",
    "backend",
    "engine",
    "git",
]


class SqlequivError(Exception):
    """Base class of every error sqlequiv raises on purpose.

    Example:
        >>> err = SqlequivError("candidate", "parse_error", "unexpected token", line=1, col=8)
        >>> str(err)
        'candidate: parse_error: unexpected token (line 1, column 8)'
    """

    def __init__(
        self,
        side: Side,
        kind: str,
        message: str,
        *,
        line: int | None = None,
        col: int | None = None,
    ) -> None:
        self.side: Side = side
        self.kind = kind
        self.message = message
        self.line = line
        self.col = col
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f" (line {self.line}, column {self.col})"
        return f"{self.side}: {self.kind}: {self.message}{where}"

    def with_side(self, side: Side) -> SqlequivError:
        """Return a copy of this error attributed to ``side``."""
        return type(self)(side, self.kind, self.message, line=self.line, col=self.col)


class QueryError(SqlequivError, ValueError):
    """A query that cannot be checked: unparsable, not read-only, unknown name, ..."""


class SchemaError(SqlequivError, ValueError):
    """A schema that cannot be loaded."""

    def __init__(
        self, kind: str, message: str, *, line: int | None = None, col: int | None = None
    ) -> None:
        super().__init__("schema", kind, message, line=line, col=col)

    def with_side(self, side: Side) -> SqlequivError:
        return SqlequivError(side, self.kind, self.message, line=self.line, col=self.col)


class ExecutionError(SqlequivError, RuntimeError):
    """DuckDB refused or interrupted a query (timeout, resource limit, runtime error)."""


class InvalidOption(SqlequivError, TypeError):
    """An option value out of range, echoed back to the caller."""

    def __init__(self, message: str) -> None:
        super().__init__("options", "invalid_option", message)

    def with_side(self, side: Side) -> SqlequivError:
        return SqlequivError(side, self.kind, self.message)


class PlainError(SqlequivError):
    """An error whose class fixes its side and kind and whose text is its message alone.

    Subclasses set :attr:`SIDE` and :attr:`KIND`; they are built from a message (or from
    the problems the message lists).

    Example:
        >>> class BadThing(PlainError, ValueError):
        ...     SIDE = "suite"
        ...     KIND = "bad_thing"
        >>> err = BadThing("items[0]: no sql")
        >>> str(err), err.side, err.kind, isinstance(err, ValueError)
        ('items[0]: no sql', 'suite', 'bad_thing', True)
    """

    SIDE: ClassVar[Side]
    KIND: ClassVar[str]

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(self.SIDE, self.KIND, message, line=line)

    def __str__(self) -> str:
        return self.message

    def with_side(self, side: Side) -> SqlequivError:
        return SqlequivError(side, self.kind, self.message, line=self.line, col=self.col)


class QueryFailed(Exception):
    """A query failed on a fixture.

    ``static`` errors fail on every database (unknown function, type error at
    bind time); the others depend on the data (division by zero, a scalar
    subquery returning two rows, a failed cast). ``timeout`` means the
    watchdog interrupted the query.
    """

    def __init__(
        self, message: str, *, static: bool, timeout: bool = False, resource: bool = False
    ) -> None:
        super().__init__(message)
        self.static = static
        self.timeout = timeout
        #: The query ran out of memory: like a timeout, a limit of ours, not a fact of the data.
        self.resource = resource
        #: Which query failed; set by the caller that knows ("candidate" or "reference").
        self.side: str = "candidate"

    @property
    def kind(self) -> str:
        """The error kind a verdict or record reports: ``timeout``, ``resource_limit`` (both
        limits of ours, not facts of the data) or ``execution_error``.

        Example:
            >>> QueryFailed("out of memory", static=False, resource=True).kind
            'resource_limit'
        """
        if self.timeout:
            return "timeout"
        return "resource_limit" if self.resource else "execution_error"
