"""The parse-and-guard stage: every refusal kind, and queries that must pass through."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

import sqlequiv.guard.query as guard_module
import sqlequiv.guard.text as guard_text
from sqlequiv.errors import QueryError
from sqlequiv.guard import GuardedQuery, guard_query
from sqlequiv.schema.model import Column, Schema, Table


def _t(name: str) -> exp.DataType:
    return exp.DataType.build(name)


SCHEMA = Schema(
    (
        Table(
            "customers",
            (
                Column("customer_id", _t("INT"), nullable=False),
                Column("name", _t("VARCHAR")),
            ),
            primary_key=("customer_id",),
        ),
        Table(
            "orders",
            (
                Column("order_id", _t("INT"), nullable=False),
                Column("customer_id", _t("INT")),
                Column("amount", _t("DECIMAL(10, 2)")),
                Column("status", _t("VARCHAR")),
                Column("tags", _t("VARCHAR[]")),
            ),
            primary_key=("order_id",),
        ),
    )
)


def refused(sql: str, dialect: str = "duckdb", **kwargs: object) -> QueryError:
    with pytest.raises(QueryError) as info:
        guard_query(sql, SCHEMA, dialect=dialect, **kwargs)  # type: ignore[arg-type]
    return info.value


@pytest.fixture(autouse=True)
def _guard_afresh() -> None:
    """Guard every query anew: some tests replace the guard's parts, and a query an
    earlier test guarded would otherwise come back remembered (see the test below)."""
    guard_module._GUARDED.clear()


@pytest.fixture(scope="module")
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    """A DuckDB with the schema's (empty) tables: accepted SQL must at least run."""
    connection = duckdb.connect()
    connection.execute(SCHEMA.ddl())
    yield connection
    connection.close()


# -- refusals ---------------------------------------------------------------------

