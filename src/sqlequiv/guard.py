"""Parse and guard: the first stage of the pipeline.

Candidate SQL comes from a model and is untrusted. Before anything is executed
this module makes sure the text is exactly one read-only query that only
reads the schema's tables, calls no function that can reach files, URLs,
settings or other databases, and names only tables and columns that exist.
Every refusal is a :class:`~sqlequiv.errors.QueryError` with a machine-readable
``kind`` and a message that quotes the offending text; nothing else escapes.

The checks run on the tree parsed in the source dialect and, as defence in
depth, again on the DuckDB SQL that will really be executed: a transpile that
turned something harmless into something that is not must not slip through.
Nothing in this module executes the query; the only SQL it runs is one fixed
query, on a private in-memory DuckDB, for the names of DuckDB's functions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import TokenType, exp
from sqlglot.errors import OptimizeError, ParseError, SqlglotError, TokenError
from sqlglot.schema import normalize_name

from sqlequiv.errors import QueryError, Side
from sqlequiv.parse_cost import parse_cost
from sqlequiv.policy.catalogues import duckdb_functions, engine_for, sqlite_functions
from sqlequiv.policy.functions import (
    FORBIDDEN_FUNCTION_PREFIXES,
    FORBIDDEN_FUNCTIONS,
    MAX_BUILT_SIZE,
    SIZED_FUNCTIONS,
    TABLE_FUNCTION_NODES,
    TABLE_FUNCTIONS,
    function_names,
    is_forbidden,
    numeric_constant,
)
from sqlequiv.qualify import annotate_query, qualify_query, to_duckdb, translated_functions
from sqlequiv.schema.model import Schema

__all__ = [
    "FORBIDDEN_FUNCTIONS",
    "FORBIDDEN_FUNCTION_PREFIXES",
    "TABLE_FUNCTIONS",
    "GuardedQuery",
    "guard_query",
]

# Statements and clauses that write, change session state, or are not queries.
# Searched for anywhere in the tree, so a data-modifying CTE
# (WITH d AS (DELETE ... RETURNING *) SELECT ...) is caught as well as a root.
_NOT_READ_ONLY: tuple[type[exp.Expr], ...] = (
    exp.DML,  # INSERT, UPDATE, DELETE, MERGE, COPY
    exp.DDL,  # CREATE (of anything), INSERT
    exp.Drop,
    exp.Undrop,
    exp.Alter,
    exp.AlterRename,
    exp.AlterSession,
    exp.SwapTable,
    exp.TruncateTable,
    exp.MultitableInserts,
    exp.LoadData,
    exp.Returning,
    exp.Into,  # SELECT ... INTO creates a table
    exp.Lock,  # SELECT ... FOR UPDATE / FOR SHARE
    exp.LockingStatement,
    exp.Attach,
    exp.Detach,
    exp.Pragma,
    exp.Set,
    exp.SetItem,
    exp.Use,
    exp.Install,
    exp.Command,  # sqlglot's fallback for statements it does not understand
    exp.Describe,
    exp.Show,
    exp.Summarize,
    exp.Export,
    exp.Analyze,
    exp.Transaction,
    exp.Commit,
    exp.Rollback,
    exp.Cache,
    exp.Uncache,
    exp.Refresh,
    exp.Grant,
    exp.Revoke,
    exp.Kill,
    exp.Comment,
    exp.Declare,
    exp.Execute,
    exp.Put,
    exp.Get,
    exp.StoredProcedure,
)

# How a refused node is named in messages, where the class name would not say it.
_STATEMENT_NAMES: dict[type[exp.Expr], str] = {
    exp.TruncateTable: "TRUNCATE",
    exp.MultitableInserts: "INSERT",
    exp.LoadData: "LOAD DATA",
    exp.Into: "SELECT ... INTO",
    exp.Lock: "a row-locking clause (FOR UPDATE / FOR SHARE)",
    exp.LockingStatement: "LOCKING",
    exp.SetItem: "SET",
    exp.Transaction: "BEGIN",
    exp.AlterRename: "ALTER ... RENAME",
    exp.AlterSession: "ALTER SESSION",
    exp.SwapTable: "ALTER ... SWAP",
    exp.Returning: "RETURNING",
}

# First words of statements that are not queries. Used to name the statement
# when sqlglot could not parse it (EXPORT DATABASE, or ATTACH in Postgres) or
# parsed it as a bare expression (Postgres reads "INSTALL httpfs" as an alias).
_STATEMENT_KEYWORDS: frozenset[str] = frozenset(
    {
        "ABORT",
        "ALTER",
        "ANALYZE",
        "ATTACH",
        "BEGIN",
        "CALL",
        "CHECKPOINT",
        "COMMENT",
        "COMMIT",
        "COPY",
        "CREATE",
        "DEALLOCATE",
        "DECLARE",
        "DELETE",
        "DESCRIBE",
        "DETACH",
        "DROP",
        "EXECUTE",
        "EXPLAIN",
        "EXPORT",
        "FORCE",
        "GRANT",
        "IMPORT",
        "INSERT",
        "INSTALL",
        "KILL",
        "LOAD",
        "LOCK",
        "MERGE",
        "PRAGMA",
        "PREPARE",
        "PUT",
        "REFRESH",
        "RESET",
        "REVOKE",
        "ROLLBACK",
        "SET",
        "SHOW",
        "START",
        "SUMMARIZE",
        "TRUNCATE",
        "UNLOAD",
        "UPDATE",
        "UPSERT",
        "USE",
        "VACUUM",
    }
)

# Operators whose operands are values: a bare "*" there (Calcite writes
# "WHERE * = t.deptno") stands for nothing. A Dot is struct access (s.*).
_VALUE_OPERATORS: tuple[type[exp.Expr], ...] = (exp.Binary, exp.Unary, exp.In, exp.Between)

# Window functions that have no meaning without OVER (DuckDB has no aggregate of
# these names; Calcite's and Spark's aggregate forms pick an undetermined row).
_WINDOW_ONLY: tuple[type[exp.Expr], ...] = (exp.FirstValue, exp.LastValue, exp.NthValue)

# Nodes between a window function and its OVER: FIRST_VALUE(x) IGNORE NULLS OVER (...).
_WINDOW_WRAPPERS: tuple[type[exp.Expr], ...] = (exp.IgnoreNulls, exp.RespectNulls, exp.Filter)

# Calcite's names for the columns of a VALUES list: EXPR$0, EXPR$1, ...
_CALCITE_VALUES_COLUMN = re.compile(r"expr\$(\d+)", re.IGNORECASE)

# Schemas a table may be qualified with: the tables are created in DuckDB's
# default schema, and anything else (information_schema, pg_catalog, an
# attached database) is outside the schema being checked.
_ALLOWED_DB_QUALIFIERS = frozenset({"main"})

# Whitespace and comments before the first word of a statement.
# One whitespace character per repetition and a possessive repeat: with ``\s+`` inside
# ``*`` a run of spaces before a non-word splits in exponentially many ways (40 spaces
# then "1" never returned).
_LEADING_WORD = re.compile(r"(?:\s|--[^\n]*(?:\n|$)|/\*.*?\*/|\()*+([A-Za-z_]+)", re.DOTALL)
# sqlglot describes tokens in parse errors as "<Token token_type: ..., text: X, ...>".
_TOKEN_REPR = re.compile(r"<Token token_type: [^,]*, text: (.*?), line: \d+, col: \d+.*?>")
_OPTIMIZE_POSITION = re.compile(r"Line: (\d+), Col: (\d+)")
# TokenError's cause: "Missing ' from <line>:<offset>".
_TOKEN_START = re.compile(r"from \d+:(\d+)")
_PATH_LIKE = re.compile(r"[./\\:]")
# Control characters other than whitespace (\t \n \v \f \r), lone surrogates
# (bytes smuggled in with errors="surrogateescape") and U+FFFD (bytes decoded
# with errors="replace"): each means the input was not text.
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffd]")
_SNIPPET_LENGTH = 80
_MAX_LISTED = 20


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
        engine: The engine the query runs on: "duckdb" (which runs ``duckdb_sql``)
            or "sqlite" (which runs the source text unchanged).
    """

    side: Side
    sql: str
    dialect: str
    parsed: exp.Expression
    qualified: exp.Expression
    duckdb_sql: str
    fully_qualified: bool = True
    engine: str = "duckdb"

    @property
    def executed_sql(self) -> str:
        """The text the engine runs: the DuckDB translation, or for SQLite the source itself."""
        if self.engine == "sqlite":
            return " " + self.sql[1:] if self.sql.startswith("\ufeff") else self.sql
        return self.duckdb_sql


