"""The guard's one entry point, :func:`guard_query`: the checks in order, the cache of
guarded trees, and :class:`GuardedQuery`, what every later stage reads.

The package's docstring (:mod:`sqlequiv.guard`) says what is checked and why; each
kind of check lives in its own module, which this one calls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, OptimizeError, SqlglotError

from sqlequiv.errors import InvalidOption, QueryError, Side
from sqlequiv.guard.mysql import is_mysql, mysql_group_names, mysql_identifiers
from sqlequiv.guard.mysql_casts import MySQLCastError
from sqlequiv.guard.mysql_group_by import only_full_group_by as full_group_by
from sqlequiv.guard.names import (
    NameChecks,
    _name_single_column_functions,
    _name_values_columns,
    _natural_or_using,
    sqlite_string_identifiers,
)
from sqlequiv.guard.precedence import check_precedence
from sqlequiv.guard.qualify import annotate_query, qualify_query, to_duckdb
from sqlequiv.guard.readonly import ReadOnlyChecks
from sqlequiv.guard.text import _check_text, _one_line, _parse_one
from sqlequiv.identity_cache import IdentityCache
from sqlequiv.policy.catalogues import ENGINES, engine_for, native
from sqlequiv.policy.functions import (
    FORBIDDEN_FUNCTION_PREFIXES,
    FORBIDDEN_FUNCTIONS,
    TABLE_FUNCTIONS,
)
from sqlequiv.schema.model import Schema

__all__ = [
    "FORBIDDEN_FUNCTIONS",
    "FORBIDDEN_FUNCTION_PREFIXES",
    "MAX_NODES",
    "TABLE_FUNCTIONS",
    "GuardedQuery",
    "guard_query",
    "on_engine",
    "sqlite_string_identifiers",
]

#: Largest syntax tree analysed (``too_complex`` beyond). The largest query of the
#: peers' 1,635 benchmark queries has 280 nodes; a 1,000-term OR chain has about 5,000.
MAX_NODES = 5_000

_ENGINE_NAMES = {"duckdb": "DuckDB", "sqlite": "SQLite", "postgres": "PostgreSQL"}


@dataclass(frozen=True)
class GuardedQuery:
    """A query that passed every guard, with the trees later stages work on.

    Attributes:
        side: Which side of the check the query is ("candidate" or "reference").
        sql: The source text, exactly as given.
        dialect: The source dialect the text was parsed in.
        parsed: The tree as parsed in the source dialect, before qualification.
        qualified: ``qualify_query(parsed, schema, dialect)``: every column
            qualified, stars expanded, types annotated.
        duckdb_sql: ``to_duckdb(qualified)``: the query in DuckDB's SQL.
        fully_qualified: False when sqlglot could not resolve the columns of a
            NATURAL or USING join; ``qualified`` is then the parsed tree with
            types annotated, DuckDB resolves the names itself, and no proof
            may rest on the tree (the normalizer is skipped).
        engine: The engine the query runs on: "duckdb" (which runs ``duckdb_sql``),
            "sqlite" or "postgres" (which run the source text of their own dialect
            unchanged, and ``engine_sql`` for any other).
    """

    side: Side
    sql: str
    dialect: str
    parsed: exp.Expression
    qualified: exp.Expression
    #: The DuckDB translation, or None until asked for (see :attr:`duckdb_sql`).
    translation: str | None
    fully_qualified: bool = True
    engine: str = "duckdb"

    #: The translation to the engine's dialect, for an engine other than DuckDB that
    #: does not run the source dialect natively (a ``duckdb`` query on PostgreSQL).
    engine_sql: str = ""

    @property
    def duckdb_sql(self) -> str:
        """``to_duckdb(qualified)``; "" where another engine runs the query and sqlglot
        cannot translate it. Where another engine runs the query it is only
        informative, and rendered only when asked for."""
        if self.translation is None:
            try:
                text = to_duckdb(self.qualified)
            except Exception:
                # Informative only, and sqlglot's generator may throw anything on a
                # strange tree: no translation then, as for a SqlglotError.
                text = ""
            object.__setattr__(self, "translation", text)
            return text
        return self.translation

    @property
    def executed_sql(self) -> str:
        """The text the engine runs: the source itself on its own engine (SQLite for
        ``sqlite``, PostgreSQL for ``postgres``), else the translation to the engine's SQL."""
        if native(self.dialect, self.engine):
            return " " + self.sql[1:] if self.sql.startswith("\ufeff") else self.sql
        if self.engine == "duckdb":
            return self.duckdb_sql
        return self.engine_sql