REFUSALS: list[tuple[str, str, str, str]] = [
    # (sql, dialect, kind, text the message must quote)
    ("", "duckdb", "empty_query", "empty"),
    ("  \n\t ", "duckdb", "empty_query", "empty"),
    ("-- only a comment", "duckdb", "empty_query", "comments"),
    ("/* nothing */ ;", "duckdb", "empty_query", "comments"),
    (";", "duckdb", "empty_query", "semicolons"),
    ("\x00\x01\xff", "duckdb", "invalid_text", "NUL byte"),
    ("SELECT 1\x07", "duckdb", "invalid_text", "U+0007"),
    ("SELECT '\ud800'", "duckdb", "invalid_text", "U+D800"),
    ("SELECT '\ufffd'", "duckdb", "invalid_text", "U+FFFD"),
    ("SELECT 1 +* 2", "duckdb", "parse_error", '"2"'),
    ("SELEC 1", "duckdb", "parse_error", "SELEC 1"),
    ("SELECT 'abc", "duckdb", "parse_error", "'abc"),
    ("SELECT 1 /* never closed", "duckdb", "parse_error", "never closed"),
    ("SELECT $$abc", "duckdb", "parse_error", "$$abc"),
    ("SELECT * FROM Orders", "bigquery", "unknown_table", 'did you mean "orders"'),
    ("SELECT " + "(" * 5000 + "1" + ")" * 5000, "duckdb", "too_complex", "nested"),
    # sqlglot's parse time doubles with each JOIN without ON: refused before parsing
    ("SELECT 1 FROM orders o " + "JOIN customers c " * 30, "duckdb", "too_complex", "29 JOINs"),
    ("SELECT 1 FROM orders o " + "JOIN customers c " * 30, "mysql", "too_complex", "without ON"),
    ("SELECT 1 FROM orders o " + "LEFT JOIN customers c " * 30, "tsql", "too_complex", "ON"),
    ("SELECT 1; SELECT 2", "duckdb", "multiple_statements", "SELECT 2"),
    ("SELECT 1; DROP TABLE orders", "duckdb", "multiple_statements", "DROP TABLE orders"),
    ("INSERT INTO orders (order_id) VALUES (1)", "duckdb", "not_read_only", "INSERT"),
    ("UPDATE orders SET amount = 0", "duckdb", "not_read_only", "UPDATE"),
    ("DELETE FROM orders", "postgres", "not_read_only", "DELETE"),
    (
        "MERGE INTO orders USING customers c ON false WHEN MATCHED THEN DELETE",
        "postgres",
        "not_read_only",
        "MERGE",
    ),
    ("CREATE TABLE x (a INT)", "duckdb", "not_read_only", "CREATE"),
    ("CREATE MACRO m(a) AS a", "duckdb", "not_read_only", "CREATE"),
    ("CREATE SECRET (TYPE s3)", "duckdb", "not_read_only", "CREATE"),
    ("DROP TABLE orders", "duckdb", "not_read_only", "DROP"),
    ("ALTER TABLE orders ADD COLUMN b INT", "duckdb", "not_read_only", "ALTER"),
    ("TRUNCATE orders", "duckdb", "not_read_only", "TRUNCATE"),
    ("COPY orders TO 'x.csv'", "duckdb", "not_read_only", "COPY"),
    ("COPY (SELECT 1) TO 'x.csv'", "duckdb", "not_read_only", "COPY"),
    ("ATTACH 'x.db'", "duckdb", "not_read_only", "ATTACH"),
    ("ATTACH 'x.db'", "postgres", "not_read_only", "ATTACH"),
    ("DETACH x", "duckdb", "not_read_only", "DETACH"),
    ("PRAGMA table_info('orders')", "duckdb", "not_read_only", "PRAGMA"),
    ("PRAGMA version", "duckdb", "not_read_only", "PRAGMA"),
    ("SET memory_limit='1TB'", "duckdb", "not_read_only", "SET"),
    ("SET VARIABLE x = 1", "postgres", "not_read_only", "SET"),
    ("RESET memory_limit", "duckdb", "not_read_only", "RESET"),
    ("USE other", "duckdb", "not_read_only", "USE"),
    ("INSTALL httpfs", "duckdb", "not_read_only", "INSTALL"),
    ("INSTALL httpfs", "postgres", "not_read_only", "INSTALL"),
    ("FORCE INSTALL httpfs", "duckdb", "not_read_only", "INSTALL"),
    ("LOAD httpfs", "duckdb", "not_read_only", "LOAD"),
    ("CALL pragma_version()", "duckdb", "not_read_only", "CALL"),
    ("EXPORT DATABASE 'dir'", "duckdb", "not_read_only", "EXPORT"),
    ("IMPORT DATABASE 'dir'", "duckdb", "not_read_only", "IMPORT"),
    ("CHECKPOINT", "duckdb", "not_read_only", "CHECKPOINT"),
    ("VACUUM", "duckdb", "not_read_only", "VACUUM"),
    ("DESCRIBE orders", "duckdb", "not_read_only", "DESCRIBE"),
    ("SHOW TABLES", "duckdb", "not_read_only", "SHOW"),
    ("SUMMARIZE orders", "duckdb", "not_read_only", "SUMMARIZE"),
    ("EXPLAIN SELECT 1", "duckdb", "not_read_only", "EXPLAIN"),
    ("BEGIN", "duckdb", "not_read_only", "BEGIN"),
    ("COMMIT", "duckdb", "not_read_only", "COMMIT"),
    ("ROLLBACK", "duckdb", "not_read_only", "ROLLBACK"),
    ("SELECT 1 INTO x", "postgres", "not_read_only", "INTO"),
    ("SELECT * FROM orders FOR UPDATE", "postgres", "not_read_only", "FOR UPDATE"),
    (
        "WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d",
        "duckdb",
        "not_read_only",
        "DELETE FROM orders",
    ),
    (
        "WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d",
        "postgres",
        "not_read_only",
        "DELETE FROM orders",
    ),
    (
        "WITH d AS (UPDATE orders SET amount = 0 RETURNING *) SELECT * FROM d",
        "postgres",
        "not_read_only",
        "UPDATE orders",
    ),
    ("SELECT * FROM read_csv('/etc/passwd')", "duckdb", "forbidden_function", "read_csv"),
    ("select * from READ_CSV_AUTO('x.csv')", "duckdb", "forbidden_function", "read_csv_auto"),
    ("SELECT * FROM read_parquet('x.parquet')", "duckdb", "forbidden_function", "read_parquet"),
    ("SELECT * FROM parquet_scan('x.parquet')", "duckdb", "forbidden_function", "parquet_scan"),
    ("SELECT * FROM read_json_auto('x.json')", "duckdb", "forbidden_function", "read_json_auto"),
    ("SELECT * FROM read_text('/etc/hosts')", "duckdb", "forbidden_function", "read_text"),
    ("SELECT * FROM glob('/home/*')", "duckdb", "forbidden_function", "glob"),
    ("SELECT * FROM sqlite_scan('x.db', 't')", "duckdb", "forbidden_function", "sqlite_scan"),
    ("SELECT * FROM query('SELECT 1')", "duckdb", "forbidden_function", "query"),
    ("SELECT * FROM pragma_table_info('orders')", "duckdb", "forbidden_function", "pragma_"),
    ("SELECT * FROM duckdb_secrets()", "duckdb", "forbidden_function", "duckdb_secrets"),
    ("SELECT * FROM duckdb_tables()", "duckdb", "forbidden_function", "duckdb_tables"),
    ("SELECT getenv('HOME')", "duckdb", "forbidden_function", "getenv"),
    ("SELECT GetEnv('HOME')", "postgres", "forbidden_function", "getenv"),
    ("SELECT \"getenv\"('HOME')", "duckdb", "forbidden_function", "getenv"),
    ("SELECT 'x.txt'.read_text()", "duckdb", "forbidden_function", "read_text"),
    (
        "SELECT order_id FROM orders WHERE status IN (SELECT content FROM read_text('f'))",
        "duckdb",
        "forbidden_function",
        "read_text",
    ),
    ("SELECT * FROM orders, LATERAL read_csv('x.csv')", "duckdb", "forbidden_function", "read_csv"),
    ("SELECT * FROM orders JOIN read_csv('x') ON true", "duckdb", "forbidden_function", "read_csv"),
    ("SELECT * FROM read_csv('x.csv')", "postgres", "forbidden_function", "read_csv"),
    ("SELECT * FROM 'data.parquet'", "duckdb", "forbidden_function", "data.parquet"),
    ("SELECT * FROM orders, 's3://bucket/x.csv'", "duckdb", "forbidden_function", "s3://"),
    ('SELECT * FROM "data.csv"', "duckdb", "forbidden_function", "data.csv"),
    ("SELECT * FROM test_all_types()", "duckdb", "forbidden_function", "test_all_types"),
    ("SELECT * FROM ordrs", "duckdb", "unknown_table", 'did you mean "orders"'),
    ("SELECT * FROM nothing_like_it", "duckdb", "unknown_table", "customers, orders"),
    ("SELECT * FROM information_schema.tables", "duckdb", "unknown_table", "information_schema"),
    ("SELECT * FROM pg_catalog.pg_class", "postgres", "unknown_table", "pg_catalog.pg_class"),
    ("SELECT * FROM other_db.orders", "duckdb", "unknown_table", "other_db.orders"),
    ("SELECT * FROM memory.main.orders", "duckdb", "unknown_table", "memory.main.orders"),
    ("SELECT * FROM sqlite_master", "duckdb", "unknown_table", "sqlite_master"),
    ("SELECT * FROM duckdb_settings", "duckdb", "unknown_table", "duckdb_settings"),
    ('SELECT * FROM "Orders"', "postgres", "unknown_table", "case-sensitive"),
    ("WITH a AS (SELECT 1 AS x) SELECT * FROM b", "duckdb", "unknown_table", '"b"'),
    # a CTE is only in scope inside the query that defines it
    (
        "SELECT * FROM (WITH a AS (SELECT 1 AS x) SELECT * FROM a) s, a",
        "duckdb",
        "unknown_table",
        '"a"',
    ),
    ("SELECT amout FROM orders", "duckdb", "unknown_column", 'did you mean "amount"'),
    ("SELECT o.amout FROM orders AS o", "duckdb", "unknown_column", 'did you mean "amount"'),
    ("SELECT x.amount FROM orders AS o", "duckdb", "unknown_column", 'no table or alias "x"'),
    ("SELECT order_id FROM orders ORDER BY nosuch", "duckdb", "unknown_column", '"nosuch"'),
    (
        "SELECT status FROM orders GROUP BY 1 HAVING count(zz) > 1",
        "duckdb",
        "unknown_column",
        '"zz"',
    ),
    (
        "SELECT * FROM orders WHERE customer_id IN "
        "(SELECT customer_id FROM customers WHERE nme = 'a')",
        "duckdb",
        "unknown_column",
        'did you mean "name"',
    ),
    ('SELECT "Amount" FROM orders', "postgres", "unknown_column", '"Amount"'),
    (
        "SELECT customer_id FROM orders JOIN customers ON true",
        "duckdb",
        "ambiguous_column",
        "orders.customer_id or customers.customer_id",
    ),
    ("SELECT $1", "postgres", "unsupported", "$1"),
    ("SELECT * FROM orders WHERE order_id = ?", "duckdb", "unsupported", "?"),
    ("PIVOT orders ON status USING sum(amount)", "duckdb", "unsupported", "PIVOT"),
    ("1 + 1", "duckdb", "parse_error", "1 + 1"),
]


