"""Parsing and positions: the text checks, the parse, and where in the text an error is.

Everything here is about the candidate's *text*: that it is text at all and not too
long, that sqlglot can parse it as one statement (without backtracking for too long),
and, for every refusal, the line, column and quoted snippet that let a user find the
offending part. :class:`CheckerBase` holds one query's text and side and is the base of
the job-specific checks (:mod:`~sqlequiv.guard.readonly`, :mod:`~sqlequiv.guard.names`).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Sequence

import sqlglot
from sqlglot import TokenType, exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.schema import normalize_name

from sqlequiv.errors import QueryError, Side
from sqlequiv.identity_cache import IdentityCache
from sqlequiv.policy.parse_cost import parse_cost
from sqlequiv.schema.model import Schema

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


class CheckerBase:
    """What every guard over one tree needs: its text, errors with positions, the parse.

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
        tables = _TABLES.get((id(schema), dialect), schema)
        if tables is None:
            tables = {self.norm(exp.to_identifier(t.name)): t.name for t in schema}
            _TABLES.put((id(schema), dialect), tables, schema)
        #: Each schema table's name as the dialect resolves it -> its name (read only).
        self.tables = tables

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
        return _resolved(identifier.name, bool(identifier.quoted), self.dialect)

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


def _parse(sql: str, dialect: str, side: Side) -> list[exp.Expr | None]:
    """``sqlglot.parse(sql, read=dialect)``, unless the parse would backtrack for too long.

    Raises:
        QueryError: ``too_complex``, before parsing, for text sqlglot's parser would take
            exponential time on (see :mod:`sqlequiv.policy.parse_cost`).
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


#: Each schema's table names as a dialect resolves them (every check of a query built
#: the map again: a quarter of the guard's own checks).
_TABLES: IdentityCache[dict[str, str]] = IdentityCache(32)


@functools.lru_cache(maxsize=4096)
def _resolved(name: str, quoted: bool, dialect: str) -> str:
    """``name`` (``quoted`` or not) as ``dialect`` resolves a table name; sqlglot's
    normalization costs ~0.1 ms a call, and the names of a workload repeat."""
    try:
        identifier = exp.to_identifier(name, quoted=quoted)
        return normalize_name(identifier, dialect=dialect, is_table=True).name
    except Exception:  # an exotic identifier: fall back to case-insensitive
        return name.lower()