def guard_query(
    sql: str,
    schema: Schema,
    *,
    dialect: str = "duckdb",
    side: Side = "candidate",
    max_length: int = 100_000,
    engine: str | None = None,
    max_nodes: int | None = None,
    lower_case_table_names: int = 1,
    only_full_group_by: bool = True,
) -> GuardedQuery:
    """Parse ``sql`` and check that it is one read-only query over ``schema``.

    The checks, in order: the dialect is known; the text is non-empty, at most
    ``max_length`` characters and free of binary junk; it parses to exactly one
    statement; that statement is a query with no data-modifying or
    session-changing part anywhere; it calls no forbidden function and no table
    function other than those in :data:`TABLE_FUNCTIONS`; every table is a
    schema table or a CTE in scope; every column resolves. The last three
    checks run again on the DuckDB translation.

    Args:
        sql: The query text.
        schema: The tables the query may read.
        dialect: A sqlglot dialect name, e.g. ``"duckdb"`` or ``"postgres"``.
        side: Which side of the check this query is; copied into errors.
        max_length: The largest accepted query, in characters.
        max_nodes: The largest accepted query, in syntax-tree nodes (default
            :data:`MAX_NODES`).
        engine: Where the query will run: "duckdb", "sqlite" or "postgres"; by
            default SQLite for the ``sqlite`` dialect, PostgreSQL for ``postgres``,
            else DuckDB. A native engine runs the source text and its own sandbox
            replaces the re-check; any other runs (and re-checks) the translation.
            For SQLite, functions are looked up in SQLite's catalogue; for
            PostgreSQL, the server's (an unknown name fails there, statically).
        lower_case_table_names: For the ``mysql`` dialect, MySQL's setting of that
            name: 0 compares table names and aliases case-sensitively (against the
            DDL's spelling), 1 and 2 case-insensitively (see :mod:`sqlequiv.guard.mysql`).
        only_full_group_by: For the ``mysql`` dialect, whether the server's SQL mode
            has ONLY_FULL_GROUP_BY (its default): if not, a column neither grouped nor
            determined by the grouped ones is a value of an arbitrary row of the group
            (see :mod:`sqlequiv.guard.mysql_group_by`), not an error.

    Returns:
        The parsed, qualified and translated query.

    Raises:
        QueryError: With ``kind`` one of ``unknown_dialect``, ``empty_query``,
            ``too_large``, ``invalid_text``, ``parse_error``, ``too_complex``,
            ``multiple_statements``, ``not_read_only``, ``forbidden_function``,
            ``unknown_table``, ``unknown_column``, ``ambiguous_column``,
            ``only_full_group_by`` (MySQL) or ``unsupported``. No other exception
            escapes; ``KeyboardInterrupt`` and other non-``Exception`` signals pass through.

    Example:
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> orders = Table("orders", (Column("id", exp.DataType.build("INT")),))
        >>> schema = Schema((orders,))
        >>> guard_query("SELECT id FROM Orders", schema).duckdb_sql
        'SELECT orders.id AS id FROM orders AS orders'
        >>> try:
        ...     guard_query("SELECT idd FROM orders", schema)
        ... except QueryError as err:
        ...     print(err.kind, "-", err.message)
        unknown_column - column "idd" does not exist in orders (columns: id); did you mean "id"?
        >>> try:
        ...     guard_query("DROP TABLE orders", schema)
        ... except QueryError as err:
        ...     print(err.kind)
        not_read_only
    """
    engine = engine or engine_for(dialect)
    if engine not in ENGINES:
        raise InvalidOption(f"engine={engine!r} must be one of {', '.join(ENGINES)}")
    key = (
        sql, id(schema), dialect, engine, max_length, max_nodes, lower_case_table_names,
        only_full_group_by,
    )  # fmt: skip
    known = _GUARDED.get(key, schema)
    if known is not None:
        # No stage modifies a guarded tree (each copies before it rewrites, which the
        # canonical-form cache relies on too), so the first caller shares the kept trees;
        # a later one gets copies, so that a stage breaking that rule could not carry its
        # change into another check.
        return replace(
            known, side=side, parsed=known.parsed.copy(), qualified=known.qualified.copy()
        )
    try:
        guarded = _guard(
            sql,
            schema,
            dialect=dialect,
            side=side,
            max_length=max_length,
            engine=engine,
            max_nodes=max_nodes or MAX_NODES,
            lower_case_table_names=lower_case_table_names,
            only_full_group_by=only_full_group_by,
        )
    except QueryError:
        raise
    except RecursionError:
        raise QueryError(
            side,
            "too_complex",
            "the query is nested too deeply to analyse (too many levels of parentheses "
            "or subqueries)",
        ) from None
    except Exception as exc:
        # The input is untrusted and sqlglot is large: whatever it throws on a
        # strange query must still come back as a checkable error, not a traceback.
        raise QueryError(
            side,
            "unsupported",
            f"the query could not be analysed ({type(exc).__name__}: {_one_line(str(exc))})",
        ) from exc
    _GUARDED.put(key, guarded, schema)
    return guarded


