"""Fuzz inputs for sqlequiv: bad SQL, bad schemas, bad dialects, junk files.

Shared by ``tests/test_fuzz.py`` (a short, derandomized Hypothesis run) and
``benchmarks/fuzz.py`` (a long seeded campaign). Each generator is a plain
function of a :class:`Source` of choices, so one piece of code serves both:

* :class:`DrawSource` wraps a Hypothesis ``draw``: every choice is a Hypothesis
  draw, so a failure shrinks to a minimal example;
* :class:`RandomSource` wraps a seeded ``random.Random``: fast, no Hypothesis
  machinery, for hours of inputs.

The inputs start from the labelled corpus (``corpus/*.sql`` and its schemas) and
mutate it at the token level: delete, duplicate, swap, insert keywords, truncate,
unbalance parentheses and quotes, rename identifiers to unknown ones and replace
literals with huge or weird values. Beside them come token soups from a SQL
vocabulary and plain junk (arbitrary unicode, control characters, NUL bytes,
bytes decoded with ``surrogateescape`` / latin-1).
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st
from sqlglot.dialects.dialect import Dialects
from sqlglot.tokens import Tokenizer

from sqlequiv import Options
from sqlequiv.corpus import load_corpus

#: Small enough that one check takes a fraction of a second.
SMALL = Options(
    max_fixtures=5, time_budget=0.5, query_timeout=0.5, bounded_time_budget=0.2, max_bound=1
)
SMALL_ARGS = [
    "--max-fixtures", "5", "--time-budget", "0.5", "--timeout", "0.5",
    "--bounded-time-budget", "0.2", "--max-bound", "1",
]  # fmt: skip
VERDICTS = ("equivalent", "not_equivalent", "unknown", "error")

T = TypeVar("T")
R = TypeVar("R")

__all__ = [
    "CheckCase",
    "CliCase",
    "DrawSource",
    "RandomSource",
    "Source",
    "check_cases",
    "cli_cases",
    "dialects",
    "gen_check_case",
    "gen_cli_case",
    "gen_dialect",
    "gen_query",
    "gen_schema_source",
    "queries",
    "schema_sources",
    "strategy",
]


# -- sources of choices ---------------------------------------------------------------


class Source(Protocol):
    """Where a generator gets its choices from."""

    def integer(self, lo: int, hi: int) -> int: ...

    def choice(self, items: Sequence[T]) -> T: ...

    def text(self, max_size: int) -> str: ...

    def binary(self, max_size: int) -> bytes: ...


def chance(src: Source, percent: int) -> bool:
    """True with roughly ``percent`` % probability (shrinks towards False)."""
    return src.integer(0, 99) >= 100 - percent


class DrawSource:
    """Choices drawn through Hypothesis, so failing inputs shrink."""

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return int(self._draw(st.integers(lo, hi)))

    def choice(self, items: Sequence[T]) -> T:
        return self._draw(st.sampled_from(items))  # type: ignore[no-any-return]

    def text(self, max_size: int) -> str:
        return str(self._draw(st.text(max_size=max_size)))

    def binary(self, max_size: int) -> bytes:
        return bytes(self._draw(st.binary(max_size=max_size)))


# Code point ranges RandomSource.text picks from: ASCII, C0/C1 controls, Latin,
# bidi marks and other format characters, CJK, private use, surrogates, astral.
_RANGES: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E),
    (0x20, 0x7E),
    (0x00, 0x1F),
    (0x7F, 0x9F),
    (0xA0, 0x24F),
    (0x200B, 0x206F),
    (0x2028, 0x2029),
    (0x4E00, 0x4E80),
    (0xE000, 0xE010),
    (0xD800, 0xDFFF),
    (0xFFF0, 0xFFFF),
    (0x1F300, 0x1F64F),
    (0x10FFF0, 0x10FFFF),
)


class RandomSource:
    """Choices from a seeded ``random.Random``: fast, reproducible, not shrinkable."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def text(self, max_size: int) -> str:
        n = self.rng.randint(0, max_size)
        out = []
        for _ in range(n):
            lo, hi = _RANGES[self.rng.randrange(len(_RANGES))]
            out.append(chr(self.rng.randint(lo, hi)))
        return "".join(out)

    def binary(self, max_size: int) -> bytes:
        return self.rng.randbytes(self.rng.randint(0, max_size))


def strategy(gen: Callable[[Source], R]) -> st.SearchStrategy[R]:
    """The Hypothesis strategy of a generator."""

    @st.composite
    def build(draw: Callable[[st.SearchStrategy[Any]], Any]) -> R:
        return gen(DrawSource(draw))

    return build()


# -- the corpus -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Query:
    sql: str
    schema_ddl: str
    dialect: str


@dataclass(frozen=True)
class _Corpus:
    queries: tuple[_Query, ...]
    # (candidate, reference, schema DDL, dialect) of every labelled pair
    pairs: tuple[tuple[str, str, str, str], ...]
    schemas: tuple[str, ...]
    identifiers: tuple[str, ...]