@pytest.mark.parametrize(("sql", "dialect", "kind", "quoted"), REFUSALS)
def test_refusals(sql: str, dialect: str, kind: str, quoted: str) -> None:
    err = refused(sql, dialect)
    assert err.kind == kind, err
    assert quoted.lower() in err.message.lower(), err
    assert err.side == "candidate"


def test_unknown_dialect_names_it() -> None:
    err = refused("SELECT 1", "postgress")
    assert err.kind == "unknown_dialect"
    assert "postgress" in err.message
    assert "postgres" in err.message


def test_too_large_says_size_and_limit() -> None:
    sql = "SELECT 1 AS x" + " " * 1_000_000
    err = refused(sql)
    assert err.kind == "too_large"
    assert f"{len(sql):,}" in err.message
    assert "100,000" in err.message


def test_max_length_is_configurable() -> None:
    assert refused("SELECT 1", max_length=5).kind == "too_large"
    assert guard_query("SELECT 1", SCHEMA, max_length=8).sql == "SELECT 1"


def test_bytes_are_invalid_text() -> None:
    err = refused(b"SELECT 1")  # type: ignore[arg-type]
    assert err.kind == "invalid_text"
    assert "bytes" in err.message


def test_side_is_reported() -> None:
    with pytest.raises(QueryError) as info:
        guard_query("DROP TABLE orders", SCHEMA, side="reference")
    assert info.value.side == "reference"