#: Guarded queries kept, most recently used last, by text, schema and settings: a grader
#: that calls :func:`sqlequiv.check` per candidate guards one reference again and again,
#: and a benchmark's pairs share references (166 distinct in the floor benchmark's 312).
#: Guarding a query costs ~3 ms, mostly sqlglot's qualification; copying its two trees
#: for a later caller ~0.4 ms.
_GUARDED: IdentityCache[GuardedQuery] = IdentityCache(256)


def _guard(
    sql: str,
    schema: Schema,
    *,
    dialect: str,
    side: Side,
    max_length: int,
    engine: str,
    max_nodes: int,
    lower_case_table_names: int = 1,
    only_full_group_by: bool = True,
) -> GuardedQuery:
    try:
        sqlglot.Dialect.get_or_raise(dialect)
    except ValueError as exc:
        known = ", ".join(sorted(d for d in sqlglot.Dialect.classes if d))
        raise QueryError(
            side, "unknown_dialect", f"{_one_line(str(exc))} (known dialects: {known})"
        ) from None

    _check_text(sql, side=side, max_length=max_length)

    # A byte-order mark from an editor is not SQL; a space keeps every offset.
    text = " " + sql[1:] if sql.startswith("\ufeff") else sql
    source = _Checker(side, dialect, schema, text, engine)
    root = source.parse()
    mysql = is_mysql(dialect)
    if mysql:
        root = mysql_identifiers(
            root, schema, lower_case_table_names=lower_case_table_names, error=source.error
        )
    source.check_size(root, max_nodes)
    source.check_read_only(root)
    check_precedence(root, text, dialect=dialect, engine=engine, side=side)
    source.check_functions(root)
    source.check_tables(root)
    source.check_constructs(root)
    source.check_known_functions(root)
    if dialect.lower() == "sqlite":
        root = sqlite_string_identifiers(root, schema, text)
    if mysql:
        mysql_group_names(root, source.select_sources)
    fully_qualified = True
    try:
        qualified = source.qualify(root)
    except QueryError as exc:
        if exc.kind not in ("unknown_column", "ambiguous_column") or not _natural_or_using(root):
            raise
        # sqlglot cannot resolve columns through some NATURAL/USING joins that
        # DuckDB resolves; let DuckDB decide (a real unknown column fails there
        # as an execution error) rather than reject a valid query.
        qualified = annotate_query(root.copy(), dialect)
        fully_qualified = False
    if mysql and fully_qualified:
        qualified = full_group_by(
            qualified, schema, error=source.error, strict=only_full_group_by
        )
    source.check_translated(qualified)

    duckdb_sql: str | None = None  # another engine runs the query: rendered when asked for
    engine_sql = ""
    if engine == "duckdb":
        try:
            duckdb_sql = to_duckdb(qualified)
        except SqlglotError as exc:
            raise QueryError(
                side,
                "unsupported",
                f"the query cannot be translated to DuckDB: {_one_line(str(exc))}",
            ) from exc
        # Defence in depth: check what will actually run, not only what was written.
        _Checker(side, "duckdb", schema, None).recheck(duckdb_sql, "duckdb")
    elif not native(dialect, engine):
        engine_sql = _translation(side, qualified, schema, engine)
    # (A native engine runs the text checked above, under its own sandbox: SQLite's
    # authorizer, PostgreSQL's read-only role.)

    return GuardedQuery(
        side=side,
        sql=sql,
        dialect=dialect,
        parsed=root,
        qualified=qualified,
        translation=duckdb_sql,
        fully_qualified=fully_qualified,
        engine=engine,
        engine_sql=engine_sql,
    )