@functools.cache
def corpus() -> _Corpus:
    cases = load_corpus()
    queries = []
    for case in cases:
        queries.append(_Query(case.candidate, case.schema_ddl, case.dialect))
        queries.append(_Query(case.reference, case.schema_ddl, case.dialect))
    schemas = sorted({case.schema_ddl for case in cases})
    idents = sorted(
        {
            tok.lower()
            for ddl in schemas
            for tok in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", ddl)
            if tok.upper() not in _KEYWORDS
        }
    )
    return _Corpus(
        queries=tuple(queries),
        pairs=tuple((c.candidate, c.reference, c.schema_ddl, c.dialect) for c in cases),
        schemas=tuple(schemas),
        identifiers=tuple(idents),
    )


# -- tokens ---------------------------------------------------------------------------

# A tokenizer that accepts every string (sqlglot's raises on an unterminated quote):
# "".join(tokenize(s)) == s.
_TOKEN = re.compile(
    r"""
      \s+
    | --[^\n]*
    | /\*.*?\*/
    | '(?:[^']|'')*'
    | "(?:[^"]|"")*"
    | `[^`]*`
    | \d+(?:\.\d*)?(?:[eE][-+]?\d+)?
    | \.\d+(?:[eE][-+]?\d+)?
    | [A-Za-z_][A-Za-z_0-9$]*
    | ::|->>|->|<=|>=|<>|!=|\|\||\*\*|//|=>|:=
    | .
    """,
    re.VERBOSE | re.DOTALL,
)
_KEYWORDS = frozenset(
    word for key in Tokenizer.KEYWORDS for word in key.split() if word.isidentifier()
) | frozenset({"SELECT", "FROM", "WHERE", "COUNT", "SUM", "MIN", "MAX", "AVG", "COALESCE", "CAST"})


def tokenize(sql: str) -> list[str]:
    return _TOKEN.findall(sql)


def _kind(token: str) -> str:
    if token.isspace():
        return "space"
    if token[0] in "'":
        return "string"
    if token[0].isdigit() or (token[0] == "." and token[1:2].isdigit()):
        return "number"
    if token[0] in '"`':
        return "quoted"
    if token[0].isalpha() or token[0] == "_":
        return "keyword" if token.upper() in _KEYWORDS else "identifier"
    if token.startswith(("--", "/*")):
        return "comment"
    return "operator"


# -- vocabulary -----------------------------------------------------------------------

# fmt: off

KEYWORD_SNIPPETS: tuple[str, ...] = (
    "SELECT", "FROM", "WHERE", "JOIN", "UNION", "WITH RECURSIVE", "OVER", "LATERAL",
    "PIVOT", "QUALIFY", "::", "->", "$1", "?", "@var", "SELECT *", "FROM t", "WHERE 1",
    "LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN", "CROSS JOIN", "NATURAL JOIN", "ASOF JOIN",
    "POSITIONAL JOIN", "ANTI JOIN", "SEMI JOIN", "USING (id)", "ON TRUE", "GROUP BY",
    "GROUP BY ALL", "GROUP BY 1", "HAVING", "ORDER BY", "ORDER BY ALL", "LIMIT", "LIMIT -1",
    "OFFSET", "UNION ALL", "UNION BY NAME", "INTERSECT", "EXCEPT", "EXCEPT ALL", "WITH",
    "AS", "OVER ()", "OVER (PARTITION BY 1 ORDER BY 1 ROWS BETWEEN UNBOUNDED PRECEDING "
    "AND CURRENT ROW)", "WINDOW w AS ()", "UNPIVOT", "DISTINCT", "DISTINCT ON (1)", "ALL",
    "ANY", "SOME", "EXISTS", "IN", "NOT", "NULL", "IS", "IS NOT DISTINCT FROM", "BETWEEN",
    "CASE WHEN", "THEN", "ELSE", "END", "CAST(", "TRY_CAST(", "FILTER (WHERE TRUE)",
    "WITHIN GROUP (ORDER BY 1)", "VALUES (1)", "TABLESAMPLE", "USING SAMPLE 10%",
    "GROUPING SETS ((), (1))", "ROLLUP (1)", "CUBE (1)", "FETCH FIRST 1 ROWS ONLY", "TOP 1",
    "COLLATE nocase", "ESCAPE", "SIMILAR TO", "ILIKE", "GLOB", "REGEXP", "RLIKE", "INTO x",
    "FOR UPDATE", "RETURNING *", "INSERT INTO t VALUES (1)", "DELETE FROM t",
    "UPDATE t SET a = 1", "DROP TABLE t", "CREATE TABLE x (a INT)", "ATTACH 'x.db'",
    "COPY t TO '/tmp/x'", "PRAGMA version", "SET threads = 1", "INSTALL httpfs", "LOAD x",
    "read_csv('/etc/passwd')", "getenv('HOME')", "query('SELECT 1')", "range(10)",
    "generate_series(1, 1000000000)", "unnest([1, 2])", "EXPLAIN", "DESCRIBE", "SHOW TABLES",
    "SUMMARIZE", "CALL", "EXECUTE", "PREPARE p AS", ";", "--", "/*", "*/", "(", ")", "[", "]",
    "{", "}", "'", '"', "`", "$$", ",", ".", "*", "=", "<>", "||", "->>", "=>", ":=", "%",
    "COLUMNS(*)", "* EXCLUDE (a)", "* REPLACE (1 AS a)", "LIST(", "STRUCT_PACK(a := 1)",
    "MAP {1: 2}", "[1, 2][1]", "lambda x: x", "x -> x + 1", "ROW(1, 2)", "INTERVAL 1 DAY",
    "current_date", "now()", "random()", "uuid()", "nextval('s')", "setseed(0.5)",
    "ROW_NUMBER() OVER ()", "LAG(1) OVER ()", "FIRST_VALUE(1)", "COUNT(*)", "SUM(",
    "string_agg(", "array_agg(", "median(", "mode(", "quantile_cont(", "ANY_VALUE(",
    "MATCH_RECOGNIZE (", "CONNECT BY", "START WITH", "PRIOR", "LATERAL VIEW explode(",
    "CROSS APPLY", "OUTER APPLY", "STRAIGHT_JOIN", "SQL_CALC_FOUND_ROWS", "USE INDEX (i)",
    "WITH ORDINALITY", "NULLS FIRST", "NULLS LAST", "IGNORE NULLS", "RESPECT NULLS",
    "MATERIALIZED", "NOT MATERIALIZED", "SEARCH DEPTH FIRST BY a SET o", "CYCLE a SET c",
    "pg_sleep(10)", "sleep(10)", "information_schema.tables", "duckdb_tables()",
    "main.orders", "pg_catalog.pg_class", "sqlite_master", "system.main.t",
)