@pytest.mark.parametrize(
    ("sql", "kind", "line", "col"),
    [
        ("SELECT 1 +* 2", "parse_error", 1, 13),
        ("SELECT 1 FROM WHERE", "parse_error", 1, 15),
        ("SELECT 1,\n  'abc", "parse_error", 2, 3),
        ("SELECT 1;\n  SELECT 2", "multiple_statements", 2, 3),
        ("SELECT order_id,\n       amout\nFROM orders", "unknown_column", 2, 8),
        ("SELECT *\nFROM ordrs", "unknown_table", 2, 6),
        ("SELECT *\nFROM read_csv('x')", "forbidden_function", 2, 6),
        ("SELECT 1 AS x,\n  getenv('HOME') AS y", "forbidden_function", 2, 3),
        ("WITH d AS (\n  DELETE FROM orders RETURNING *) SELECT * FROM d", "not_read_only", 2, 3),
        ("  ATTACH 'x.db'", "not_read_only", 1, 3),
        ("SELECT 1\x00", "invalid_text", 1, 9),
    ],
)
def test_positions(sql: str, kind: str, line: int, col: int) -> None:
    err = refused(sql)
    assert (err.kind, err.line, err.col) == (kind, line, col), err


def test_unexpected_errors_are_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> exp.Expression:
        raise RuntimeError("internal failure")

    monkeypatch.setattr(guard_module, "qualify_query", boom)
    err = refused("SELECT 1")
    assert err.kind == "unsupported"
    assert "internal failure" in err.message


def test_keyboard_interrupt_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*args: object, **kwargs: object) -> exp.Expression:
        raise KeyboardInterrupt

    monkeypatch.setattr(guard_module, "qualify_query", interrupt)
    with pytest.raises(KeyboardInterrupt):
        guard_query("SELECT 1", SCHEMA)


def test_duckdb_translation_is_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # Should a transpile ever turn a harmless query into a file read, it must not run.
    monkeypatch.setattr(guard_module, "to_duckdb", lambda ast: "SELECT * FROM read_csv('/x')")
    err = refused("SELECT 1")
    assert err.kind == "forbidden_function"
    assert "DuckDB translation" in err.message


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_arbitrary_text_never_raises_anything_else(sql: str) -> None:
    # Anything but a QueryError (a traceback) fails the test.
    with contextlib.suppress(QueryError):
        guard_query(sql, SCHEMA)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["SELECT", "*", "FROM", "orders", "(", ")", ",", "WITH", "x", "AS", "1", "'a'", ";"]
        ),
        max_size=20,
    )
)
def test_sql_like_noise_never_raises_anything_else(words: list[str]) -> None:
    with contextlib.suppress(QueryError):
        guard_query(" ".join(words), SCHEMA)


# -- accepted queries ----------------------------------------------------------------

ACCEPTED: list[tuple[str, str]] = [
    ("SELECT * FROM orders", "duckdb"),
    ("select order_id from ORDERS;", "duckdb"),
    ("SELECT 1; -- trailing comment", "duckdb"),
    ("\ufeffSELECT 1", "duckdb"),
    ("SELECT * FROM main.orders", "duckdb"),
    ('SELECT * FROM "ORDERS"', "duckdb"),
    ("FROM orders", "duckdb"),
    ("TABLE orders", "duckdb"),
    ("VALUES (1, 'a'), (2, 'b')", "duckdb"),
    ("(SELECT order_id FROM orders)", "duckdb"),
    ("SELECT o.order_id, c.name FROM orders o JOIN customers c USING (customer_id)", "duckdb"),
    (
        "SELECT c.name, count(*) FROM customers c LEFT JOIN orders o "
        "ON o.customer_id = c.customer_id GROUP BY ALL",
        "duckdb",
    ),
    ("SELECT order_id FROM orders UNION SELECT customer_id FROM customers", "duckdb"),
    ("SELECT order_id FROM orders EXCEPT SELECT customer_id FROM customers", "postgres"),
    ("SELECT order_id AS x FROM orders UNION ALL SELECT 1 ORDER BY x", "duckdb"),
    ("WITH big AS (SELECT * FROM orders WHERE amount > 10) SELECT count(*) FROM big", "duckdb"),
    (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) "
        "SELECT * FROM r",
        "duckdb",
    ),
    (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) "
        "SELECT sum(n) FROM r",
        "postgres",
    ),
    (
        "SELECT * FROM orders WHERE amount > "
        "(SELECT avg(amount) FROM orders o2 WHERE o2.customer_id = orders.customer_id)",
        "duckdb",
    ),
    (
        "SELECT name FROM customers c WHERE NOT EXISTS "
        "(SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
        "postgres",
    ),
    (
        "SELECT customer_id, SUM(amount) OVER (PARTITION BY customer_id ORDER BY order_id) "
        "FROM orders",
        "duckdb",
    ),
    (
        "SELECT order_id, rank() OVER w FROM orders WINDOW w AS (ORDER BY amount DESC)",
        "postgres",
    ),
    ("SELECT order_id FROM orders QUALIFY row_number() OVER (ORDER BY amount) = 1", "duckdb"),
    ("SELECT status, count(*) AS n FROM orders GROUP BY status HAVING n > 1", "duckdb"),
    ("SELECT order_id AS x FROM orders ORDER BY x", "duckdb"),
    ("SELECT list_transform(tags, t -> upper(t)) FROM orders", "duckdb"),
    ("SELECT * EXCLUDE (tags) FROM orders", "duckdb"),
    ("SELECT * FROM orders, unnest(tags) AS u(tag)", "duckdb"),
    ("SELECT * FROM range(3)", "duckdb"),
    ("SELECT i FROM range(3) AS t(i)", "duckdb"),
    ("SELECT * FROM generate_series(1, 3)", "postgres"),
    # the alias of a one-column table function also names its column
    ("SELECT x FROM unnest(ARRAY[1, 2]) AS x", "postgres"),
    ("SELECT u FROM orders, unnest(tags) AS u", "duckdb"),
    ("SELECT r.range FROM range(3) AS r", "duckdb"),
    ("SELECT order_id FROM orders WHERE status GLOB 'a*'", "duckdb"),
    ("SELECT o.order_id FROM orders o, LATERAL (SELECT o.amount * 2 AS twice) x", "duckdb"),
    ("SELECT TOP 3 order_id FROM orders ORDER BY amount DESC", "tsql"),
    ("SELECT `order_id` FROM orders LIMIT 2", "mysql"),
    ("SELECT ORDER_ID FROM ORDERS", "snowflake"),
    ("SELECT order_id FROM orders WHERE amount IS DISTINCT FROM 0", "bigquery"),
]