def guard_query(
    sql: str,
    schema: Schema,
    *,
    dialect: str = "duckdb",
    side: Side = "candidate",
    max_length: int = 100_000,
    engine: str | None = None,
    max_nodes: int | None = None,
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
        engine: Where the query will run: "duckdb" (translated) or "sqlite"
            (unchanged); by default SQLite for the ``sqlite`` dialect, else DuckDB.
            For SQLite, functions are looked up in SQLite's catalogue and the
            DuckDB re-check is replaced by SQLite's own authorizer.

    Returns:
        The parsed, qualified and translated query.

    Raises:
        QueryError: With ``kind`` one of ``unknown_dialect``, ``empty_query``,
            ``too_large``, ``invalid_text``, ``parse_error``, ``too_complex``,
            ``multiple_statements``, ``not_read_only``, ``forbidden_function``,
            ``unknown_table``, ``unknown_column``, ``ambiguous_column`` or
            ``unsupported``. No other exception escapes; ``KeyboardInterrupt``
            and other non-``Exception`` signals pass through.

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
    try:
        return _guard(
            sql,
            schema,
            dialect=dialect,
            side=side,
            max_length=max_length,
            engine=engine,
            max_nodes=max_nodes or MAX_NODES,
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


def _guard(
    sql: str,
    schema: Schema,
    *,
    dialect: str,
    side: Side,
    max_length: int,
    engine: str,
    max_nodes: int,
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
    source.check_size(root, max_nodes)
    source.check_read_only(root)
    _check_is_precedence(root, text, dialect, side)
    source.check_functions(root)
    source.check_tables(root)
    source.check_constructs(root)
    source.check_known_functions(root)
    if dialect.lower() == "sqlite":
        root = sqlite_string_identifiers(root, schema, text)
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
    source.check_translated(qualified)

    try:
        duckdb_sql = to_duckdb(qualified)
    except SqlglotError as exc:
        if engine != "sqlite":
            raise QueryError(
                side,
                "unsupported",
                f"the query cannot be translated to DuckDB: {_one_line(str(exc))}",
            ) from exc
        duckdb_sql = ""  # SQLite runs the source text; the translation is only informative

    if engine != "sqlite":
        # Defence in depth: check what will actually run, not only what was written.
        # (SQLite runs the text checked above, under an authorizer that allows reads only.)
        _Checker(side, "duckdb", schema, None).recheck(duckdb_sql)

    return GuardedQuery(
        side=side,
        sql=sql,
        dialect=dialect,
        parsed=root,
        qualified=qualified,
        duckdb_sql=duckdb_sql,
        fully_qualified=fully_qualified,
        engine=engine,
    )


_COMPARISON = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _comparisons_over_is(root: exp.Expr) -> int:
    """How many comparisons have an ``IS`` test as a (parenthesized) operand."""
    count = 0
    for node in root.find_all(*_COMPARISON):
        for side in (node.this, node.expression):
            inner = side.this if isinstance(side, exp.Paren) else side
            inner = inner.this if isinstance(inner, exp.Not) else inner
            if isinstance(inner, exp.Is):
                count += 1
    return count


def _check_is_precedence(root: exp.Expr, text: str, dialect: str, side: Side) -> None:
    """Refuse ``a = b IS TRUE`` where the dialect's parser binds IS tighter than standard SQL.

    Standard SQL (and Postgres, DuckDB, Calcite) read it as ``(a = b) IS TRUE``;
    sqlglot's Trino parser reads ``a = (b IS TRUE)``. Checking either reading
    could judge a pair by semantics its author did not mean, so the query must
    say which with parentheses.
    """
    if dialect in ("duckdb", "postgres") or _comparisons_over_is(root) == 0:
        return
    try:
        standard = _parse_one(text, "postgres", side)
    except (QueryError, SqlglotError, RecursionError, IndexError):
        return
    if _comparisons_over_is(standard) != _comparisons_over_is(root):
        raise QueryError(
            side,
            "ambiguous_precedence",
            f"the {dialect} parser binds IS more tightly than standard SQL in a comparison "
            "such as 'a = b IS TRUE'; add parentheses to say which is meant",
        )


def sqlite_string_identifiers(root: exp.Expression, schema: Schema, text: str) -> exp.Expression:
    """Read SQLite's double-quoted strings as strings.

    SQLite takes ``"Bob"`` for an identifier when a column of that name is in
    scope and for a string literal otherwise (a quirk it keeps for
    compatibility, and one Spider's gold queries rely on: ``WHERE name =
    "Bob"``). sqlglot always reads an identifier, which then fails to
    resolve. Here a double-quoted, unqualified name that is no column of any
    schema table and no alias of the query becomes the string it spells.
    Names that exist somewhere are left alone: resolving them needs SQLite's
    scoping, and an unresolved one is reported as an unknown column.

    Example:
        >>> from sqlglot import exp, parse_one
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> s = Schema((Table("t", (Column("name", exp.DataType.build("TEXT")),)),))
        >>> q = 'SELECT "name" FROM t WHERE name = "Bob"'
        >>> print(sqlite_string_identifiers(parse_one(q, read="sqlite"), s, q).sql("sqlite"))
        SELECT "name" FROM t WHERE name = 'Bob'
    """
    known = {c.name.lower() for t in schema for c in t.columns}
    known |= {a.alias.lower() for a in root.find_all(exp.Alias) if a.alias}
    for alias in root.find_all(exp.TableAlias):
        known |= {c.name.lower() for c in alias.columns}
    for column in list(root.find_all(exp.Column)):
        ident = column.this
        if column.table or not isinstance(ident, exp.Identifier) or not ident.quoted:
            continue
        start = ident.meta.get("start")
        if not isinstance(start, int) or text[start : start + 1] != '"':
            continue  # `x` and [x] are always identifiers
        if ident.name.lower() in known:
            continue
        literal = exp.Literal.string(ident.name)
        if column is root:
            return literal
        column.replace(literal)
    return root


def _natural_or_using(root: exp.Expression) -> bool:
    return any(j.args.get("method") or j.args.get("using") for j in root.find_all(exp.Join))


def _check_text(sql: object, *, side: Side, max_length: int) -> None:
    """Input hygiene, before any tokenizing: cheap checks first, size before content."""
    if not isinstance(sql, str):
        raise QueryError(
            side, "invalid_text", f"expected the query as text, got {type(sql).__name__}"
        )
    if len(sql) > max_length:
        raise QueryError(
            side,
            "too_large",
            f"the query is {len(sql):,} characters long; the limit is {max_length:,}",
        )
    if not sql.strip():
        raise QueryError(side, "empty_query", "the query is empty")
    junk = _BINARY.search(sql)
    if junk is not None:
        line, col = _line_col(sql, junk.start())
        char = junk.group()
        what = "a NUL byte" if char == "\0" else f"the character U+{ord(char):04X}"
        raise QueryError(
            side,
            "invalid_text",
            f"the query contains {what} at line {line}, column {col}: "
            "it looks like binary data, not SQL text",
            line=line,
            col=col,
        )


class _Checker:
    """The guards over one tree.

    ``sql`` is the text the tree's position metadata refers to; it is None for
    the re-parsed DuckDB translation, whose positions would mislead the user.
    """

    def __init__(
        self, side: Side, dialect: str, schema: Schema, sql: str | None, engine: str = "duckdb"
    ) -> None:
        self.side: Side = side
        self.dialect = dialect
        self.schema = schema
        self.sql = sql
        self.engine = engine
        self.tables = {self.norm(exp.to_identifier(t.name)): t.name for t in schema}

    # -- errors and positions -------------------------------------------------

    def error(
        self,
        kind: str,
        message: str,
        node: exp.Expr | None = None,
        *,
        keyword: str | None = None,
    ) -> QueryError:
        if self.sql is None:
            message += " (in the DuckDB translation of the query)"
        line, col = self.position(node, keyword) if node is not None else (None, None)
        return QueryError(self.side, kind, message, line=line, col=col)

    def position(self, node: exp.Expr, keyword: str | None = None) -> tuple[int | None, int | None]:
        """Best-effort 1-based line and column where ``node`` starts in the source.

        Only identifiers, literals and some function names carry positions, so
        this is the earliest position in the node's subtree, moved back to the
        last ``keyword`` before it (the DELETE of a CTE whose only positioned
        token is its table name; the name of a function whose only positioned
        token is its argument).
        """
        if self.sql is None:
            return None, None
        starts = [
            n.meta["start"]
            for n in node.walk()
            if isinstance(n.meta_get("start"), int) and n.meta["start"] < len(self.sql)
        ]
        start = min(starts) if starts else None
        if keyword:
            end = len(self.sql) if start is None else start + len(keyword)
            pattern = rf"(?<![\w$]){re.escape(keyword)}(?![\w$])"
            found = [m.start() for m in re.finditer(pattern, self.sql[:end], re.IGNORECASE)]
            start = found[-1] if found else start
        return (None, None) if start is None else _line_col(self.sql, start)

    def leading_keyword(self) -> tuple[str, int] | None:
        """The first word of the source (upper-cased) and its offset."""
        match = _LEADING_WORD.match(self.sql or "")
        return (match.group(1).upper(), match.start(1)) if match else None

    def refuse_statement(self, keyword: str, offset: int) -> QueryError:
        """A whole statement that is not a query, named by its first word."""
        assert self.sql is not None
        line, col = _line_col(self.sql, offset)
        return QueryError(
            self.side,
            "not_read_only",
            f"{keyword} is not allowed: only a single read-only query can be checked "
            f'(found "{_shorten(self.sql.strip())}")',
            line=line,
            col=col,
        )

    def snippet(self, node: exp.Expr, *, fallback: exp.Expr | None = None) -> str:
        """``node`` as SQL of the tree's dialect, shortened for a message."""
        try:
            text = node.sql(dialect=self.dialect)
        except Exception:  # the generator may not support every parsed node
            text = ""
        if not text.strip() and fallback is not None:
            # Some clauses (FOR UPDATE) render as nothing on their own.
            return self.snippet(fallback)
        return _shorten(text or node.key.upper())

    def norm(self, identifier: exp.Identifier) -> str:
        """The name as the dialect resolves it (case folding, quoting rules)."""
        try:
            return normalize_name(identifier, dialect=self.dialect, is_table=True).name
        except Exception:  # an exotic identifier: fall back to case-insensitive
            return identifier.name.lower()

    # -- parsing ---------------------------------------------------------------

    def parse(self) -> exp.Expression:
        """Parse the source into exactly one statement."""
        assert self.sql is not None
        sql = self.sql
        try:
            statements = _parse(sql, self.dialect, self.side)
        except ParseError as exc:
            self.refuse_statement_keyword()
            raise self.parse_error(exc) from None
        except TokenError as exc:
            raise self.token_error(exc) from None

        # None is an empty statement (";;", a comment); sqlglot keeps a comment
        # after the last ";" as a Semicolon node.
        real = [s for s in statements if s is not None and not isinstance(s, exp.Semicolon)]
        if not real:
            raise QueryError(
                self.side, "empty_query", "the query contains only comments or semicolons"
            )
        if len(real) > 1:
            line, col = self._second_statement_start()
            raise QueryError(
                self.side,
                "multiple_statements",
                f"found {len(real)} statements; only one query can be checked "
                f'(the second is "{self.snippet(real[1])}")',
                line=line,
                col=col,
            )
        root = real[0]
        if not isinstance(root, exp.Expression):  # pragma: no cover - parse yields nodes
            raise QueryError(self.side, "unsupported", "sqlglot returned no syntax tree")
        return root

    def parse_error(self, exc: ParseError) -> QueryError:
        info = exc.errors[0] if exc.errors else {}
        description = _TOKEN_REPR.sub(r'"\1"', str(info.get("description") or exc))
        highlight = str(info.get("highlight") or "")
        before = str(info.get("start_context") or "")[-40:]
        context = f"{before}{highlight}{str(info.get('end_context') or '')[:20]}"
        line, col = info.get("line"), info.get("col")
        # sqlglot reports the column where the token ends; point at its start.
        if isinstance(col, int) and highlight and "\n" not in highlight:
            col = max(col - len(highlight) + 1, 1)
        message = f"cannot parse the query: {_one_line(description)}"
        if highlight:
            message += f' at "{_shorten(highlight)}"'
        if context.strip():
            message += f' in "{_shorten(context.strip())}"'
        return QueryError(
            self.side,
            "parse_error",
            message,
            line=line if isinstance(line, int) else None,
            col=col if isinstance(col, int) else None,
        )

    def token_error(self, exc: TokenError) -> QueryError:
        assert self.sql is not None
        # The cause says what went wrong and where: "Missing ' from <line>:<offset>".
        cause = _one_line(str(exc.__cause__ or exc))
        match = _TOKEN_START.search(cause)
        if match is None or int(match.group(1)) >= len(self.sql):
            # No position (an unclosed /* comment fails with an IndexError): quote the end.
            return QueryError(
                self.side,
                "parse_error",
                "cannot tokenize the query (is a comment, string or quoted name left open?) "
                f'near "{_shorten(self.sql[-40:])}"',
            )
        offset = int(match.group(1))
        line, col = _line_col(self.sql, offset)
        missing = re.match(r"Missing (.+?) from", cause)
        what = f"missing closing {missing.group(1)}" if missing else cause[: match.start()].strip()
        return QueryError(
            self.side,
            "parse_error",
            f"cannot tokenize the query: {what} for the text starting "
            f'"{_shorten(self.sql[offset:])}"',
            line=line,
            col=col,
        )

    def refuse_statement_keyword(self) -> None:
        """Refuse a non-query statement sqlglot could not parse, by its first word."""
        leading = self.leading_keyword()
        if leading is not None and leading[0] in _STATEMENT_KEYWORDS:
            raise self.refuse_statement(*leading)

    def _second_statement_start(self) -> tuple[int | None, int | None]:
        assert self.sql is not None
        try:
            tokens = sqlglot.Dialect.get_or_raise(self.dialect).tokenize(self.sql)
        except Exception:  # positions are best effort
            return None, None
        seen_statement = seen_semicolon = False
        for token in tokens:
            if token.token_type == TokenType.SEMICOLON:
                seen_semicolon = seen_statement
            elif seen_semicolon:
                return _line_col(self.sql, token.start)
            else:
                seen_statement = True
        return None, None

    # -- read-only -------------------------------------------------------------

    def check_read_only(self, root: exp.Expr) -> None:
        """The root is a query and nothing anywhere in the tree writes or changes state."""
        leading = self.leading_keyword()
        for node in root.walk():
            if isinstance(node, _NOT_READ_ONLY):
                name = _statement_name(node)
                if node is root and leading is not None:
                    # A whole statement: quote the source, not sqlglot's rendering of it.
                    raise self.refuse_statement(name, leading[1])
                raise self.error(
                    "not_read_only",
                    f"{name} is not allowed: only a single read-only query can be checked "
                    f'(found "{self.snippet(node, fallback=root)}")',
                    node,
                    keyword=_statement_keyword(node),
                )
            if isinstance(node, (exp.Placeholder, exp.Parameter)):
                raise self.error(
                    "unsupported",
                    f'query parameters are not supported (found "{self.snippet(node)}")',
                    node,
                )

        query = root.unnest()
        if isinstance(query, (exp.Select, exp.SetOperation, exp.Values)):
            return
        if isinstance(query, exp.Pivot):
            raise self.error(
                "unsupported",
                "a stand-alone PIVOT/UNPIVOT statement is not supported "
                f'(found "{self.snippet(root)}")',
                root,
            )
        if leading is not None and leading[0] in _STATEMENT_KEYWORDS:
            # Parsed as a bare expression: Postgres reads "INSTALL httpfs" as an alias.
            raise self.refuse_statement(*leading)
        raise self.error(
            "parse_error",
            f'expected a query (SELECT, WITH, VALUES, ...), found "{self.snippet(root)}"',
            root,
        )

    # -- functions -------------------------------------------------------------

    def check_size(self, root: exp.Expr, max_nodes: int) -> None:
        """Not more tree than the analysers can get through in their budgets.

        Normalization and the symbolic layer have no clock of their own; a 3,000-term
        OR chain (35 KB, well under the text limit) kept them busy for minutes.
        """
        for count, _ in enumerate(root.walk(), start=1):
            if count > max_nodes:
                raise QueryError(
                    self.side,
                    "too_complex",
                    f"the query has more than {max_nodes:,} syntax-tree nodes",
                )

    def check_functions(self, root: exp.Expr) -> None:
        """No forbidden function anywhere; only allowed table functions in FROM; no
        constant that makes a scalar function build a huge value."""
        for node in root.walk():
            if not isinstance(node, exp.Func):
                continue
            names = function_names(node)
            if SIZED_FUNCTIONS.intersection(names) and not _in_table_position(node):
                for arg in node.iter_expressions():
                    size = numeric_constant(arg)
                    if size is not None and abs(size) > MAX_BUILT_SIZE:
                        raise self.error(
                            "resource_limit",
                            f"{names[0]} with {arg.sql()} would build a value of more than "
                            f"{MAX_BUILT_SIZE:,} elements in memory "
                            f'(found "{self.snippet(node)}")',
                            node,
                        )
            forbidden = next((n for n in names if is_forbidden(n)), None)
            if forbidden is not None:
                raise self.error(
                    "forbidden_function",
                    f"function {forbidden} is not allowed: it can read files or URLs, other "
                    f'databases, settings or the environment (found "{self.snippet(node)}")',
                    node,
                    keyword=forbidden,
                )
            if _in_table_position(node) and not (
                isinstance(node, TABLE_FUNCTION_NODES) or TABLE_FUNCTIONS.intersection(names)
            ):
                allowed = ", ".join(sorted(TABLE_FUNCTIONS))
                raise self.error(
                    "forbidden_function",
                    f"table function {names[0]} is not allowed in FROM (allowed: {allowed}); "
                    f'found "{self.snippet(node)}"',
                    node,
                    keyword=names[0],
                )

    def check_known_functions(self, root: exp.Expr) -> None:
        """Every function the dialect's parser did not recognise exists in DuckDB.

        A name neither sqlglot nor DuckDB knows is an uninterpreted function
        (``B1(x)`` in the query-equivalence literature): there is nothing to
        execute, so it is refused by name instead of failing later, often as a
        confusing unknown column (its argument is typically a table alias).
        """
        translated = translated_functions(self.dialect)
        for node in root.walk(bfs=False):  # the first in reading order
            if not isinstance(node, (exp.Anonymous, exp.AnonymousAggFunc)):
                continue
            name = node.name
            if _in_table_position(node) or not name:
                continue  # table functions are checked by check_functions
            lower = name.lower()
            if lower in translated:
                continue  # rewritten during qualification, or refused after it
            if lower == "single_value":
                raise self.error(
                    "unsupported",
                    f'{name} is not supported (found "{self.snippet(node)}"): it is Calcite\'s '
                    "aggregate that fails at run time when its group has more than one row, "
                    "and a query that fails on some databases cannot be compared by its rows",
                    node,
                    keyword=name,
                )
            if lower in self.known_functions():
                continue
            engine = "SQLite" if self.engine == "sqlite" else "DuckDB"
            where = (
                "DuckDB has no such function"
                if self.sql is None
                else f"it is not a {self.dialect} function sqlglot knows, nor a {engine} function"
            )
            raise self.error(
                "unknown_function",
                f"function {name} does not exist: {where} "
                f'(found "{self.snippet(node)}"); an uninterpreted function cannot be checked',
                node,
                keyword=name,
            )

    def known_functions(self) -> frozenset[str]:
        """Names of the functions the engine that runs the query has."""
        if self.engine == "sqlite":
            return sqlite_functions()
        return duckdb_functions()

    # -- constructs without a meaning to execute --------------------------------

    def check_constructs(self, root: exp.Expr) -> None:
        """Refuse constructs that parse but mean nothing DuckDB can run, by name."""
        for node in root.walk():
            if isinstance(node, exp.Select) and not node.expressions:
                raise self.error(
                    "unsupported",
                    "a SELECT without columns is not supported: DuckDB has no rows without "
                    f'columns to compare (found "{self.snippet(node)}")',
                    node,
                    keyword="SELECT",
                )
            if (
                isinstance(node, exp.Star)
                and isinstance(node.parent, _VALUE_OPERATORS)
                and not isinstance(node.parent, exp.Dot)
            ):
                operation = node.parent
                raise self.error(
                    "unsupported",
                    f'"*" is used as a value in "{self.snippet(operation)}": a bare * stands '
                    "for all columns only in a select list or COUNT(*), and has no value",
                    operation,
                )
            if isinstance(node, _WINDOW_ONLY) and not _has_over(node):
                name = node.sql_name() if isinstance(node, exp.Func) else node.key.upper()
                raise self.error(
                    "unsupported",
                    f'{name} without OVER is not supported (found "{self.snippet(node)}"): it is '
                    "a window function, and as an aggregate (Calcite, Spark) it returns the "
                    "value of whichever row of the group comes first, which nothing determines",
                    node,
                    keyword=name,
                )

    def check_translated(self, qualified: exp.Expr) -> None:
        """Refuse what the type-directed translation could not give a single meaning."""
        translated = translated_functions(self.dialect)
        for node in qualified.walk():
            if (
                isinstance(node, exp.Anonymous)
                and node.name.lower() in translated
                and not _in_table_position(node)
            ):
                if node.name.lower() == "single_value":
                    raise self.error(
                        "unsupported",
                        f'this use of {node.name} is not supported (found "{self.snippet(node)}"): '
                        "only a plain SINGLE_VALUE(x) aggregate is translated, not one with "
                        "DISTINCT, FILTER or OVER",
                        node,
                        keyword=node.name,
                    )
                args = node.expressions
                type_ = args[0].type if len(args) == 1 else None
                what = "its arguments"
                if type_ is not None:
                    what = f"a {type_.sql(self.dialect)} value"
                raise self.error(
                    "unsupported",
                    f'{node.name} of {what} is not supported (found "{self.snippet(node)}"): '
                    "only the POSITIVE of one number or interval (the value itself) is translated",
                    node,
                    keyword=node.name,
                )
            if isinstance(node, exp.Case):
                self._check_case_types(node)

    def _check_case_types(self, case: exp.Case) -> None:
        """A CASE whose results mix text columns and numbers has no dialect-independent type.

        Spark and MySQL turn the numbers into strings, DuckDB and Postgres refuse.
        A string literal among numbers is fine: it is cast to the numeric type.
        """
        results = [i.args.get("true") for i in case.args.get("ifs") or ()]
        results.append(case.args.get("default"))
        text = numeric = None
        for result in results:
            type_ = result.type if isinstance(result, exp.Expr) else None
            if type_ is None:
                continue
            if type_.is_type(*exp.DataType.TEXT_TYPES) and not (
                isinstance(result, exp.Literal) and result.is_string
            ):
                text = text or type_
            elif type_.is_type(*exp.DataType.NUMERIC_TYPES):
                numeric = numeric or type_
        if text is not None and numeric is not None:
            raise self.error(
                "unsupported",
                f"CASE mixes {numeric.sql(self.dialect)} and {text.sql(self.dialect)} results "
                f'(found "{self.snippet(case)}"): the type of the result depends on the '
                "dialect's coercion rules (Spark and MySQL make it a string, DuckDB and "
                "Postgres refuse it); add a CAST to say which is meant",
                case,
                keyword="CASE",
            )

    # -- tables ----------------------------------------------------------------

    def check_tables(self, root: exp.Expr) -> None:
        """Every table reference is a schema table or a CTE in scope."""
        for table in root.find_all(exp.Table):
            this = table.this
            if isinstance(this, exp.Func):
                continue  # a table function, checked by check_functions
            if not isinstance(this, exp.Identifier):
                raise self.error(
                    "unsupported",
                    f'the table reference "{self.snippet(table)}" is not supported',
                    table,
                )
            self._check_table(table, this)

    def _check_table(self, table: exp.Table, ident: exp.Identifier) -> None:
        full_name = ".".join(part.name for part in table.parts)
        if self._is_string_literal(ident):
            # DuckDB reads FROM 'file.csv' (a "replacement scan") as a file.
            raise self.error(
                "forbidden_function",
                f"reading a file is not allowed: FROM '{ident.name}' names a file, not a table",
                table,
            )
        if table.catalog or (table.db and table.db.lower() not in _ALLOWED_DB_QUALIFIERS):
            raise self.error(
                "unknown_table",
                f'table "{full_name}" does not exist in the schema: only the schema\'s own '
                f"tables (optionally written main.<table>) can be queried "
                f"(known tables: {self._known_tables()})",
                table,
            )
        if not table.db and _find_cte(table, ident, self.norm) is not None:
            return
        key = self.norm(ident)
        if key in self.tables:
            return

        by_lower = {name.lower(): name for name in self.tables.values()}
        if ident.name.lower() in by_lower:
            raise self.error(
                "unknown_table",
                f'table "{ident.name}" does not exist in the schema: '
                f"{'quoted ' if ident.quoted else ''}table names are case-sensitive in "
                f"{self.dialect or 'this dialect'}; "
                f'did you mean "{by_lower[ident.name.lower()]}"?',
                table,
            )
        if ident.quoted and _PATH_LIKE.search(ident.name):
            raise self.error(
                "forbidden_function",
                f'reading a file is not allowed: "{ident.name}" looks like a file path or '
                "URL, and DuckDB would read it as a file",
                table,
            )
        candidates = sorted(self.tables.values())
        raise self.error(
            "unknown_table",
            f'table "{full_name}" does not exist in the schema '
            f"(known tables: {self._known_tables()}){_did_you_mean(ident.name, candidates)}",
            table,
        )

    def _is_string_literal(self, ident: exp.Identifier) -> bool:
        start = ident.meta_get("start")
        return (
            self.sql is not None
            and isinstance(start, int)
            and start < len(self.sql)
            and self.sql[start] == "'"
        )

    def _known_tables(self) -> str:
        return _listing(sorted(self.tables.values())) or "none"

    # -- qualification and columns ---------------------------------------------

    def qualify(self, root: exp.Expression) -> exp.Expression:
        """Qualify against the schema, turning sqlglot's errors into QueryErrors."""
        try:
            try:
                qualified = qualify_query(root, self.schema, self.dialect)
            except OptimizeError as first:
                # FROM unnest(x) AS u ... SELECT u: the alias names the one column
                # too (Postgres and DuckDB), which sqlglot's qualifier does not know.
                # t.EXPR$0 over (VALUES ...) AS t: Calcite's names for its columns.
                named = _name_single_column_functions(root) or _name_values_columns(root, first)
                if named is None:
                    raise
                qualified = qualify_query(named, self.schema, self.dialect)
        except OptimizeError as exc:
            raise self.column_error(root, exc) from None
        except SqlglotError as exc:
            raise self.error(
                "unsupported",
                f"the query could not be qualified against the schema: {_one_line(str(exc))}",
            ) from exc
        self.check_resolved(qualified)
        return qualified

    def column_error(self, root: exp.Expr, exc: OptimizeError) -> QueryError:
        message = _one_line(str(exc))
        position = _OPTIMIZE_POSITION.search(message)
        where = (int(position.group(1)), int(position.group(2))) if position else None

        match = re.match(r"Column '(.+?)' could not be resolved for table: '(.+?)'", message)
        if match:
            return self.unknown_column(root, match.group(1), match.group(2), where)
        match = re.match(r"Column '(.+?)' could not be resolved", message)
        if match:
            return self.unknown_column(root, match.group(1), None, where)
        match = re.match(r"Ambiguous column '(.+?)'", message)
        if match:
            return self.unknown_column(root, match.group(1), None, where, ambiguous=True)
        match = re.match(r"Unknown output column: (\d+)$", message)
        if match:
            return self.position_out_of_range(root, match.group(1))
        match = re.match(r"Unknown (?:output )?column: (.+)", message)
        if match:
            return self.unknown_column(root, match.group(1), None, where)
        match = re.match(r"Unknown table: (.+)", message)
        if match:
            return self.error(
                "unknown_table",
                f'table "{match.group(1)}" does not exist in the schema '
                f"(known tables: {self._known_tables()})",
            )
        return self.error(
            "unsupported", f"the query could not be qualified against the schema: {message}"
        )

    def position_out_of_range(self, root: exp.Expr, number: str) -> QueryError:
        """``GROUP BY 4`` (or ORDER BY) with fewer than 4 columns in the select list."""
        literal = next(
            (
                lit
                for lit in root.find_all(exp.Literal)
                if lit.is_int
                and lit.name == number
                and isinstance(lit.parent, (exp.Group, exp.Order, exp.Ordered))
            ),
            None,
        )
        parent = literal.parent if literal is not None else None
        clause = "ORDER BY" if isinstance(parent, (exp.Order, exp.Ordered)) else "GROUP BY"
        select = literal.find_ancestor(exp.Select) if literal is not None else None
        if select is not None and not any(isinstance(e, exp.Star) for e in select.expressions):
            width = f" has {len(select.expressions)} column(s)"
        else:
            width = " is shorter"
        message = (
            f"{clause} {number} is out of range: in {self.dialect} an integer there is a "
            f"position in the select list, and the select list{width}"
        )
        if clause == "GROUP BY":
            message += (
                f" (Calcite reads GROUP BY {number} as the constant {number} instead; as the "
                "meaning differs between systems, the query is not checked)"
            )
        return self.error("unsupported", message, literal)

    def unknown_column(
        self,
        root: exp.Expr,
        name: str,
        table: str | None,
        where: tuple[int, int] | None,
        *,
        ambiguous: bool = False,
    ) -> QueryError:
        """An unknown or ambiguous column, with the columns in scope and close matches."""
        column = _find_column(root, name, table, where)
        line: int | None
        col: int | None
        if column is not None:
            line, col = self.position(column)
            table = table or column.table or None
        elif where is not None:
            line, col = where[0], max(where[1] - len(name) + 1, 1)
        else:
            line = col = None

        if column is None:
            # sqlglot named a column we cannot find again: suggest from the whole schema.
            candidates = list(dict.fromkeys(c for t in self.schema for c in t.column_names))
            message = f'column "{name}" does not exist in the schema'
            message += _did_you_mean(name, candidates)
            kind = "ambiguous_column" if ambiguous else "unknown_column"
            if ambiguous:
                message = f'column "{name}" is ambiguous; qualify it with a table name or alias'
            return QueryError(self.side, kind, message, line=line, col=col)

        nearest, outer = self.sources(column)
        in_scope = nearest + outer
        having = [alias for alias, columns in nearest if name.lower() in columns]
        if ambiguous or (table is None and len(having) >= 2):
            message = f'column "{name}" is ambiguous'
            if having:
                options = " or ".join(f"{alias}.{name}" for alias in having)
                message += f": it exists in {_listing(having, conj='and')}; qualify it as {options}"
            return QueryError(self.side, "ambiguous_column", message, line=line, col=col)

        if table is not None:
            matching = [columns for alias, columns in in_scope if alias == table.lower()]
            if not matching:
                aliases = _listing(alias for alias, _ in in_scope) or "none"
                return QueryError(
                    self.side,
                    "unknown_column",
                    f'column "{table}.{name}" cannot be resolved: there is no table or alias '
                    f'"{table}" in scope (in scope: {aliases})',
                    line=line,
                    col=col,
                )
            candidates = list(dict.fromkeys(matching[0]))
            message = f'column "{name}" does not exist in {table}'
            listed = candidates
            owners = [
                alias
                for alias, columns in in_scope
                if alias != table.lower() and name.lower() in columns
            ]
            if owners:
                # Calcite writes $cor0.$f0 for a column of the LATERAL subquery
                # next to the table $cor0 names: not what the text says.
                listed = []
                message += (
                    f" (columns: {_listing(candidates)}); it is a column of "
                    f"{_listing(owners, conj='and')}, not of {table}"
                )
        else:
            # List the columns of the nearest FROM; suggest from outer ones too
            # (a correlated subquery may mean a column of the outer query).
            listed = list(dict.fromkeys(c for _, columns in nearest or in_scope for c in columns))
            candidates = list(dict.fromkeys(c for _, columns in in_scope for c in columns))
            sources = _listing((alias for alias, _ in nearest or in_scope), conj="or")
            message = f'column "{name}" does not exist'
            message += f" in {sources}" if sources else " (no table is in scope there)"
        if listed:
            message += f" (columns: {_listing(listed)})"
        message += _did_you_mean(name, candidates)
        return QueryError(self.side, "unknown_column", message, line=line, col=col)

    def sources(
        self, node: exp.Expr
    ) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
        """(alias, column names) of the FROM items of the nearest SELECT, and of outer ones."""
        selects = [a for a in _ancestors(node) if isinstance(a, exp.Select)]
        found = [self._select_sources(select) for select in selects]
        if not found:
            return [], []
        return found[0], [item for items in found[1:] for item in items]

    def _select_sources(self, select: exp.Select) -> list[tuple[str, list[str]]]:
        from_ = select.args.get("from_")
        items = [from_.this] if isinstance(from_, exp.From) else []
        items += [join.this for join in select.args.get("joins") or ()]
        return [(item.alias_or_name.lower(), self._source_columns(item)) for item in items]

    def _source_columns(self, item: exp.Expr) -> list[str]:
        alias = item.args.get("alias")
        if isinstance(alias, exp.TableAlias) and alias.columns:
            return [c.name.lower() for c in alias.columns]
        if isinstance(item, exp.Table) and isinstance(item.this, exp.Identifier):
            cte = None if item.db else _find_cte(item, item.this, self.norm)
            if cte is not None:
                return [c.lower() for c in _named_selects(cte.this)]
            name = self.tables.get(self.norm(item.this))
            if name is not None:
                return list(self.schema.table(name).column_names)
            return []
        if isinstance(item, (exp.Subquery, exp.Lateral)):
            return [c.lower() for c in _named_selects(item.this)]
        return []

    def check_resolved(self, qualified: exp.Expr) -> None:
        """Every column the qualifier left without a table must be an output alias.

        sqlglot's own validation misses some scopes (an unknown column inside
        an aggregate in HAVING is one); DuckDB would then fail at run time with
        a less helpful message.
        """
        for column in qualified.find_all(exp.Column):
            if column.table or not isinstance(column.this, exp.Identifier):
                continue
            if column.find_ancestor(exp.Lambda) is not None:
                continue  # lambda parameters
            aliases = {
                alias.lower()
                for query in _ancestors(column)
                if isinstance(query, exp.Query)
                for alias in _named_selects(query)
            }
            if column.name.lower() not in aliases:
                raise self.unknown_column(qualified, column.name, None, None)

    # -- defence in depth ------------------------------------------------------

    def recheck(self, duckdb_sql: str) -> None:
        """Run the read-only, function and table guards on the SQL that will execute."""
        try:
            tree = _parse_one(duckdb_sql, "duckdb", self.side)
        except SqlglotError as exc:
            raise QueryError(
                self.side,
                "unsupported",
                f"the DuckDB translation of the query cannot be re-read: {_one_line(str(exc))}",
            ) from exc
        self.check_read_only(tree)
        self.check_functions(tree)
        self.check_tables(tree)
        self.check_known_functions(tree)


# -- helpers -------------------------------------------------------------------


def _parse(sql: str, dialect: str, side: Side) -> list[exp.Expr | None]:
    """``sqlglot.parse(sql, read=dialect)``, unless the parse would backtrack for too long.

    Raises:
        QueryError: ``too_complex``, before parsing, for text sqlglot's parser would take
            exponential time on (see :mod:`sqlequiv.parse_cost`).
        SqlglotError: what the tokenizer or the parser raise.
    """
    reader = sqlglot.Dialect.get_or_raise(dialect)
    tokens = reader.tokenize(sql)
    cost = parse_cost(tokens)
    if cost.too_costly:
        raise QueryError(side, "too_complex", f"the query has {cost.message()}")
    return reader.parser().parse(tokens, sql)


def _parse_one(sql: str, dialect: str, side: Side) -> exp.Expr:
    """``sqlglot.parse_one(sql, read=dialect)``, with the cost check of :func:`_parse`."""
    statements = _parse(sql, dialect, side)
    if not statements or statements[0] is None:
        raise ParseError(f"No expression was parsed from {_shorten(sql)!r}")
    return exp.Block(expressions=statements) if len(statements) > 1 else statements[0]


def _ancestors(node: exp.Expr) -> Iterator[exp.Expr]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _find_cte(
    table: exp.Expr, ident: exp.Identifier, norm: Callable[[exp.Identifier], str]
) -> exp.CTE | None:
    """The CTE ``ident`` names in ``table``'s lexical scope, if any.

    Walking up through every enclosing WITH also covers a recursive CTE that
    refers to itself from inside its own body.
    """
    key = norm(ident)
    for ancestor in _ancestors(table):
        with_ = ancestor.args.get("with_")
        if not isinstance(with_, exp.With):
            continue
        for cte in with_.expressions:
            alias = cte.args.get("alias")
            if (
                isinstance(cte, exp.CTE)
                and isinstance(alias, exp.TableAlias)
                and isinstance(alias.this, exp.Identifier)
                and norm(alias.this) == key
            ):
                return cte
    return None


def _name_single_column_functions(root: exp.Expression) -> exp.Expression | None:
    """A copy of ``root`` with ``f(...) AS a`` spelled ``f(...) AS a(a)``; None if no such alias.

    Only for the allowed table functions that return one column (range,
    generate_series, a one-argument unnest), where both spellings mean the same.
    """
    copy = root.copy()
    changed = False
    for node in copy.find_all(exp.Unnest, exp.GenerateSeries, exp.ExplodingGenerateSeries):
        holder = node.parent if isinstance(node.parent, exp.Table) else node
        alias = holder.args.get("alias")
        single = not isinstance(node, exp.Unnest) or len(node.expressions) == 1
        if (
            single
            and _in_table_position(node)
            and isinstance(alias, exp.TableAlias)
            and isinstance(alias.this, exp.Identifier)
            and not alias.columns
        ):
            alias.set("columns", [alias.this.copy()])
            changed = True
    return copy if changed else None


def _name_values_columns(root: exp.Expression, exc: OptimizeError) -> exp.Expression | None:
    """A copy of ``root`` with ``(VALUES ...) AS t`` named ``t(EXPR$0, EXPR$1, ...)``.

    Calcite names the columns of a VALUES list EXPR$0, EXPR$1, ... and writes
    ``t.EXPR$0``; only tried when such a name did not resolve. None if the
    error is about another name or there is no VALUES list without column names.
    """
    if not _CALCITE_VALUES_COLUMN.search(str(exc)):
        return None
    copy = root.copy()
    changed = False
    for values in copy.find_all(exp.Values):
        alias = values.args.get("alias")
        rows = values.expressions
        if (
            isinstance(alias, exp.TableAlias)
            and not alias.columns
            and rows
            and isinstance(rows[0], exp.Tuple)
        ):
            width = len(rows[0].expressions)
            alias.set("columns", [exp.to_identifier(f"EXPR${i}") for i in range(width)])
            changed = True
    return copy if changed else None


def _has_over(node: exp.Expr) -> bool:
    """Whether a window function is the function of a window (``f(x) OVER (...)``)."""
    while isinstance(node.parent, _WINDOW_WRAPPERS):
        node = node.parent
    return isinstance(node.parent, exp.Window) and node.arg_key == "this"


def _find_column(
    root: exp.Expr, name: str, table: str | None, where: tuple[int, int] | None
) -> exp.Column | None:
    """The column node sqlglot complained about: by name, table and reported position."""
    matches = [
        c
        for c in root.find_all(exp.Column)
        if c.name.lower() == name.lower() and (table is None or c.table.lower() == table.lower())
    ]
    if where is not None:
        for column in matches:
            meta = column.this.meta if isinstance(column.this, exp.Expr) else {}
            if (meta.get("line"), meta.get("col")) == where:
                return column
    return matches[0] if matches else None


def _named_selects(query: exp.Expr) -> list[str]:
    return list(query.named_selects) if isinstance(query, exp.Query) else []


#: Largest syntax tree analysed (``too_complex`` beyond). The largest query of the
#: peers' 1,635 benchmark queries has 280 nodes; a 1,000-term OR chain has about 5,000.
MAX_NODES = 5_000


def _in_table_position(node: exp.Expr) -> bool:
    """Whether ``node`` is used as a table: FROM f(...), JOIN f(...), LATERAL f(...)."""
    parent = node.parent
    return isinstance(parent, (exp.Table, exp.From, exp.Join, exp.Lateral)) and (
        node.arg_key == "this"
    )


def _statement_keyword(node: exp.Expr) -> str | None:
    """The source word a refused node starts with, to point the error at it."""
    if isinstance(node, exp.Into):
        return "INTO"
    if isinstance(node, exp.Lock):
        return "FOR"
    word = _statement_name(node).split()[0]
    return word if word.isalpha() and word.isupper() else None


def _statement_name(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return str(node.this).upper()
    for cls, name in _STATEMENT_NAMES.items():
        if isinstance(node, cls):
            return name
    return type(node).__name__.upper()


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _did_you_mean(name: str, candidates: Sequence[str]) -> str:
    close = difflib.get_close_matches(name.lower(), [c.lower() for c in candidates], n=3)
    if not close:
        return ""
    by_lower = {c.lower(): c for c in candidates}
    return "; did you mean " + " or ".join(f'"{by_lower[c]}"' for c in close) + "?"


def _listing(names: Iterable[str], *, conj: str = "") -> str:
    items = list(dict.fromkeys(names))
    if len(items) > _MAX_LISTED:
        rest = len(items) - _MAX_LISTED
        return ", ".join(items[:_MAX_LISTED]) + f", ... ({rest} more)"
    if conj and len(items) > 1:
        return ", ".join(items[:-1]) + f" {conj} {items[-1]}"
    return ", ".join(items)


def _one_line(text: str) -> str:
    """sqlglot's messages embed the query with ANSI underlines; keep the first line."""
    lines = re.sub(r"\x1b\[[0-9;]*m", "", text).strip().splitlines()
    return lines[0] if lines else ""


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET_LENGTH else text[: _SNIPPET_LENGTH - 3] + "..."