WEIRD_LITERALS: tuple[str, ...] = (
    "1e309", "-1e309", "-0", "-0.0", "'NaN'", "'nan'::DOUBLE", "'inf'::FLOAT",
    "'-Infinity'", "99999999999999999999999", "-9223372036854775808",
    "9223372036854775808", "170141183460469231731687303715884105728", "0x7fffffff",
    "1e-400", "0.000000000000000000000000000001", "'\x00'", "'\U0001f600'", "'\u202e'",
    "'\u200f'", "''", "''''", "NULL", "TRUE", "DATE '9999-12-31'",
    "TIMESTAMP '0001-01-01 00:00:00'", "DATE '2024-02-30'", "TIMESTAMP 'infinity'",
    "INTERVAL '1' DAY", "'%'", "'_'", "E'\\x00'", "X'00'", "'\\xff'::BLOB", "1.", ".5",
    "1e", "$1", "?", ":name", "@var", "CAST(NULL AS INT)", "[1, 2]", "{'a': 1}",
    "1" + "0" * 5000, "9" * 400, "0." + "0" * 400 + "1", "1e99999", "'" + "a" * 5000 + "'",
    "-(-(-(-1)))", "1/0", "0/0", "(-1)::UINTEGER", "2147483647 + 1", "'2024-01-01'::DATE",
    "'\ud800'", "'\ufeff'", "'\u2028'", "'e\u0301'", "'\u0130'", "'ß'", "N'x'", "U&'\\0041'",
    "$tag$x$tag$", "b'1'", "0b101", "1_000", "1e+308*10", "CHR(0)", "'\\'",
)

WEIRD_IDENTIFIERS: tuple[str, ...] = (
    "nonexistent", "x", "t", "_", "a" * 300, '"weird""ident"', "`t`", "[t]", "t.t.t.t",
    "main.orders", "information_schema.tables", "pg_catalog.pg_class", '""', '"\u202e"',
    "ü", "Ωmega", '"SELECT"', "select", "rowid", "oid", "ctid", "_rowid_", "*", "t.*",
    "excluded", "new", "old", '"\x00"', "\u0130d", "ＳＥＬＥＣＴ", "id\u200b",
)

WHITESPACE: tuple[str, ...] = (
    " ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\u00a0", "\u2028", "\u3000", "\u200b",
    "/**/", "--\n", "\r",
)

_OPERATOR_SWAPS: tuple[str, ...] = ("=", "<>", "<", "<=", ">", ">=", "!=", "||", "+", "-",
                                    "*", "/", "%", "AND", "OR", "LIKE", "IS", "IN")
_FUNCTION_SWAPS: tuple[str, ...] = ("COUNT", "SUM", "MIN", "MAX", "AVG", "ABS", "ROUND",
                                    "LENGTH", "UPPER", "COALESCE", "NULLIF", "ANY_VALUE")