@pytest.mark.parametrize(("sql", "dialect"), ACCEPTED)
def test_accepted_queries_run_on_duckdb(
    sql: str, dialect: str, con: duckdb.DuckDBPyConnection
) -> None:
    guarded = guard_query(sql, SCHEMA, dialect=dialect)
    assert isinstance(guarded, GuardedQuery)
    assert guarded.sql == sql
    assert guarded.dialect == dialect
    # Runs on the empty schema: every name resolved, the translation is valid DuckDB.
    con.execute(guarded.duckdb_sql).fetchall()


def test_postgres_integer_division_survives() -> None:
    guarded = guard_query("SELECT 7 / 2", SCHEMA, dialect="postgres")
    with duckdb.connect() as connection:
        assert connection.execute(guarded.duckdb_sql).fetchall() == [(3,)]
    duck = guard_query("SELECT 7 / 2", SCHEMA, dialect="duckdb")
    with duckdb.connect() as connection:
        assert connection.execute(duck.duckdb_sql).fetchall() == [(3.5,)]


def test_star_is_expanded_and_tree_kept_apart() -> None:
    guarded = guard_query("SELECT * FROM Orders", SCHEMA)
    assert guarded.duckdb_sql == (
        "SELECT orders.order_id AS order_id, orders.customer_id AS customer_id, "
        "orders.amount AS amount, orders.status AS status, orders.tags AS tags "
        "FROM orders AS orders"
    )
    parsed, qualified = guarded.parsed, guarded.qualified
    assert isinstance(parsed, exp.Select)
    assert isinstance(qualified, exp.Select)
    # parsed is the source tree, untouched by qualification
    assert isinstance(parsed.selects[0], exp.Star)
    assert [s.alias_or_name for s in qualified.selects] == [
        "order_id",
        "customer_id",
        "amount",
        "status",
        "tags",
    ]
    amount_type = qualified.selects[2].type
    assert amount_type is not None
    assert amount_type.is_type(exp.DataType.Type.DECIMAL)


def test_recursive_cte_passes_through() -> None:
    guarded = guard_query(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r LIMIT 3",
        SCHEMA,
    )
    assert guarded.duckdb_sql.startswith("WITH RECURSIVE r(n) AS")
    with duckdb.connect() as connection:
        assert connection.execute(guarded.duckdb_sql).fetchall() == [(1,), (2,), (3,)]


@pytest.mark.parametrize(
    ("sql", "dialect"),
    [
        ("SELECT g FROM generate_series(1, 3) AS g", "duckdb"),
        ("SELECT g FROM generate_series(1, 3) AS g", "postgres"),
        ("SELECT x FROM unnest(ARRAY[1, 2, 3]) AS x", "postgres"),
    ],
)
def test_table_function_alias_names_its_column(sql: str, dialect: str) -> None:
    guarded = guard_query(sql, SCHEMA, dialect=dialect)
    with duckdb.connect() as connection:
        rows = connection.execute(guarded.duckdb_sql).fetchall()
    assert sorted(rows) == [(1,), (2,), (3,)]


# -- source constructs DuckDB spells differently (Calcite, Spark) ---------------------


def _rows(sql: str, dialect: str = "trino", data: str = "") -> list[tuple[object, ...]]:
    """Guard ``sql`` and run its DuckDB translation on the schema filled by ``data``."""
    guarded = guard_query(sql, SCHEMA, dialect=dialect)
    with duckdb.connect() as connection:
        connection.execute(SCHEMA.ddl())
        if data:
            connection.execute(data)
        return sorted(connection.execute(guarded.duckdb_sql).fetchall(), key=repr)


