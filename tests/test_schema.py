"""The schema loaders: DDL in six dialects, the JSON/YAML mapping, DuckDB catalogs, files."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path

import duckdb
import pytest
from sqlglot import exp

from sqlequiv.errors import SchemaError
from sqlequiv.schema import (
    ForeignKey,
    Schema,
    load_schema,
    parse_ddl,
    parse_mapping,
    read_duckdb_catalog,
)

BENCHMARKS = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks"


def canonical(schema: Schema) -> list[tuple[object, ...]]:
    """Everything a schema says, with types and checks as DuckDB spells them.

    Tables are sorted (``Schema.ddl()`` writes parents first) and checks are compared
    without their parentheses (DuckDB's catalog adds redundant ones).
    """
    return sorted(
        (
            t.name,
            [
                (c.name, exp.DataType.build(c.type_sql, dialect="duckdb").sql("duckdb"), c.nullable)
                for c in t.columns
            ],
            t.primary_key,
            t.unique,
            t.foreign_keys,
            [unparenthesized(check) for check in t.checks],
        )
        for t in schema
    )


def unparenthesized(condition: exp.Expression) -> str:
    # Only a comparison key: without its parentheses the SQL may mean something else.
    bare = condition.transform(lambda n: n.this if isinstance(n, exp.Paren) else n)
    return str(bare.sql("duckdb"))


def columns(schema: Schema, table: str) -> list[tuple[str, str, bool]]:
    return [(c.name, c.type_sql, c.nullable) for c in schema.table(table).columns]


def checks(schema: Schema, table: str) -> list[str]:
    return [c.sql("duckdb") for c in schema.table(table).checks]


def assert_round_trips(schema: Schema) -> None:
    """``schema.ddl()`` runs on DuckDB and reads back as the same schema."""
    connection = duckdb.connect()
    try:
        connection.execute(schema.ddl())
    finally:
        connection.close()
    again = parse_ddl(schema.ddl(), "duckdb")
    assert canonical(again) == canonical(schema)
    # Once in DuckDB's dialect, a schema is a fixed point, types and all.
    assert parse_ddl(again.ddl(), "duckdb") == again


# --- Every constraint kind --------------------------------------------------------------------

ALL_CONSTRAINTS = """
CREATE TABLE Dept (
  id INTEGER PRIMARY KEY,
  code VARCHAR NOT NULL UNIQUE,
  name VARCHAR NULL DEFAULT 'x',
  budget DECIMAL(10, 2) CHECK (budget >= 0),
  UNIQUE (id, code)
);
CREATE TABLE "Emp" (
  "ID" INTEGER,
  dept_id INTEGER REFERENCES dept (id),
  dept_code VARCHAR REFERENCES Dept (code),
  boss INTEGER REFERENCES emp,
  salary INTEGER NOT NULL,
  CONSTRAINT emp_pk PRIMARY KEY (id),
  UNIQUE (dept_id, salary),
  CONSTRAINT u_id UNIQUE (id),
  CONSTRAINT fk_dept FOREIGN KEY (dept_id, dept_code) REFERENCES dept (id, code),
  CHECK (salary > 0),
  CONSTRAINT ck_boss CHECK (EMP.Boss <> "ID")
);
"""


def test_every_constraint_kind() -> None:
    schema = parse_ddl(ALL_CONSTRAINTS)
    assert schema.table_names == ("dept", "emp")
    dept, emp = schema.table("dept"), schema.table("emp")
    assert columns(schema, "dept") == [
        ("id", "INT", False),  # a primary key column is NOT NULL
        ("code", "TEXT", False),
        ("name", "TEXT", True),
        ("budget", "DECIMAL(10, 2)", True),
    ]
    assert dept.primary_key == ("id",)
    assert dept.unique == (("code",), ("id", "code"))
    assert checks(schema, "dept") == ["budget >= 0"]
    assert emp.column_names == ("id", "dept_id", "dept_code", "boss", "salary")
    assert emp.primary_key == ("id",)
    assert emp.column("id").nullable is False
    # UNIQUE (id) is the primary key again, so it is not repeated.
    assert emp.unique == (("dept_id", "salary"),)
    assert emp.foreign_keys == (
        ForeignKey(("dept_id",), "dept", ("id",)),
        ForeignKey(("dept_code",), "dept", ("code",)),
        ForeignKey(("boss",), "emp", ("id",)),  # REFERENCES emp: its primary key
        ForeignKey(("dept_id", "dept_code"), "dept", ("id", "code")),
    )
    # CHECK columns are bare, lower-case exp.Column nodes, whatever the spelling.
    assert checks(schema, "emp") == ["salary > 0", "boss <> id"]
    for check in emp.checks:
        for column in check.find_all(exp.Column):
            assert not column.table
            assert column.name == column.name.lower()
            assert not column.this.quoted
    assert_round_trips(schema)


def test_names_are_case_insensitive_even_when_quoted() -> None:
    schema = parse_ddl(
        'CREATE TABLE "MixedCase" ("Weird Col" INT, "ORDER" INT, CHECK ("ORDER" > 0))'
    )
    assert schema.table_names == ("mixedcase",)
    assert "MIXEDCASE" in schema
    assert schema.table("mixedcase").column_names == ("weird col", "order")
    # A reserved word stays quoted when the check is written back out.
    assert checks(schema, "mixedcase") == ['"order" > 0']
    assert_round_trips(schema)


def test_forward_and_self_references() -> None:
    schema = parse_ddl(
        """
        CREATE TABLE child (id INT PRIMARY KEY, parent_id INT REFERENCES parent, prev INT,
                            FOREIGN KEY (prev) REFERENCES child (id));
        CREATE TABLE parent (id INT PRIMARY KEY);
        """
    )
    assert schema.table("child").foreign_keys == (
        ForeignKey(("parent_id",), "parent", ("id",)),
        ForeignKey(("prev",), "child", ("id",)),
    )
    assert [t.name for t in schema.topological()] == ["parent", "child"]
    assert_round_trips(schema)


def test_foreign_key_follows_the_order_of_the_referenced_key() -> None:
    # PostgreSQL accepts the key's columns in any order, DuckDB only in the key's own.
    schema = parse_ddl(
        """
        CREATE TABLE p (a INT, b INT, PRIMARY KEY (a, b));
        CREATE TABLE c (x INT, y INT, FOREIGN KEY (y, x) REFERENCES p (b, a));
        """,
        "postgres",
    )
    assert schema.table("c").foreign_keys == (ForeignKey(("x", "y"), "p", ("a", "b")),)
    assert_round_trips(schema)


def test_duplicate_keys_and_foreign_keys_are_merged() -> None:
    schema = parse_ddl(
        """
        CREATE TABLE p (a INT, b INT, PRIMARY KEY (a, b), UNIQUE (b, a), UNIQUE (a), UNIQUE (a));
        CREATE TABLE c (a INT REFERENCES p (a), FOREIGN KEY (a) REFERENCES p (a));
        """
    )
    assert schema.table("p").unique == (("a",),)
    assert schema.table("c").foreign_keys == (ForeignKey(("a",), "p", ("a",)),)


# --- Dialects ---------------------------------------------------------------------------------

DIALECT_CASES = {
    "duckdb": (
        """
        CREATE TABLE users (id INTEGER PRIMARY KEY, email VARCHAR NOT NULL UNIQUE,
                            tags VARCHAR[], born DATE, score DOUBLE CHECK (score BETWEEN 0 AND 1));
        CREATE TABLE posts (id BIGINT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id),
                            body TEXT, created TIMESTAMP DEFAULT current_timestamp,
                            kind ENUM('a', 'b'));
        """,
        {
            "users": [
                ("id", "INT", False),
                ("email", "TEXT", False),
                ("tags", "TEXT[]", True),
                ("born", "DATE", True),
                ("score", "DOUBLE", True),
            ],
            "posts": [
                ("id", "BIGINT", False),
                ("user_id", "INT", False),
                ("body", "TEXT", True),
                ("created", "TIMESTAMP", True),
                ("kind", "ENUM('a', 'b')", True),
            ],
        },
    ),
    "postgres": (
        """
        CREATE SCHEMA shop;
        SET search_path = shop;
        CREATE TABLE IF NOT EXISTS shop.users (
          id SERIAL PRIMARY KEY,
          email VARCHAR(255) NOT NULL,
          created TIMESTAMPTZ NOT NULL DEFAULT now(),
          CONSTRAINT users_email_key UNIQUE (email)
        );
        CREATE TABLE public.posts (
          id BIGINT GENERATED ALWAYS AS IDENTITY,
          user_id INTEGER,
          body TEXT COLLATE "C",
          amount NUMERIC(12, 2) CHECK (amount > 0)
        );
        ALTER TABLE ONLY public.posts ADD CONSTRAINT posts_pkey PRIMARY KEY (id);
        ALTER TABLE ONLY public.posts
          ADD CONSTRAINT posts_user_fk FOREIGN KEY (user_id) REFERENCES shop.users(id)
          ON DELETE CASCADE DEFERRABLE;
        ALTER TABLE posts ALTER COLUMN user_id SET NOT NULL;
        CREATE INDEX posts_user_idx ON posts USING btree (user_id);
        COMMENT ON TABLE posts IS 'all posts';
        """,
        {
            "users": [
                ("id", "INT", False),  # SERIAL is an INT that is never NULL
                ("email", "TEXT(255)", False),
                ("created", "TIMESTAMPTZ", False),
            ],
            "posts": [
                ("id", "BIGINT", False),
                ("user_id", "INT", False),
                ("body", "TEXT", True),
                ("amount", "DECIMAL(12, 2)", True),
            ],
        },
    ),
    "mysql": (
        """
        SET FOREIGN_KEY_CHECKS = 0;
        CREATE TABLE `Users` (
          `id` INT(11) UNSIGNED NOT NULL AUTO_INCREMENT,
          `email` VARCHAR(255) NOT NULL COMMENT 'login',
          `active` TINYINT(1) NOT NULL DEFAULT '1',
          `level` MEDIUMINT,
          `balance` DECIMAL(10,2) UNSIGNED,
          `joined` DATETIME,
          PRIMARY KEY (`id`),
          UNIQUE KEY `uq_email` (`email`),
          KEY `ix_level` (`level`)
        ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
        CREATE TABLE `posts` (
          `id` BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
          `user_id` INT UNSIGNED NOT NULL,
          `status` ENUM('draft', 'live') NOT NULL,
          CONSTRAINT `fk_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE
        ) ENGINE=InnoDB;
        """,
        {
            "users": [
                ("id", "UINTEGER", False),  # display width dropped; UNSIGNED kept
                ("email", "TEXT(255)", False),
                ("active", "TINYINT", False),
                ("level", "INT", True),  # DuckDB has no MEDIUMINT
                ("balance", "DECIMAL(10, 2)", True),  # with CHECK (balance >= 0)
                ("joined", "TIMESTAMP", True),
            ],
            "posts": [
                ("id", "BIGINT", False),
                ("user_id", "UINTEGER", False),
                ("status", "ENUM('draft', 'live')", False),
            ],
        },
    ),
    "sqlite": (
        """
        PRAGMA foreign_keys = ON;
        BEGIN TRANSACTION;
        CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL UNIQUE,
                            score REAL);
        CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL,
                            body BLOB, FOREIGN KEY (user_id) REFERENCES users) WITHOUT ROWID;
        CREATE UNIQUE INDEX posts_body ON posts (user_id, body);
        COMMIT;
        """,
        # SQLite types are affinities: an INTEGER holds 64 bits, BLOB is "none" (generated
        # as text). See model.sqlite_column_type and test_schema_sqlite.py.
        {
            "users": [
                ("id", "BIGINT", False),
                ("email", "TEXT", False),
                ("score", "DOUBLE", True),
            ],
            "posts": [
                ("id", "BIGINT", False),
                ("user_id", "BIGINT", False),
                ("body", "TEXT", True),
            ],
        },
    ),
    "trino": (
        """
        CREATE TABLE users (id INTEGER NOT NULL, email VARCHAR COMMENT 'login',
                            tags ARRAY(VARCHAR), born DATE) WITH (format = 'ORC');
        CREATE TABLE posts (id BIGINT NOT NULL, user_id INTEGER, at TIMESTAMP(3),
                            meta ROW(k VARCHAR, v DOUBLE));
        """,
        {
            "users": [
                ("id", "INT", False),
                ("email", "TEXT", True),
                ("tags", "TEXT[]", True),
                ("born", "DATE", True),
            ],
            "posts": [
                ("id", "BIGINT", False),
                ("user_id", "INT", True),
                ("at", "TIMESTAMP(3)", True),
                ("meta", "STRUCT(k TEXT, v DOUBLE)", True),
            ],
        },
    ),
    "spark": (
        """
        CREATE TABLE users (id INT NOT NULL, email STRING, tags ARRAY<STRING>, born DATE)
          USING parquet PARTITIONED BY (born);
        CREATE TABLE posts (id BIGINT NOT NULL, user_id INT, amount DECIMAL(10,2),
                            attrs MAP<STRING, INT>) USING delta;
        """,
        {
            "users": [
                ("id", "INT", False),
                ("email", "TEXT", True),
                ("tags", "TEXT[]", True),
                ("born", "DATE", True),
            ],
            "posts": [
                ("id", "BIGINT", False),
                ("user_id", "INT", True),
                ("amount", "DECIMAL(10, 2)", True),
                ("attrs", "MAP(TEXT, INT)", True),
            ],
        },
    ),
}


@pytest.mark.parametrize("dialect", sorted(DIALECT_CASES))
def test_dialect(dialect: str, caplog: pytest.LogCaptureFixture) -> None:
    ddl, expected = DIALECT_CASES[dialect]
    with caplog.at_level(logging.WARNING):
        schema = parse_ddl(ddl, dialect)
    # sqlglot's "falling back to a Command" warning is ours to report, not to print.
    assert not [r for r in caplog.records if r.name == "sqlglot"]
    assert schema.table_names == tuple(expected)
    for table, cols in expected.items():
        assert columns(schema, table) == cols
    assert_round_trips(schema)


def test_dialect_keys() -> None:
    pg = parse_ddl(DIALECT_CASES["postgres"][0], "postgres")
    assert pg.table("users").unique == (("email",),)
    assert pg.table("posts").primary_key == ("id",)
    assert pg.table("posts").foreign_keys == (ForeignKey(("user_id",), "users", ("id",)),)
    assert checks(pg, "posts") == ["amount > 0"]

    my = parse_ddl(DIALECT_CASES["mysql"][0], "mysql")
    assert my.table("users").primary_key == ("id",)
    assert my.table("users").unique == (("email",),)  # KEY ix_level is only an index
    assert checks(my, "users") == ["balance >= 0"]  # from DECIMAL UNSIGNED
    assert my.table("posts").foreign_keys == (ForeignKey(("user_id",), "users", ("id",)),)

    lite = parse_ddl(DIALECT_CASES["sqlite"][0], "sqlite")
    assert lite.table("users").unique == (("email",),)
    assert lite.table("posts").unique == (("user_id", "body"),)  # the unique index
    assert lite.table("posts").foreign_keys == (ForeignKey(("user_id",), "users", ("id",)),)


# --- Statement policy -------------------------------------------------------------------------


def test_ignored_and_applied_statements() -> None:
    schema = parse_ddl(
        """
        -- a comment, then empty statements
        ;;
        CREATE SCHEMA s;
        CREATE SEQUENCE seq;
        CREATE TABLE old (a INT);
        DROP TABLE IF EXISTS old;
        CREATE TABLE t (a INT, b INT);
        CREATE TABLE IF NOT EXISTS t (zzz INT);
        CREATE OR REPLACE TABLE u (a INT);
        CREATE OR REPLACE TABLE u (x INT PRIMARY KEY);
        ALTER TABLE t ADD COLUMN c INT NOT NULL;
        ALTER TABLE t ADD PRIMARY KEY (a);
        ALTER TABLE t ADD CONSTRAINT ck CHECK (b < c);
        ALTER TABLE t ADD FOREIGN KEY (b) REFERENCES u;
        CREATE UNIQUE INDEX t_bc ON t (b, c);
        CREATE INDEX t_c ON t (c);
        USE main;
        """,
        "duckdb",
    )
    assert schema.table_names == ("t", "u")
    t = schema.table("t")
    assert t.column_names == ("a", "b", "c")
    assert t.primary_key == ("a",)
    assert t.unique == (("b", "c"),)
    assert t.foreign_keys == (ForeignKey(("b",), "u", ("x",)),)
    assert checks(schema, "t") == ["b < c"]
    assert schema.table("u").column_names == ("x",)


def test_drop_not_null() -> None:
    schema = parse_ddl(
        "CREATE TABLE t (a INT NOT NULL); ALTER TABLE t ALTER COLUMN a DROP NOT NULL", "postgres"
    )
    assert schema.table("t").column("a").nullable


# --- Errors -----------------------------------------------------------------------------------

ERROR_CASES = [
    # (ddl, dialect, kind, line, col)
    ("CREATE TABLE t (a INT);\nCREATE TABLE u (a INT b c)", "duckdb", "parse_error", 2, 23),
    ("CREATE TABLE t (a VARCHAR DEFAULT 'abc)", "duckdb", "parse_error", 1, 35),
    ("CREATE TABLE t (a INT)\nCREATE TABLE u (b INT)", "sqlite", "parse_error", 2, 1),
    ("CREATE TABLE t (a INT);\nINSERT INTO t VALUES (1)", "duckdb", "unsupported_statement", 2, 1),
    ("SELECT 1", "duckdb", "unsupported_statement", 1, 1),
    ("CREATE VIEW v AS SELECT 1", "duckdb", "unsupported_statement", 1, 1),
    ("CREATE TABLE t AS SELECT 1 AS a", "duckdb", "unsupported_statement", 1, 1),
    ("CREATE TABLE t (LIKE s)", "postgres", "unsupported_statement", 1, 1),
    ("CREATE EXTENSION postgis", "postgres", "unsupported_statement", 1, 1),
    (
        "CREATE TABLE t (a INT); ALTER TABLE t DROP COLUMN a",
        "postgres",
        "unsupported_statement",
        1,
        25,
    ),
    ("CREATE TABLE t (a INT, a INT)", "duckdb", "duplicate_column", 1, 24),
    ("CREATE TABLE t (a INT);\nCREATE TABLE T (b INT)", "duckdb", "duplicate_table", 2, 14),
    (
        "CREATE TABLE t (a INT PRIMARY KEY, PRIMARY KEY (a))",
        "duckdb",
        "duplicate_primary_key",
        1,
        49,
    ),
    ("CREATE TABLE t (a INT, PRIMARY KEY (a, a))", "duckdb", "duplicate_column", 1, 37),
    ("CREATE TABLE t (a INT, PRIMARY KEY (b))", "duckdb", "unknown_column", 1, 37),
    ("CREATE TABLE t (a INT, UNIQUE (a, zz))", "duckdb", "unknown_column", 1, 32),
    ("CREATE TABLE t (a INT CHECK (b > 0))", "duckdb", "unknown_column", 1, 30),
    ("CREATE TABLE t (a INT, CHECK (x.a > 0))", "duckdb", "unknown_column", 1, 31),
    ("CREATE TABLE t (a INT, FOREIGN KEY (b) REFERENCES t (a))", "duckdb", "unknown_column", 1, 37),
    ("CREATE TABLE t (a INT REFERENCES nowhere (id))", "duckdb", "unknown_reference", 1, 34),
    ("CREATE TABLE t (a INT REFERENCES t (nope))", "duckdb", "unknown_reference", 1, 34),
    (
        "CREATE TABLE p (x INT);\nCREATE TABLE t (a INT REFERENCES p)",
        "duckdb",
        "unknown_reference",
        2,
        34,
    ),
    (
        "CREATE TABLE p (x INT, y INT, PRIMARY KEY (x, y));\n"
        "CREATE TABLE t (a INT, FOREIGN KEY (a) REFERENCES p)",
        "duckdb",
        "foreign_key_mismatch",
        2,
        37,
    ),
    (
        "CREATE TABLE p (x INT, y INT, z INT, FOREIGN KEY (x) REFERENCES p (y, z))",
        "duckdb",
        "foreign_key_mismatch",
        1,
        51,
    ),
    (
        "CREATE TABLE p (x INT PRIMARY KEY, y INT);\nCREATE TABLE t (a INT REFERENCES p (y))",
        "duckdb",
        "foreign_key_not_key",
        2,
        34,
    ),
    ("CREATE TABLE t (a INT); CREATE UNIQUE INDEX i ON nope (a)", "duckdb", "unknown_table", 1, 50),
    ("CREATE TABLE t (a INT); ALTER TABLE nope ADD UNIQUE (a)", "duckdb", "unknown_table", 1, 37),
    ("CREATE TABLE t (a mood)", "postgres", "unknown_type", 1, 17),
    ("CREATE TABLE t (a NUMERIC(40, 2))", "postgres", "unsupported_type", 1, 17),
    ("CREATE TABLE t (a INET)", "postgres", "unsupported_type", 1, 17),
    # A column without a type is legal in SQLite (affinity "none"), so only other dialects
    # refuse it; test_schema_sqlite.py checks that SQLite accepts it.
    ("CREATE TABLE t (a)", "postgres", "missing_type", 1, 17),
    ("CREATE TABLE t (a)", "duckdb", "missing_type", 1, 17),
    ("CREATE TABLE t (a INT NOT NULL NULL)", "duckdb", "conflicting_constraints", 1, 17),
    (
        "CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a + 1))",
        "duckdb",
        "unsupported_constraint",
        1,
        51,
    ),
    ("CREATE TABLE t (a INT, b INT AS (a + 1) STORED)", "mysql", "unsupported_constraint", 1, 34),
    (
        "CREATE TABLE t (a INT, EXCLUDE USING gist (a WITH =))",
        "postgres",
        "unsupported_constraint",
        1,
        44,
    ),
    (
        "CREATE TABLE t (a TEXT UNIQUE NULLS NOT DISTINCT)",
        "postgres",
        "unsupported_constraint",
        1,
        17,
    ),
    ("CREATE TABLE t (a INT, CHECK (a IN (SELECT 1)))", "duckdb", "unsupported_constraint", 1, 31),
    (
        "CREATE TABLE t (a INT); CREATE UNIQUE INDEX i ON t (lower(a))",
        "duckdb",
        "unsupported_constraint",
        1,
        50,
    ),
    (
        "CREATE TABLE t (a INT); CREATE UNIQUE INDEX i ON t (a) WHERE a > 0",
        "postgres",
        "unsupported_constraint",
        1,
        50,
    ),
    (
        "CREATE TABLE t (a INT, b TEXT, UNIQUE (b COLLATE NOCASE))",
        "sqlite",
        "unsupported_constraint",
        1,
        40,
    ),
    # DuckDB text under NOCASE: sqlequiv compares DuckDB text byte by byte (COLLATE C is fine).
    ("CREATE TABLE t (a INT, b VARCHAR COLLATE NOCASE)", "duckdb", "unsupported_constraint", 1, 24),
    ("CREATE TABLE t ()", "duckdb", "empty_table", 1, 14),
    # DECIMAL parameters that are not whole numbers in range (found by fuzzing: int() raised)
    ("CREATE TABLE t (a DECIMAL(''))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL('x'))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL(1e3, 2))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL(" + "9" * 5000 + "))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL(x))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL(10, 'x'))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL(10, 20))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a DECIMAL(0))", "duckdb", "invalid_type", 1, 17),
    # types sqlglot reads but DuckDB refuses: refused at load, not when the first query runs
    ("CREATE TABLE t (a MAP(INT))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (a STRUCT(x INT, x INT))", "duckdb", "invalid_type", 1, 17),
    ("CREATE TABLE t (id INT, a TIMESTAMP(x))", "duckdb", "invalid_type", 1, 25),
    # a CHECK DuckDB cannot bind (it refuses the CREATE TABLE too)
    ("CREATE TABLE t (q INT CHECK (q > TIMESTAMP '2020-01-01'))", "duckdb", "invalid_check", 1, 30),
    ("CREATE TABLE t (q INT, CHECK (nosuchfn(q)))", "duckdb", "invalid_check", 1, 31),
    # sqlglot's parser would take exponential time on these (ON-less joins)
    (
        "CREATE TABLE t (a INT CHECK (a IN (SELECT 1 FROM u " + "JOIN u " * 40 + ")))",
        "duckdb",
        "too_complex",
        1,
        1,
    ),
    ("CREATE TABLE t AS SELECT 1 FROM u " + "JOIN u " * 40, "duckdb", "too_complex", 1, 1),
    ("-- only a comment", "duckdb", "empty_schema", None, None),
    ("", "duckdb", "empty_schema", None, None),
    ("CREATE TABLE t (a INT)", "no-such-dialect", "unknown_dialect", None, None),
]


@pytest.mark.parametrize(("ddl", "dialect", "kind", "line", "col"), ERROR_CASES)
def test_ddl_errors(ddl: str, dialect: str, kind: str, line: int | None, col: int | None) -> None:
    with pytest.raises(SchemaError) as info:
        parse_ddl(ddl, dialect)
    err = info.value
    assert (err.kind, err.line, err.col) == (kind, line, col), str(err)
    assert err.side == "schema"
    assert err.message


def test_error_messages_name_the_culprit() -> None:
    with pytest.raises(SchemaError, match=r"foreign key t\(a\) references unknown table 'nowhere'"):
        parse_ddl("CREATE TABLE t (a INT REFERENCES nowhere (id))")
    with pytest.raises(SchemaError, match="column 'a' of table 't' is declared twice"):
        parse_ddl("CREATE TABLE t (a INT, A TEXT)")
    with pytest.raises(SchemaError, match=r"CHECK \(q > CAST\('2020-01-01' AS TIMESTAMP\)\)"):
        parse_ddl("CREATE TABLE t (q INT CHECK (q > TIMESTAMP '2020-01-01'))")
    with pytest.raises(SchemaError, match="DuckDB does not accept the type 'MAP\\(INT\\)'"):
        parse_ddl("CREATE TABLE t (a MAP(INT))")
    with pytest.raises(SchemaError) as info:
        parse_ddl("CREATE TABLE t (a DECIMAL(" + "9" * 5000 + "))")
    assert len(info.value.message) < 200  # the type is shortened, not quoted whole


def test_types_and_checks_duckdb_accepts_still_load() -> None:
    # DuckDB accepts this table; a bad string only fails the CHECK of its own row.
    schema = parse_ddl("CREATE TABLE t (s VARCHAR CHECK (CAST(s AS INT) > 0))")
    assert [c.sql("duckdb") for c in schema.table("t").checks] == ["CAST(s AS INT) > 0"]
    schema = parse_ddl("CREATE TABLE t (a DECIMAL(38, 38), b NUMERIC(5), c DECIMAL(007, 2))")
    assert columns(schema, "t") == [
        ("a", "DECIMAL(38, 38)", True),
        ("b", "DECIMAL(5)", True),
        ("c", "DECIMAL(007, 2)", True),
    ]


# --- Types DuckDB lacks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ddl", "dialect", "type_sql", "nullable", "check"),
    [
        ("CREATE TABLE t (a SERIAL)", "postgres", "INT", False, None),
        ("CREATE TABLE t (a BIGSERIAL)", "postgres", "BIGINT", False, None),
        ("CREATE TABLE t (a SMALLSERIAL)", "postgres", "SMALLINT", False, None),
        ("CREATE TABLE t (a INT(11))", "mysql", "INT", True, None),
        ("CREATE TABLE t (a TINYINT(1) UNSIGNED)", "mysql", "UTINYINT", True, None),
        ("CREATE TABLE t (a MEDIUMINT)", "mysql", "INT", True, None),
        ("CREATE TABLE t (a MEDIUMINT UNSIGNED)", "mysql", "UINTEGER", True, None),
        ("CREATE TABLE t (a YEAR)", "mysql", "SMALLINT", True, None),
        ("CREATE TABLE t (a SET('x', 'y'))", "mysql", "TEXT", True, None),
        ("CREATE TABLE t (a DECIMAL(8, 3) UNSIGNED)", "mysql", "DECIMAL(8, 3)", True, "a >= 0"),
        ("CREATE TABLE t (a DOUBLE UNSIGNED)", "mysql", "DOUBLE", True, "a >= 0"),
        ("CREATE TABLE t (a TIME(3))", "mysql", "TIME", True, None),
        ("CREATE TABLE t (a MEDIUMINT[])", "duckdb", "INT[]", True, None),
    ],
)
def test_types_are_made_duckdb_compatible(
    ddl: str, dialect: str, type_sql: str, nullable: bool, check: str | None
) -> None:
    schema = parse_ddl(ddl, dialect)
    assert columns(schema, "t") == [("a", type_sql, nullable)]
    assert checks(schema, "t") == ([check] if check else [])
    assert_round_trips(schema)


# --- The mapping format -----------------------------------------------------------------------

SHOP_MAPPING: dict[str, object] = {
    "tables": {
        "customers": {
            "columns": {
                "customer_id": {"type": "INTEGER", "nullable": False},
                "name": "VARCHAR",
                "plan": {"type": "VARCHAR", "check": "plan IN ('free', 'pro', 'enterprise')"},
            },
            "primary_key": ["customer_id"],
            "unique": [["name"]],
            "checks": ["customer_id > 0"],
        },
        "orders": {
            "columns": {
                "order_id": {"type": "INTEGER"},
                "customer_id": {"type": "INTEGER", "references": "customers.customer_id"},
                "amount": "DECIMAL(10, 2)",
            },
            "primary_key": "order_id",
            "unique": ["amount", ["customer_id", "amount"]],
            "foreign_keys": [
                {
                    "columns": ["customer_id"],
                    "references": {"table": "customers", "columns": ["customer_id"]},
                },
                {"columns": "customer_id", "references": {"table": "customers"}},
            ],
        },
    }
}

SHOP_YAML = """\
# The example of docs/schema-format.md.
tables:
  customers:
    columns:
      customer_id: {type: INTEGER, nullable: false}
      name: VARCHAR
      plan: {type: VARCHAR, check: "plan IN ('free', 'pro', 'enterprise')"}
    primary_key: [customer_id]
    unique: [[name]]
    checks: ["customer_id > 0"]
  orders:
    columns:
      order_id: {type: INTEGER}
      customer_id: {type: INTEGER, references: customers.customer_id}
      amount: DECIMAL(10, 2)
    primary_key: order_id
    unique: [amount, [customer_id, amount]]
    foreign_keys:
      - {columns: [customer_id], references: {table: customers, columns: [customer_id]}}
      - {columns: customer_id, references: {table: customers}}
"""

SHOP_EQUIVALENT_DDL = """
CREATE TABLE customers (
  customer_id INTEGER NOT NULL PRIMARY KEY,
  name VARCHAR UNIQUE,
  plan VARCHAR CHECK (plan IN ('free', 'pro', 'enterprise')),
  CHECK (customer_id > 0)
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER REFERENCES customers (customer_id),
  amount DECIMAL(10, 2) UNIQUE,
  UNIQUE (customer_id, amount)
);
"""


def test_mapping_matches_the_same_schema_in_ddl() -> None:
    schema = parse_mapping(SHOP_MAPPING)
    ddl = parse_ddl(SHOP_EQUIVALENT_DDL)
    assert schema == ddl
    assert canonical(schema) == canonical(ddl)
    orders = schema.table("orders")
    assert orders.unique == (("amount",), ("customer_id", "amount"))
    assert orders.foreign_keys == (ForeignKey(("customer_id",), "customers", ("customer_id",)),)
    assert checks(schema, "customers") == [
        "plan IN ('free', 'pro', 'enterprise')",
        "customer_id > 0",
    ]
    assert_round_trips(schema)


def test_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "shop.yaml"
    path.write_text(SHOP_YAML, encoding="utf-8")
    assert load_schema(path) == parse_mapping(SHOP_MAPPING)
    assert canonical(load_schema(str(path))) == canonical(parse_mapping(SHOP_MAPPING))


def test_json_file(tmp_path: Path) -> None:
    path = tmp_path / "shop.json"
    path.write_text(json.dumps(SHOP_MAPPING), encoding="utf-8")
    assert canonical(load_schema(path)) == canonical(parse_mapping(SHOP_MAPPING))


def test_docs_example_loads() -> None:
    docs = Path(__file__).resolve().parents[1] / "docs" / "schema-format.md"
    text = docs.read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert canonical(load_schema_from_yaml(example)) == canonical(parse_mapping(SHOP_MAPPING))


def load_schema_from_yaml(text: str) -> Schema:
    import yaml

    return parse_mapping(yaml.safe_load(text))


def table(**spec: object) -> dict[str, object]:
    return {"tables": {"t": {"columns": {"a": "INT", "b": "INT"}, **spec}}}


MAPPING_ERRORS: list[tuple[object, str, str]] = [
    # (data, kind, text the message contains)
    ([], "invalid_mapping", "schema: expected a mapping, got list"),
    (
        {"tables": {"t": {"columns": {"a": "DECIMAL(10, 'x')"}}}},
        "invalid_type",
        "DECIMAL takes a precision",
    ),
    ({"tables": {"t": {"columns": {"a": "MAP(INT)"}}}}, "invalid_type", "does not accept"),
    (table(checks=["a > TIMESTAMP '2020-01-01'"]), "invalid_check", "cannot be evaluated"),
    (
        table(checks=["a IN (SELECT 1 FROM u " + "JOIN u " * 40 + ")"]),
        "too_complex",
        "tables.t.checks[0]: the condition has 39 JOINs without ON",
    ),
    ({}, "invalid_mapping", "schema: missing key 'tables'"),
    ({"tables": {}, "extra": 1}, "unknown_key", "unknown key 'extra'"),
    ({"tables": {}}, "empty_schema", "no tables"),
    ({"tables": []}, "invalid_mapping", "tables: expected a mapping"),
    ({"tables": {"t": {}}}, "invalid_mapping", "tables.t: missing key 'columns'"),
    ({"tables": {"t": {"columns": {}}}}, "empty_table", "table 't' has no columns"),
    (
        {"tables": {"t": {"columns": {"a": "INT"}, "primary": ["a"]}}},
        "unknown_key",
        "unknown key 'primary' of table 't'",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"type": "INT", "nulable": False}}}}},
        "unknown_key",
        "tables.t.columns.a: unknown key 'nulable' of table 't'",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"nullable": False}}}}},
        "invalid_mapping",
        "tables.t.columns.a: missing key 'type'",
    ),
    (
        {"tables": {"t": {"columns": {"a": 5}}}},
        "invalid_mapping",
        "tables.t.columns.a: expected a type name",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"type": 5}}}}},
        "invalid_mapping",
        "tables.t.columns.a.type: expected a type name",
    ),
    (
        {"tables": {"t": {"columns": {"a": "NOTATYPE"}}}},
        "unknown_type",
        "tables.t.columns.a.type: 'NOTATYPE' is not a DuckDB type",
    ),
    ({"tables": {"t": {"columns": {"a": "INT NOT NULL"}}}}, "unknown_type", "nullable: false"),
    ({"tables": {"t": {"columns": {"a": "INET"}}}}, "unsupported_type", "tables.t.columns.a.type"),
    (
        {"tables": {"t": {"columns": {"a": {"type": "INT", "nullable": "no"}}}}},
        "invalid_mapping",
        "tables.t.columns.a.nullable: expected true or false",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"type": "INT", "check": "a >"}}}}},
        "parse_error",
        "tables.t.columns.a.check",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"type": "INT", "check": "b > 0"}}}}},
        "unknown_column",
        "tables.t.columns.a.check: CHECK names unknown column 'b'",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"type": "INT", "references": "x.y.z"}}}}},
        "invalid_mapping",
        "tables.t.columns.a.references: expected 'table' or 'table.column'",
    ),
    (
        {"tables": {"t": {"columns": {"a": {"type": "INT", "references": "u.id"}}}}},
        "unknown_reference",
        "tables.t.columns.a.references: foreign key t(a) references unknown table 'u'",
    ),
    ({"tables": {"t": {"columns": {True: "INT"}}}}, "invalid_mapping", "quote names such as 'on'"),
    (
        {"tables": {"t": {"columns": {"": "INT"}}}},
        "invalid_mapping",
        "tables.t.columns: expected a name",
    ),
    (
        {"tables": {"t": {"columns": {"a": "INT", "A": "INT"}}}},
        "duplicate_column",
        "column 'a' of table 't' is declared twice",
    ),
    (
        {"tables": {"t": {"columns": {"a": "INT"}}, "T": {"columns": {"a": "INT"}}}},
        "duplicate_table",
        "tables.t: table 't' is declared twice",
    ),
    (
        table(primary_key=[]),
        "invalid_mapping",
        "tables.t.primary_key: expected at least one column name",
    ),
    (
        table(primary_key=["c"]),
        "unknown_column",
        "tables.t.primary_key: PRIMARY KEY names unknown column 'c'",
    ),
    (table(primary_key=5), "invalid_mapping", "tables.t.primary_key: expected a list"),
    (table(unique="a"), "invalid_mapping", "tables.t.unique: expected a list"),
    (
        table(unique=[["a", "zz"]]),
        "unknown_column",
        "tables.t.unique[0]: UNIQUE names unknown column 'zz'",
    ),
    (table(unique=[["a", 3]]), "invalid_mapping", "tables.t.unique[0][1]: expected a name"),
    (table(checks="a > 0"), "invalid_mapping", "tables.t.checks: expected a list"),
    (table(checks=["a > 0", "a >"]), "parse_error", "tables.t.checks[1]"),
    (table(checks=["a > (SELECT 1)"]), "unsupported_constraint", "tables.t.checks[0]"),
    (
        table(foreign_keys={"columns": "a"}),
        "invalid_mapping",
        "tables.t.foreign_keys: expected a list",
    ),
    (
        table(foreign_keys=[{"columns": "a"}]),
        "invalid_mapping",
        "tables.t.foreign_keys[0]: missing key 'references'",
    ),
    (
        table(foreign_keys=[{"columns": "a", "references": {"tab": "t"}}]),
        "unknown_key",
        "tables.t.foreign_keys[0].references: unknown key 'tab'",
    ),
    (
        table(foreign_keys=[{"columns": "a", "references": "t"}]),
        "unknown_reference",
        "tables.t.foreign_keys[0]: foreign key t(a) references table 't' without naming columns",
    ),
    (
        table(foreign_keys=[{"columns": ["a", "b"], "references": "t.a"}]),
        "foreign_key_mismatch",
        "tables.t.foreign_keys[0]: foreign key t(a, b) has 2 column(s)",
    ),
    (
        table(foreign_keys=[{"columns": "a", "references": {"table": "t", "columns": ["q"]}}]),
        "unknown_reference",
        "references unknown column 'q' of table 't'",
    ),
]


@pytest.mark.parametrize(("data", "kind", "fragment"), MAPPING_ERRORS)
def test_mapping_errors(data: object, kind: str, fragment: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_mapping(data)
    assert info.value.kind == kind, str(info.value)
    assert fragment in info.value.message, str(info.value)


# --- DuckDB catalogs --------------------------------------------------------------------------

CATALOG_DDL = """
CREATE TYPE mood AS ENUM ('happy', 'sad');
CREATE TABLE dept (
  id INTEGER PRIMARY KEY,
  code VARCHAR NOT NULL UNIQUE,
  budget DECIMAL(12, 2) CHECK (budget >= 0)
);
CREATE TABLE "Emp" (
  id INTEGER,
  dept_id INTEGER NOT NULL REFERENCES dept (id),
  dept_code VARCHAR,
  feeling mood,
  salary INTEGER CHECK (salary BETWEEN 1 AND 1000000),
  PRIMARY KEY (id),
  UNIQUE (dept_id, salary),
  FOREIGN KEY (dept_code) REFERENCES dept (code),
  CHECK (salary > 0 OR dept_code IS NULL)
);
CREATE UNIQUE INDEX emp_code ON "Emp" (dept_code, feeling);
CREATE VIEW rich AS SELECT * FROM "Emp" WHERE salary > 100;
"""


def make_database(path: Path, ddl: str = CATALOG_DDL) -> Path:
    connection = duckdb.connect(str(path))
    try:
        connection.execute(ddl)
    finally:
        connection.close()
    return path


def test_duckdb_catalog_round_trip(tmp_path: Path) -> None:
    path = make_database(tmp_path / "company.duckdb")
    schema = read_duckdb_catalog(path)
    assert schema.table_names == ("dept", "emp")  # the view is not a table
    emp = schema.table("emp")
    assert columns(schema, "emp") == [
        ("id", "INT", False),
        ("dept_id", "INT", False),
        ("dept_code", "TEXT", True),
        ("feeling", "ENUM('happy', 'sad')", True),  # DuckDB spells the user type out
        ("salary", "INT", True),
    ]
    assert emp.primary_key == ("id",)
    assert emp.unique == (("dept_id", "salary"), ("dept_code", "feeling"))
    assert emp.foreign_keys == (
        ForeignKey(("dept_id",), "dept", ("id",)),
        ForeignKey(("dept_code",), "dept", ("code",)),
    )
    # DuckDB stores the conditions with parentheses of its own.
    assert checks(schema, "emp") == [
        "salary BETWEEN 1 AND 1000000",
        "(salary > 0) OR (dept_code IS NULL)",
    ]
    assert schema.table("dept").unique == (("code",),)
    assert checks(schema, "dept") == ["budget >= 0"]
    # The same schema as the script that made the database says.
    script = CATALOG_DDL.replace("CREATE TYPE mood AS ENUM ('happy', 'sad');", "").replace(
        "feeling mood", "feeling ENUM('happy', 'sad')"
    )
    script = script.split("CREATE VIEW")[0]
    assert canonical(schema) == canonical(parse_ddl(script))
    assert_round_trips(schema)
    # And a database made from the loaded schema reads back the same.
    again = read_duckdb_catalog(make_database(tmp_path / "again.duckdb", schema.ddl()))
    assert again == schema
    assert canonical(again) == canonical(schema)


def test_duckdb_file_is_found_by_suffix_or_magic(tmp_path: Path) -> None:
    make_database(tmp_path / "a.db", "CREATE TABLE t (a INT PRIMARY KEY)")
    make_database(tmp_path / "b.bin", "CREATE TABLE t (a INT PRIMARY KEY)")
    expected = parse_ddl("CREATE TABLE t (a INT PRIMARY KEY)")
    assert load_schema(tmp_path / "a.db") == expected
    assert load_schema(str(tmp_path / "b.bin")) == expected
    # The file is opened read-only and closed: a writer can open it afterwards.
    duckdb.connect(str(tmp_path / "a.db")).close()


def test_duckdb_catalog_errors(tmp_path: Path) -> None:
    not_db = tmp_path / "notes.db"
    not_db.write_text("just some text, long enough to have a header" * 4)
    with pytest.raises(SchemaError) as info:
        load_schema(not_db)
    assert info.value.kind == "unreadable_database"
    assert "notes.db" in info.value.message

    # SQLite's magic bytes send a file to the SQLite reader (test_schema_sqlite.py), which
    # refuses a corrupt one.
    sqlite = tmp_path / "data.db"
    sqlite.write_bytes(b"SQLite format 3\x00" + bytes(100))
    with pytest.raises(SchemaError, match="cannot read as a SQLite database") as info:
        load_schema(sqlite)
    assert info.value.kind == "unreadable_database"

    with pytest.raises(SchemaError) as info:
        read_duckdb_catalog(tmp_path / "missing.duckdb")
    assert info.value.kind == "file_not_found"

    with pytest.raises(SchemaError) as info:
        read_duckdb_catalog(tmp_path)
    assert info.value.kind == "unreadable_database"

    empty = make_database(tmp_path / "empty.duckdb", "CREATE VIEW v AS SELECT 1 AS x")
    with pytest.raises(SchemaError) as info:
        read_duckdb_catalog(empty)
    assert info.value.kind == "empty_schema"


# --- load_schema ------------------------------------------------------------------------------


def test_load_schema_sources(tmp_path: Path) -> None:
    ddl = "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR)"
    expected = parse_ddl(ddl)
    assert load_schema(expected) is expected
    assert load_schema(ddl) == expected
    assert load_schema("create\ntable t (a int primary key, b varchar)") == expected
    mapping: Mapping[str, object] = {
        "tables": {"t": {"columns": {"a": "INT", "b": "VARCHAR"}, "primary_key": "a"}}
    }
    assert load_schema(mapping) == expected
    sql = tmp_path / "schema.sql"
    sql.write_text(ddl, encoding="utf-8")
    assert load_schema(sql) == expected
    assert load_schema(str(sql)) == expected
    # The dialect applies to DDL text and files.
    mysql = tmp_path / "mysql.txt"
    mysql.write_text("CREATE TABLE `t` (`a` INT(11) PRIMARY KEY, b VARCHAR(3))", encoding="utf-8")
    assert columns(load_schema(mysql, "mysql"), "t") == [
        ("a", "INT", False),
        ("b", "TEXT(3)", True),
    ]


def test_load_schema_errors(tmp_path: Path) -> None:
    def kind_of(source: object, **kwargs: str) -> SchemaError:
        with pytest.raises(SchemaError) as info:
            load_schema(source, **kwargs)  # type: ignore[arg-type]
        return info.value

    err = kind_of(str(tmp_path / "missing.sql"))
    assert err.kind == "file_not_found"
    assert kind_of(tmp_path / "missing.yaml").kind == "file_not_found"
    assert kind_of("SELECT 1").kind == "file_not_found"  # not a path, and not DDL
    assert kind_of(tmp_path).kind == "unreadable_file"
    assert kind_of("").kind == "empty_schema"  # not "unreadable_file: . is not a file"
    assert kind_of(" \n").kind == "empty_schema"
    assert kind_of(42).kind == "invalid_source"

    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"tables": {\n  "t": {"columns": {"a": "INT",}}}}', encoding="utf-8")
    err = kind_of(bad_json)
    assert (err.kind, err.line, err.col) == ("parse_error", 2, 32)
    assert "bad.json" in err.message

    twice_json = tmp_path / "twice.json"
    twice_json.write_text('{"tables": {"t": {"columns": {"a": "INT"}}, "t": {}}}', encoding="utf-8")
    assert "duplicate key 't'" in kind_of(twice_json).message

    bad_yaml = tmp_path / "bad.yml"
    bad_yaml.write_text("tables:\n  t:\n    columns: {a: INT\n", encoding="utf-8")
    err = kind_of(bad_yaml)
    assert (err.kind, err.line) == ("parse_error", 4)

    twice_yaml = tmp_path / "twice.yaml"
    twice_yaml.write_text(
        "tables:\n  t: {columns: {a: INT}}\n  t: {columns: {b: INT}}\n", encoding="utf-8"
    )
    err = kind_of(twice_yaml)
    assert (err.kind, err.line, err.col) == ("parse_error", 3, 3)
    assert "duplicate key 't'" in err.message

    wrong_shape = tmp_path / "list.yaml"
    wrong_shape.write_text("- a\n- b\n", encoding="utf-8")
    assert kind_of(wrong_shape).kind == "invalid_mapping"

    latin1 = tmp_path / "latin1.sql"
    latin1.write_bytes("CREATE TABLE t (a INT);\n-- café\n".encode("latin-1"))
    err = kind_of(latin1)
    assert (err.kind, err.line, err.col) == ("encoding_error", 2, 7)

    bad_sql = tmp_path / "bad.sql"
    bad_sql.write_text("CREATE TABLE t (a INT);\nCREATE TABLE u (a INT b c);\n", encoding="utf-8")
    err = kind_of(bad_sql)
    assert (err.kind, err.line, err.col) == ("parse_error", 2, 23)
    assert "bad.sql" in err.message

    assert kind_of("CREATE TABLE t (a INT)", dialect="nope").kind == "unknown_dialect"


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.sql"
    path.write_bytes("\ufeffCREATE TABLE t (a INT)".encode())
    assert load_schema(path).table_names == ("t",)


# --- The benchmark schemas --------------------------------------------------------------------


def benchmark_schemas() -> list[tuple[str, str]]:
    found: dict[tuple[str, str], None] = {}
    for path in sorted(BENCHMARKS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("schema_ddl"):
                found[(record["schema_ddl"], record.get("dialect") or "duckdb")] = None
    return list(found)


@pytest.mark.skipif(
    not BENCHMARKS.is_dir(), reason=f"benchmark directory {BENCHMARKS} is not checked out here"
)
def test_every_benchmark_schema_loads() -> None:
    schemas = benchmark_schemas()
    assert schemas, f"no schema_ddl found under {BENCHMARKS}"
    for ddl, dialect in schemas:
        schema = parse_ddl(ddl, dialect)
        assert schema.tables
        assert_round_trips(schema)