_DDL_SNIPPETS: tuple[str, ...] = (
    "CREATE TABLE", "CREATE TABLE t (a INT)", "PRIMARY KEY", "PRIMARY KEY (id)", "UNIQUE",
    "REFERENCES", "REFERENCES nowhere (x)", "FOREIGN KEY (a) REFERENCES t (a)", "CHECK (",
    "CHECK (a > 0)", "CHECK (1/0 = 1)", "CHECK (random() > 0.5)", "NOT NULL", "NULL",
    "DEFAULT 1", "DEFAULT now()", "GENERATED ALWAYS AS (1)", "ALTER TABLE t ADD COLUMN b INT",
    "ALTER TABLE t ADD PRIMARY KEY (a)", "ALTER TABLE t ALTER COLUMN a SET NOT NULL",
    "CREATE INDEX i ON t (a)", "CREATE UNIQUE INDEX i ON t (a)",
    "CREATE UNIQUE INDEX i ON t (lower(a))", "DROP TABLE t", "CREATE VIEW v AS SELECT 1",
    "CREATE TYPE e AS ENUM ('a')", "INSERT INTO t VALUES (1)", "CREATE TABLE t AS SELECT 1",
    "CREATE TEMP TABLE", "IF NOT EXISTS", "OR REPLACE", "CONSTRAINT c", "COLLATE nocase",
    "INT", "INTEGER", "BIGINT", "HUGEINT", "UBIGINT", "TINYINT", "VARCHAR", "VARCHAR(0)",
    "VARCHAR(-1)", "DECIMAL(38, 10)", "DECIMAL(100, 200)", "DECIMAL(2, 5)", "NUMERIC",
    "DOUBLE", "REAL", "FLOAT", "BOOLEAN", "DATE", "TIME", "TIMESTAMP", "TIMESTAMPTZ",
    "TIMESTAMP_NS", "INTERVAL", "BLOB", "BIT", "UUID", "JSON", "INTEGER[]", "INT[3]",
    "STRUCT(a INT)", "MAP(INT, INT)", "UNION(a INT, b VARCHAR)", "ENUM('a', 'b')",
    "GEOMETRY", "SERIAL", "BIGSERIAL", "MEDIUMINT", "INT(11)", "UNSIGNED", "AUTO_INCREMENT",
    "ENGINE=InnoDB", "WITHOUT ROWID", "EXCLUDE USING gist (a WITH =)",
    "UNIQUE NULLS NOT DISTINCT", "ON DELETE CASCADE", "DEFERRABLE", "COMMENT 'x'", "SET a = 1",
    "PRAGMA x", "BEGIN", "COMMIT", ";", "(", ")", ",", "'", '"',
)

_DDL_TYPES: tuple[str, ...] = (
    "INT", "INTEGER", "BIGINT", "HUGEINT", "UHUGEINT", "SMALLINT", "UTINYINT", "VARCHAR",
    "TEXT", "CHAR(0)", "VARCHAR(x)", "DECIMAL", "DECIMAL(x)", "DECIMAL('x')", "DECIMAL(1e3, 2)",
    "DECIMAL(38, 38)", "DECIMAL(39)", "DECIMAL(0)", "DECIMAL(10, 'x')", "DECIMAL(1, 2, 3)",
    "NUMERIC(0, 0)", "FLOAT(100)", "DOUBLE PRECISION", "TIMESTAMP(12)", "TIMESTAMP(x)",
    "TIMESTAMP WITH TIME ZONE", "TIME WITH TIME ZONE", "INTERVAL YEAR TO MONTH", "DATE",
    "BIT(0)", "BLOB", "BYTEA", "VARBINARY(10)", "INT[]", "INT[0]", "INT[x]", "INT[][]",
    "VARCHAR[2][3]", "STRUCT()", "STRUCT(a INT, a INT)", "MAP()", "MAP(VARCHAR, INT[])",
    "UNION(a INT)", "ENUM()", "ENUM('a', 'a')", "JSON", "UUID", "GEOMETRY", "INET",
    "SERIAL", "SMALLSERIAL", "MONEY", "XML", "TSVECTOR", "nonexistent_type", "t",
    "INT UNSIGNED", "TINYINT(1)", "INT(4294967296)", "VARCHAR(99999999999999999999)",
    "NVARCHAR(MAX)", "DATETIME2(7)", "DATETIMEOFFSET", "NUMBER(10, 2)", "NUMBER(*, 0)",
    "VARIANT", "OBJECT", "ARRAY", "ARRAY<INT>", "STRUCT<a: INT>", "NULL", "ANY",
)

# Sources that are paths on every machine: directories, devices, procfs files.
_PATHS: tuple[str, ...] = (
    "", ".", "..", "/", "/dev/null", "/proc/self/status", "/proc/self/mem", "~",
    "/nonexistent/schema.sql", "schema.json", "x.yaml", "\x00", "a" * 5000,
)