ORDERS = (
    "INSERT INTO customers VALUES (1, 'ann'), (2, NULL);"
    "INSERT INTO orders VALUES (10, 1, 5.00, 'open', NULL), (11, 1, NULL, 'paid', NULL),"
    " (12, NULL, 7.00, NULL, NULL), (13, 2, 7.00, 'open', NULL)"
)


@pytest.mark.parametrize(
    ("sql", "quoted"),
    [
        ("SELECT order_id AS $f2 FROM orders", '"$f2"'),
        ("SELECT t.$f1 FROM (SELECT order_id AS $f1 FROM orders) AS t", 't."$f1"'),
        ("SELECT EXPR$0 FROM (SELECT amount AS EXPR$0 FROM orders) AS t", '"expr$0"'),
        ("SELECT $cor0.order_id FROM orders AS $cor0", '"$cor0"'),
    ],
)
def test_calcite_generated_names_are_identifiers(sql: str, quoted: str) -> None:
    # sqlglot's Trino parser reads $f2 as a name; DuckDB would read it as a parameter.
    guarded = guard_query(sql, SCHEMA, dialect="trino")
    assert quoted in guarded.duckdb_sql
    assert len(_rows(sql, data=ORDERS)) == 4


def test_calcite_values_columns_are_named_expr_n() -> None:
    sql = "SELECT t.EXPR$0 + t.EXPR$1 FROM (VALUES (10, 1), (20, 3)) AS t WHERE t.EXPR$0 > 5"
    assert _rows(sql) == [(11,), (23,)]
    # Only when such a name is used: other VALUES keep their columns.
    assert _rows("SELECT * FROM (VALUES (1, 2)) AS t") == [(1, 2)]


@pytest.mark.parametrize("dialect", ["trino", "spark"])
def test_count_of_several_arguments_counts_rows_where_all_are_non_null(dialect: str) -> None:
    sql = (
        "SELECT customer_id, COUNT(amount, status), COUNT(DISTINCT amount, status) "
        "FROM orders GROUP BY customer_id"
    )
    assert _rows(sql, dialect, ORDERS) == [(1, 1, 1), (2, 1, 1), (None, 0, 0)]
    # COUNT of one argument is untouched.
    assert (
        "COUNT(orders.amount)"
        in guard_query("SELECT COUNT(amount) FROM orders", SCHEMA, dialect=dialect).duckdb_sql
    )


def test_count_of_several_arguments_stays_a_duckdb_error_in_duckdb() -> None:
    # DuckDB and Postgres refuse COUNT(a, b): a query written for them keeps it.
    guarded = guard_query("SELECT COUNT(amount, status) FROM orders", SCHEMA)
    assert "COUNT(orders.amount, orders.status)" in guarded.duckdb_sql


@pytest.mark.parametrize("dialect", ["spark", "mysql", "trino"])
def test_order_by_a_constant_has_no_effect(dialect: str) -> None:
    guarded = guard_query("SELECT order_id FROM orders ORDER BY 'a'", SCHEMA, dialect=dialect)
    assert "ORDER BY" not in guarded.duckdb_sql
    kept = guard_query(
        "SELECT order_id FROM orders ORDER BY NULL, order_id DESC", SCHEMA, dialect=dialect
    )
    assert kept.duckdb_sql.endswith("ORDER BY order_id DESC")
    # An integer is a position, not a constant.
    assert (
        "ORDER BY"
        in guard_query("SELECT order_id FROM orders ORDER BY 1", SCHEMA, dialect=dialect).duckdb_sql
    )


def test_order_by_a_constant_is_left_to_duckdb_in_duckdb_and_postgres() -> None:
    for dialect in ("duckdb", "postgres"):
        guarded = guard_query("SELECT order_id FROM orders ORDER BY 'a'", SCHEMA, dialect=dialect)
        assert "ORDER BY 'a'" in guarded.duckdb_sql


def test_spark_positive_is_the_number_itself() -> None:
    assert _rows("SELECT POSITIVE(customer_id) FROM customers", "spark", ORDERS) == [(1,), (2,)]
    err = refused("SELECT POSITIVE(name) FROM customers", "spark")
    assert err.kind == "unsupported"
    assert "POSITIVE of a STRING value" in err.message
    # Not a Trino function.
    assert refused("SELECT POSITIVE(customer_id) FROM customers", "trino").kind == (
        "unknown_function"
    )


def test_single_value_is_the_one_value_and_fails_on_two_rows() -> None:
    one = "SELECT SINGLE_VALUE(amount) AS $f0 FROM orders WHERE order_id = 10"
    assert _rows(one, data=ORDERS) == [(5,)]
    none = "SELECT SINGLE_VALUE(amount) FROM orders WHERE order_id = 99"
    assert _rows(none, data=ORDERS) == [(None,)]
    grouped = "SELECT status, SINGLE_VALUE(order_id) FROM orders WHERE status <> 'open' GROUP BY 1"
    assert _rows(grouped, data=ORDERS) == [("paid", 11)]
    # Exactly Calcite's semantics: an error for a group of two rows, NULL or not.
    two = "SELECT SINGLE_VALUE(status) FROM orders WHERE customer_id = 1"
    with pytest.raises(duckdb.InvalidInputException, match="more than one value"):
        _rows(two, data=ORDERS)