def on_engine(
    query: GuardedQuery, schema: Schema, engine: str, *, recheck: bool = True
) -> GuardedQuery:
    """``query`` as run by ``engine`` instead: translated from its qualified tree to the
    engine's SQL and, unless ``recheck`` is False, re-checked there, as :func:`guard_query`
    checks what it runs.

    Raises :class:`~sqlequiv.errors.QueryError` when the translation fails or does not
    pass the guards.

    Example:
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INTEGER)")
        >>> q = on_engine(guard_query("SELECT IF(a > 1, 1, 2) FROM t", s), s, "sqlite")
        >>> q.engine, q.executed_sql
        ('sqlite', 'SELECT IIF(t.a > 1, 1, 2) AS _col_0 FROM t AS t')
    """
    if native(query.dialect, engine):
        raise ValueError(f"a {query.dialect} query already runs on {engine} as written")
    engine_sql = _translation(
        query.side, query.qualified, schema, engine, recheck=recheck, strict=True
    )
    return replace(query, engine=engine, engine_sql=engine_sql)


def _translation(
    side: Side,
    qualified: exp.Expression,
    schema: Schema,
    engine: str,
    *,
    recheck: bool = True,
    strict: bool = False,
) -> str:
    """``qualified`` in ``engine``'s SQL, re-checked (if ``recheck``) as the text that
    will run; if ``strict``, what sqlglot knows it cannot translate (``EXCEPT ALL`` on
    SQLite) fails instead of being logged as a warning."""
    level = ErrorLevel.RAISE if strict else ErrorLevel.WARN
    try:
        engine_sql = qualified.sql(dialect=engine, unsupported_level=level)
    except SqlglotError as exc:
        raise QueryError(
            side,
            "unsupported",
            f"the query cannot be translated to {_ENGINE_NAMES[engine]}: {_one_line(str(exc))}",
        ) from exc
    if recheck:
        _Checker(side, engine, schema, None, engine).recheck(engine_sql, engine)
    return engine_sql


class _Checker(ReadOnlyChecks, NameChecks):
    """All the guards over one tree, and the steps that combine them."""

    def qualify(self, root: exp.Expression) -> exp.Expression:
        """Qualify against the schema, turning sqlglot's errors into QueryErrors."""
        try:
            try:
                qualified = self._qualify(root)
            except OptimizeError as first:
                # FROM unnest(x) AS u ... SELECT u: the alias names the one column
                # too (Postgres and DuckDB), which sqlglot's qualifier does not know.
                # t.EXPR$0 over (VALUES ...) AS t: Calcite's names for its columns.
                named = _name_single_column_functions(root) or _name_values_columns(root, first)
                if named is None:
                    raise
                qualified = self._qualify(named)
        except OptimizeError as exc:
            raise self.column_error(root, exc) from None
        except SqlglotError as exc:
            raise self.error(
                "unsupported",
                f"the query could not be qualified against the schema: {_one_line(str(exc))}",
            ) from exc
        self.check_resolved(qualified)
        return qualified

    def _qualify(self, root: exp.Expression) -> exp.Expression:
        try:
            return qualify_query(root, self.schema, self.dialect)
        except MySQLCastError as exc:
            raise self.error("unsupported", exc.message, exc.node) from None

    # -- defence in depth ------------------------------------------------------

    def recheck(self, executed: str, engine: str) -> None:
        """Run the read-only, function and table guards on the SQL that will execute."""
        try:
            tree = _parse_one(executed, engine, self.side)
        except SqlglotError as exc:
            raise QueryError(
                self.side,
                "unsupported",
                f"the {_ENGINE_NAMES[engine]} translation of the query cannot be re-read: "
                f"{_one_line(str(exc))}",
            ) from exc
        self.check_read_only(tree)
        self.check_functions(tree)
        self.check_tables(tree)
        self.check_known_functions(tree)