# Dialect values: every sqlglot dialect, spellings of them, settings and junk.
DIALECT_NAMES: tuple[str, ...] = tuple(d.value for d in Dialects)
_DIALECT_JUNK: tuple[str, ...] = (
    "DuckDB", "DUCKDB", " duckdb", "duckdb ", "postgresql", "pg", "mssql", "sql",
    "duckdb, normalization_strategy = lowercase", "duckdb, foo = bar", "postgres,",
    "mysql, normalization_strategy = case_sensitive", "duckdb\x00", "dialect", "None",
    "sqlglot.dialects.duckdb.DuckDB", "__init__", "Dialect", "ｄｕｃｋｄｂ",
)


# fmt: on


# -- mutations ------------------------------------------------------------------------


def _positions(tokens: Sequence[str], kinds: set[str] | None = None) -> list[int]:
    return [
        i
        for i, tok in enumerate(tokens)
        if not tok.isspace() and (kinds is None or _kind(tok) in kinds)
    ]


def _spaced(snippet: str) -> str:
    return f" {snippet} "


#: Mutations that often keep a query valid, so that the later stages of ``check`` run:
#: rename to a known identifier, weird literal, swap an operator or function, odd
#: whitespace, change case, combine with another query, insert a bare literal.
MILD: tuple[int, ...] = (7, 8, 9, 6, 13, 14, 16, 19)
_SWAPS: tuple[str, ...] = _FUNCTION_SWAPS + KEYWORD_SNIPPETS[:40]


def mutate(
    src: Source,
    sql: str,
    *,
    vocabulary: Sequence[str] = KEYWORD_SNIPPETS,
    swaps: Sequence[str] = _SWAPS,
    ops: Sequence[int] | None = None,
) -> str:
    """One random token- or text-level mutation of ``sql``.

    ``vocabulary`` is what gets inserted, ``swaps`` what replaces a keyword, ``ops``
    restricts the mutations (numbers of the branches below; default all).
    """
    tokens = tokenize(sql)
    op = src.integer(0, 19) if ops is None else src.choice(ops)
    anywhere = _positions(tokens)
    if not anywhere:
        return sql + _spaced(src.choice(vocabulary))
    if op == 0:  # insert a keyword or snippet
        i = src.integer(0, len(tokens))
        tokens.insert(i, _spaced(src.choice(vocabulary)))
    elif op == 1:  # delete a token
        del tokens[src.choice(anywhere)]
    elif op == 2:  # duplicate a token
        i = src.choice(anywhere)
        tokens.insert(i, tokens[i] + " ")
    elif op == 3:  # swap two tokens
        i, j = src.choice(anywhere), src.choice(anywhere)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif op == 4:  # truncate
        return sql[: src.integer(0, len(sql))]
    elif op == 5:  # unbalance parentheses or quotes
        i = src.integer(0, len(tokens))
        tokens.insert(i, src.choice(("(", ")", "'", '"', "`", "((((", "))", "[", "/*", "$$")))
    elif op == 6:  # rename an identifier
        idents = _positions(tokens, {"identifier", "quoted"}) or anywhere
        i = src.choice(idents)
        mild = ops is not None and chance(src, 80)
        pool = corpus().identifiers if mild else WEIRD_IDENTIFIERS + corpus().identifiers
        tokens[i] = src.choice(pool)
    elif op == 7:  # weird literal
        literals = _positions(tokens, {"number", "string"}) or anywhere
        tokens[src.choice(literals)] = src.choice(WEIRD_LITERALS)
    elif op == 8:  # swap an operator
        ops = _positions(tokens, {"operator"}) or anywhere
        tokens[src.choice(ops)] = _spaced(src.choice(_OPERATOR_SWAPS))
    elif op == 9:  # swap a function or keyword
        words = _positions(tokens, {"keyword"}) or anywhere
        tokens[src.choice(words)] = src.choice(swaps)
    elif op == 10:  # splice in a slice of another corpus query
        other = tokenize(src.choice(corpus().queries).sql)
        a = src.integer(0, len(other))
        b = src.integer(a, min(len(other), a + 12))
        i = src.integer(0, len(tokens))
        tokens[i:i] = [" ", *other[a:b], " "]
    elif op == 11:  # two statements
        other = src.choice(corpus().queries).sql
        return src.choice((f"{sql}; {other}", f"{sql};", f"{sql};;", f"{sql}; --", f";{sql}"))
    elif op == 12:  # nest
        depth = src.choice((1, 2, 10, 100, 400, 1000, 3000))
        if chance(src, 50):
            return "SELECT * FROM (" * depth + sql + ") AS x" * depth
        return "SELECT " + "(" * depth + "1" + ")" * depth + " FROM (" + sql + ") AS x"
    elif op == 13:  # odd whitespace or comments
        spaces = [i for i, tok in enumerate(tokens) if tok.isspace()] or [0]
        tokens[src.choice(spaces)] = src.choice(WHITESPACE)
    elif op == 14:  # change case
        i = src.choice(anywhere)
        tokens[i] = src.choice((tokens[i].upper(), tokens[i].lower(), tokens[i].swapcase()))
    elif op == 15:  # a random character, junk or control
        i = src.integer(0, len(sql))
        return sql[:i] + src.text(3) + sql[i:]
    elif op == 16:  # combine with a set operation or a CTE
        other = src.choice(corpus().queries).sql
        return src.choice(
            (
                f"{sql} UNION ALL {other}",
                f"WITH q AS ({sql}) SELECT * FROM q",
                f"WITH RECURSIVE r AS ({sql} UNION ALL SELECT * FROM r) SELECT * FROM r",
                f"SELECT * FROM ({sql}) a, ({other}) b",
                f"SELECT ({sql})",
                f"SELECT * FROM ({sql}) WHERE EXISTS ({other})",
            )
        )
    elif op == 17:  # a dangerous construct where a table or value goes
        i = src.choice(anywhere)
        tokens[i] = src.choice(
            (
                "read_csv('/etc/passwd')",
                "getenv('HOME')",
                "query('DROP TABLE t')",
                "duckdb_settings()",
                "pragma_table_info('t')",
                "(DELETE FROM t RETURNING *)",
                "glob('*')",
                "read_text('/etc/hostname')",
                "sqlite_scan('x', 'y')",
                "generate_series(1, 9223372036854775807)",
                "range(1e18)",
                "repeat('x', 1000000000)",
                "(SELECT 1 FROM range(100000000) a, range(100) b)",
                "information_schema.columns",
                "pg_sleep(100)",
            )
        )
    elif op == 18:  # repeat a slice (size blow-up)
        a = src.choice(anywhere)
        b = src.integer(a, min(len(tokens), a + 8))
        tokens[b:b] = tokens[a:b] * src.choice((2, 10, 100))
    else:  # insert a bare weird literal
        i = src.integer(0, len(tokens))
        tokens.insert(i, _spaced(src.choice(WEIRD_LITERALS)))
    return "".join(tokens)