@pytest.mark.parametrize(
    ("sql", "dialect", "quoted"),
    [
        ("SELECT SINGLE_VALUE(amount) OVER () FROM orders", "trino", "OVER"),
        ("SELECT SINGLE_VALUE(DISTINCT amount) FROM orders", "trino", "DISTINCT"),
        ("SELECT single_value(amount) FROM orders", "duckdb", "more than one row"),
    ],
)
def test_single_value_that_cannot_be_translated_is_refused(
    sql: str, dialect: str, quoted: str
) -> None:
    err = refused(sql, dialect)
    assert err.kind == "unsupported", err
    assert "single_value" in err.message.lower()
    assert quoted in err.message


@pytest.mark.parametrize(
    ("sql", "name", "col"),
    [
        ("SELECT * FROM orders AS x WHERE B1(x)", "B1", 33),
        ("SELECT order_id FROM orders WHERE B1(amount) AND B2(status)", "B1", 35),
        ("SELECT * FROM (SELECT * FROM orders X WHERE b1(X)) Y WHERE B2(Y)", "b1", 45),
        ("SELECT no_such_agg(amount) FROM orders GROUP BY status", "no_such_agg", 8),
    ],
)
def test_uninterpreted_functions_are_named(sql: str, name: str, col: int) -> None:
    # They used to surface as an unknown column (the table alias passed to them).
    err = refused(sql, "trino")
    assert err.kind == "unknown_function", err
    assert f"function {name} does not exist" in err.message
    assert (err.line, err.col) == (1, col)


def test_unknown_function_in_the_duckdb_translation_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guard_module, "to_duckdb", lambda ast: "SELECT no_such_function(1)")
    err = refused("SELECT 1")
    assert err.kind == "unknown_function"
    assert "DuckDB translation" in err.message


def test_forbidden_functions_are_still_forbidden_not_unknown() -> None:
    # getenv is not in DuckDB's catalog: the forbidden check must come first.
    assert refused("SELECT getenv('HOME')", "trino").kind == "forbidden_function"
    assert refused("SELECT 1 FROM orders WHERE shell('ls') = 1", "trino").kind == (
        "forbidden_function"
    )


@pytest.mark.parametrize(
    ("sql", "dialect", "quoted"),
    [
        (
            "SELECT * FROM customers WHERE EXISTS "
            "(SELECT 1 FROM orders AS t0 WHERE * = t0.customer_id)",
            "trino",
            '"*" is used as a value',
        ),
        ("SELECT FROM orders WHERE order_id = 20", "trino", "SELECT without columns"),
        ("SELECT FIRST_VALUE(amount) FROM orders GROUP BY status", "trino", "FIRST_VALUE"),
        ("SELECT first_value(amount) FROM orders", "spark", "without OVER"),
        (
            "SELECT CASE WHEN order_id = 1 THEN order_id ELSE status END FROM orders",
            "spark",
            "CASE mixes INT and STRING",
        ),
        (
            "SELECT CASE WHEN order_id = 1 THEN 1 ELSE status END FROM orders",
            "postgres",
            "add a CAST",
        ),
        ("SELECT status FROM orders GROUP BY status, 4", "trino", "GROUP BY 4 is out of range"),
        ("SELECT 4, 2 + 3 FROM orders GROUP BY 4, 2 + 3", "trino", "Calcite reads GROUP BY 4"),
        ("SELECT status FROM orders ORDER BY 3", "trino", "ORDER BY 3 is out of range"),
    ],
)
def test_constructs_without_one_meaning_are_refused_by_name(
    sql: str, dialect: str, quoted: str
) -> None:
    err = refused(sql, dialect)
    assert err.kind == "unsupported", err
    assert quoted in err.message, err


@pytest.mark.parametrize(
    ("sql", "dialect"),
    [
        ("SELECT FIRST_VALUE(amount) OVER (ORDER BY order_id) FROM orders", "trino"),
        (
            "SELECT FIRST_VALUE(amount) IGNORE NULLS OVER (ORDER BY order_id) FROM orders",
            "duckdb",
        ),
        ("SELECT CASE WHEN order_id = 1 THEN order_id ELSE '2' END FROM orders", "duckdb"),
        (
            "SELECT CASE WHEN order_id = 1 THEN CAST(order_id AS VARCHAR) ELSE status END "
            "FROM orders",
            "spark",
        ),
        ("SELECT COUNT(*) FROM orders", "trino"),
        ("SELECT orders.* FROM orders", "trino"),
    ],
)
def test_neighbours_of_refused_constructs_pass(sql: str, dialect: str) -> None:
    _rows(sql, dialect, ORDERS)


@pytest.mark.parametrize("key", ["'a'", "2 + 3", "TRUE", "1.5"])
def test_group_by_a_constant_is_one_group_unless_empty(key: str) -> None:
    sql = f"SELECT COUNT(*) FROM orders GROUP BY {key}"
    assert _rows(sql, "trino", ORDERS) == [(4,)]
    assert _rows(sql, "trino") == []  # not the one row of an aggregate without GROUP BY


def test_calcite_correlation_name_over_a_lateral_column_says_where_it_is() -> None:
    err = refused(
        "SELECT $cor0.order_id FROM orders AS $cor0, LATERAL (SELECT MIN(TRUE) AS $f0 "
        "FROM customers WHERE $cor0.customer_id = customer_id) AS t1 WHERE $cor0.$f0 IS NOT NULL",
        "trino",
    )
    assert err.kind == "unknown_column"
    assert 'column "$f0" does not exist in $cor0' in err.message
    assert "it is a column of t1, not of $cor0" in err.message


# -- the parser's backtracking -------------------------------------------------

CO = "c.customer_id = o.customer_id"
FROM_O = "SELECT 1 FROM orders o "


def _joins(template: str, n: int) -> str:
    return "".join(template.format(i=i) for i in range(n))


@pytest.mark.parametrize(
    ("sql", "dialect"),
    [
        (FROM_O + _joins("JOIN customers c{i} ON c{i}.customer_id = o.customer_id ", 30), "duckdb"),
        (FROM_O + _joins("LEFT JOIN customers c{i} USING (customer_id) ", 30), "duckdb"),
        (FROM_O + _joins("NATURAL JOIN customers c{i} ", 25), "duckdb"),
        (FROM_O + _joins("CROSS JOIN customers c{i} ", 25), "duckdb"),
        (FROM_O + _joins(", customers c{i}", 25).lstrip(), "duckdb"),
        # a few ON-less joins (MySQL's cross join), each in its own FROM clause
        (
            " UNION ALL ".join(["SELECT 1 FROM orders JOIN customers a JOIN customers b"] * 40),
            "mysql",
        ),
        # a few ON-less joins, then a long WHERE clause that is parsed once
        (
            "SELECT 1 FROM orders JOIN customers a JOIN customers b JOIN customers c WHERE "
            + " OR ".join(f"order_id = {i}" for i in range(1000)),
            "mysql",
        ),
    ],
    ids=["on", "using", "natural", "cross", "comma", "union-of-bare", "bare-then-long-where"],
)
def test_long_rows_of_joins_that_parse_fast_are_accepted(sql: str, dialect: str) -> None:
    start = time.perf_counter()
    guard_text._parse(sql, dialect, "candidate")  # no refusal before parsing
    assert time.perf_counter() - start < 5
    try:
        guard_query(sql, SCHEMA, dialect=dialect)
    except QueryError as err:  # the long WHERE may be refused for its size, never its joins
        assert "JOIN" not in err.message, err


@pytest.mark.parametrize(
    "join",
    [
        "JOIN customers c ",
        "JOIN customers AS on ",  # a keyword taken as an alias is no ON
        "JOIN customers AS natural ",
        "JOIN customers AS using ",
        "JOIN customers AS where ",
        "JOIN customers c ON c.where JOIN customers d ",
        "JOIN customers c ON c.union JOIN customers d ",
        "JOIN customers USING SAMPLE 1 ",
        "JOIN customers c JOIN customers d ON TRUE ",
        "JOIN (SELECT 1 FROM customers JOIN customers) s ",
        "LEFT JOIN customers c ",
        "STRAIGHT_JOIN customers c ",
    ],
)
@pytest.mark.parametrize("dialect", ["duckdb", "mysql", "snowflake"])
def test_rows_of_joins_without_on_never_take_long(join: str, dialect: str) -> None:
    sql = "SELECT 1 FROM orders o " + join * 20 + f"JOIN customers c ON {CO}"
    start = time.perf_counter()
    with contextlib.suppress(QueryError):  # too_complex, or another refusal: either is fine
        guard_query(sql, SCHEMA, dialect=dialect)
    assert time.perf_counter() - start < 5, join


def test_a_query_guarded_again_is_remembered_and_a_later_caller_gets_its_own_trees() -> None:
    sql = "SELECT name FROM customers WHERE customer_id > 2 -- remembered"
    first = guard_query(sql, SCHEMA, side="reference")
    second = guard_query(sql, SCHEMA, side="candidate")
    assert second.side == "candidate" and first.side == "reference"
    assert second.qualified.sql() == first.qualified.sql()
    # A later caller's trees are its own: rewriting them in place changes nothing for the next.
    for tree in (second.parsed, second.qualified):
        literal = tree.find(exp.Literal)
        assert literal is not None
        literal.replace(exp.Literal.number(7))
    third = guard_query(sql, SCHEMA)
    assert "> 2" in third.qualified.sql() and "> 2" in third.parsed.sql()
    assert second.qualified is not third.qualified
    # The same text against another schema object is guarded against that schema.
    other = Schema((Table("customers", (Column("customer_id", _t("INT")),)),))
    with pytest.raises(QueryError) as err:
        guard_query(sql, other)
    assert err.value.kind == "unknown_column"