def _mutated(
    src: Source,
    sql: str,
    vocabulary: Sequence[str] = KEYWORD_SNIPPETS,
    swaps: Sequence[str] = _SWAPS,
    *,
    mild: bool = False,
) -> str:
    ops = MILD if mild else None
    for _ in range(src.integer(1, 4)):
        sql = mutate(src, sql, vocabulary=vocabulary, swaps=swaps, ops=ops)
        if len(sql) > 200_000:  # keep nesting and repetition from compounding
            break
    return sql


# -- query generators -----------------------------------------------------------------


def gen_mutated_query(src: Source) -> str:
    return _mutated(src, src.choice(corpus().queries).sql)


def gen_token_soup(src: Source) -> str:
    pool = (
        KEYWORD_SNIPPETS,
        WEIRD_LITERALS,
        WEIRD_IDENTIFIERS,
        corpus().identifiers,
        _OPERATOR_SWAPS,
        _FUNCTION_SWAPS,
    )
    words = [src.choice(src.choice(pool)) for _ in range(src.integer(0, 25))]
    sep = src.choice(WHITESPACE)
    return sep.join(words)


def gen_junk_text(src: Source) -> str:
    kind = src.integer(0, 5)
    if kind == 0:
        return src.text(200)
    if kind == 1:
        return src.binary(200).decode("utf-8", "surrogateescape")
    if kind == 2:
        return src.binary(200).decode("latin-1")
    if kind == 3:
        return src.binary(200).decode("utf-8", "replace")
    if kind == 4:  # a valid query with a control character or NUL inside
        sql = src.choice(corpus().queries).sql
        i = src.integer(0, len(sql))
        bad = src.choice(
            (
                "\x00",
                "\x01",
                "\x1b[31m",
                "\x7f",
                "\x85",
                "\ufffd",
                "\udcff",
                "\ufeff",
                "\x08",
                "\u0000\u0000",
            )
        )
        return sql[:i] + bad + sql[i:]
    return src.choice(
        (
            "",
            " ",
            "\n",
            ";",
            ";;",
            "--",
            "/*",
            "\x00",
            "\ufeff",
            "\ufeffSELECT 1",
            " " * 100_001,
            "SELECT 1" + " " * 100_000,
            "(" * 50_000,
        )
    )


def gen_query(src: Source) -> str:
    """Any query text: mostly mutated corpus SQL, also token soups and junk."""
    kind = src.integer(0, 9)
    if kind <= 5:
        return gen_mutated_query(src)
    if kind <= 7:
        return gen_token_soup(src)
    return gen_junk_text(src)


# -- schemas and dialects -------------------------------------------------------------


def _mapping_of(ddl: str) -> dict[str, Any]:
    """A crude JSON/YAML-format mapping of a DDL script (column names and types only)."""
    tables: dict[str, Any] = {}
    for name, body in re.findall(r"CREATE TABLE (\w+) \((.*?)\n\);", ddl, re.DOTALL):
        columns: dict[str, Any] = {}
        for line in body.splitlines():
            words = line.strip().rstrip(",").split()
            if len(words) >= 2 and words[0].upper() not in {
                "PRIMARY",
                "FOREIGN",
                "UNIQUE",
                "CHECK",
                "CONSTRAINT",
            }:
                columns[words[0]] = words[1]
        tables[name] = {"columns": columns}
    return {"tables": tables}


# fmt: off
_JSON_JUNK: tuple[Any, ...] = (
    None, 0, -1, 1e308, float("nan"), float("inf"), True, "", "x", [], {}, [[]], {"": ""},
    "INT", "NOT A TYPE", "DECIMAL(100, 200)", "a.b.c", "1/0", {"type": None}, [None],
    {"tables": {}}, "\x00", 2**70, "x" * 1000,
)
_MAPPING_KEYS: tuple[str, ...] = (
    "tables", "columns", "type", "nullable", "check", "references", "primary_key", "unique",
    "foreign_keys", "checks", "table", "", "TABLES", "x",
)
# fmt: on


def _mutate_json(src: Source, value: Any, depth: int = 0) -> Any:
    if depth > 6 or chance(src, 15):
        return src.choice(_JSON_JUNK)
    if isinstance(value, dict) and value:
        value = dict(value)
        key = src.choice(sorted(value, key=str))
        op = src.integer(0, 3)
        if op == 0:
            del value[key]
        elif op == 1:
            value[src.choice(_MAPPING_KEYS)] = src.choice(_JSON_JUNK)
        else:
            value[key] = _mutate_json(src, value[key], depth + 1)
        return value
    if isinstance(value, list) and value:
        value = list(value)
        i = src.integer(0, len(value) - 1)
        value[i] = _mutate_json(src, value[i], depth + 1)
        return value
    return src.choice(_JSON_JUNK)


def gen_schema_mapping(src: Source) -> dict[str, Any]:
    mapping = _mapping_of(src.choice(corpus().schemas))
    for _ in range(src.integer(0, 3)):
        mapping = _mutate_json(src, mapping)
    return mapping if isinstance(mapping, dict) else {"tables": mapping}


def gen_schema_text(src: Source) -> str:
    """DDL text: mostly a mutated corpus schema, also junk."""
    kind = src.integer(0, 9)
    if kind <= 6:
        mild = chance(src, 50)
        ddl = src.choice(corpus().schemas)
        return _mutated(src, ddl, _DDL_SNIPPETS, _DDL_TYPES + _DDL_SNIPPETS[:30], mild=mild)
    if kind == 7:
        return "CREATE TABLE " + gen_token_soup(src)
    if kind == 8:
        return src.choice(_PATHS)
    return gen_junk_text(src)


def gen_schema_source(src: Source) -> str | dict[str, Any]:
    """What ``load_schema`` / ``check`` get as a schema: DDL text, a path or a mapping."""
    if chance(src, 15):
        return gen_schema_mapping(src)
    return gen_schema_text(src)


def gen_dialect(src: Source) -> str:
    kind = src.integer(0, 9)
    if kind <= 5:
        return "duckdb"
    if kind <= 7:
        return src.choice(DIALECT_NAMES)
    if kind == 8:
        return src.choice(_DIALECT_JUNK)
    return src.text(12)


# -- check and CLI cases --------------------------------------------------------------


@dataclass(frozen=True)
class CheckCase:
    candidate: str
    reference: str
    schema: str | dict[str, Any]
    dialect: str


def gen_check_case(src: Source) -> CheckCase:
    """Mostly a corpus pair with a mutated candidate (so the later stages run), sometimes
    a mutated reference, schema or dialect, sometimes junk everywhere."""
    cand, ref, ddl, dialect = src.choice(corpus().pairs)
    kind = src.integer(0, 9)
    if kind <= 4:
        return CheckCase(_mutated(src, cand, mild=chance(src, 60)), ref, ddl, dialect)
    if kind == 5:
        return CheckCase(cand, _mutated(src, ref, mild=chance(src, 60)), ddl, dialect)
    if kind == 6:
        return CheckCase(cand, ref, gen_schema_source(src), dialect)
    if kind == 7:
        return CheckCase(_mutated(src, cand), ref, ddl, gen_dialect(src))
    if kind == 8:
        return CheckCase(gen_query(src), gen_query(src), ddl, dialect)
    return CheckCase(gen_query(src), gen_query(src), gen_schema_source(src), gen_dialect(src))


# fmt: off
#: Arguments appended to the CLI's own small options (later flags win in argparse).
_CLI_EXTRA: tuple[tuple[str, ...], ...] = (
    (), (), (), ("--json",), ("--seed", "-1"), ("--seed", "99999999999999999999999"),
    ("--seed", "abc"), ("--max-fixtures", "-1"), ("--max-fixtures", "0"),
    ("--max-fixtures", "1e309"), ("--timeout", "0"), ("--timeout", "-1"), ("--timeout", "nan"),
    ("--time-budget", "nan"), ("--time-budget", "-0"), ("--max-rows", "0"),
    ("--max-rows", "x"), ("--float-tolerance", "nan"), ("--float-tolerance", "-1"),
    ("--float-tolerance", "inf"), ("--max-bound", "0"), ("--bounded-time-budget", "nan"),
    ("--set-semantics",), ("--keep-column-order",), ("--ignore-order",), ("--no-symbolic",),
    ("--dialect", "postgres"), ("--dialect", "nope"), ("--dialect", ""), ("--unknown",),
    ("--schema",), ("extra",), ("--",),
)
SCHEMA_SUFFIXES: tuple[str, ...] = (".sql", "", ".json", ".yaml", ".yml", ".duckdb", ".db",
                                    ".txt", ".SQL", ".ddb")
# fmt: on


@dataclass(frozen=True)
class CliCase:
    candidate: bytes
    reference: bytes
    schema: bytes
    schema_suffix: str
    extra_args: tuple[str, ...] = field(default=())


def _encoded(src: Source, text: str) -> bytes:
    encoding = src.integer(0, 9)
    if encoding <= 5:  # lone surrogates become invalid UTF-8
        return text.encode("utf-8", "surrogatepass")
    if encoding == 6:
        return b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    if encoding == 7:
        return text.encode("utf-16", "surrogatepass")
    if encoding == 8:
        return text.encode("latin-1", "replace")
    return text.encode("utf-8", "surrogatepass") + src.binary(8)


def _schema_file(src: Source, suffix: str) -> bytes:
    kind = src.integer(0, 9)
    if suffix in {".json", ".yaml", ".yml"} and kind <= 5:
        mapping = gen_schema_mapping(src)
        if suffix == ".json" or chance(src, 50):
            text = json.dumps(mapping)  # JSON is YAML too
        else:
            text = json.dumps(mapping, indent=1).replace('"', "")
        return _encoded(
            src,
            _mutated(
                src,
                text,
                vocabulary=(":", "{", "[", "- ", "&a", "*a", "!!python/object", "\t", "---"),
            ),
        )
    if kind <= 5:
        return _encoded(src, gen_schema_text(src))
    if kind == 6:
        return src.binary(300)
    if kind == 7:  # DuckDB's magic at bytes 8..12 followed by junk
        return src.binary(8).ljust(8, b"\x00") + b"DUCK" + src.binary(300)
    if kind == 8:
        return b"SQLite format 3\x00" + src.binary(100)
    return b""


def gen_cli_case(src: Source) -> CliCase:
    cand, ref, ddl, _dialect = src.choice(corpus().pairs)
    kind = src.integer(0, 9)
    mutated = _mutated(src, cand, mild=chance(src, 50))
    candidate = _encoded(src, mutated if kind <= 6 else gen_query(src))
    reference = _encoded(src, ref) if chance(src, 70) else _encoded(src, gen_query(src))
    if kind == 9:
        candidate = src.binary(300)
    suffix = src.choice(SCHEMA_SUFFIXES)
    schema = ddl.encode() if suffix == ".sql" and chance(src, 50) else _schema_file(src, suffix)
    return CliCase(candidate, reference, schema, suffix, src.choice(_CLI_EXTRA))


# -- Hypothesis strategies ------------------------------------------------------------

queries: st.SearchStrategy[str] = strategy(gen_query)
schema_sources: st.SearchStrategy[str | dict[str, Any]] = strategy(gen_schema_source)
dialects: st.SearchStrategy[str] = strategy(gen_dialect)
check_cases: st.SearchStrategy[CheckCase] = strategy(gen_check_case)
cli_cases: st.SearchStrategy[CliCase] = strategy(gen_cli_case)


@dataclass(frozen=True)
class GuardCase:
    sql: str
    schema_ddl: str
    dialect: str


def gen_guard_case(src: Source) -> GuardCase:
    """A query for ``guard_query`` with the corpus schema it was written for."""
    query = src.choice(corpus().queries)
    kind = src.integer(0, 9)
    if kind <= 6:
        sql = _mutated(src, query.sql, mild=chance(src, 40))
    elif kind == 7:
        sql = gen_token_soup(src)
    else:
        sql = gen_junk_text(src)
    dialect = query.dialect if chance(src, 85) else gen_dialect(src)
    return GuardCase(sql, query.schema_ddl, dialect)


guard_cases: st.SearchStrategy[GuardCase] = strategy(gen_guard_case)
