"""SQLite schemas: declared types and affinities, SQLite database files, Spider/BIRD
tables.json, and the sqlite dialect of the DDL loader."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from sqlglot import exp

from sqlequiv.cli import main
from sqlequiv.errors import SchemaError
from sqlequiv.schema import (
    Column,
    ForeignKey,
    Schema,
    load_schema,
    parse_ddl,
    read_sqlite_catalog,
    read_sqlite_rows,
    read_tables_json,
    sqlite_affinity,
)
from sqlequiv.schema.model import sqlite_column_type


def make_sqlite(path: Path, script: str) -> Path:
    with closing(sqlite3.connect(path)) as con:
        con.executescript(script)
        con.commit()
    return path


def described(schema: Schema, table: str) -> list[tuple[str, str | None, str, str, bool]]:
    return [
        (c.name, c.declared, c.type_sql, c.affinity, c.nullable)
        for c in schema.table(table).columns
    ]


def checks(schema: Schema, table: str) -> list[str]:
    return [c.sql("duckdb") for c in schema.table(table).checks]


# --- Affinity ---------------------------------------------------------------------------------

# The examples of section 3.1.1 of https://www.sqlite.org/datatype3.html, and a few more.
AFFINITIES = {
    "INTEGER": [
        "INT", "INTEGER", "TINYINT", "SMALLINT", "MEDIUMINT", "BIGINT", "UNSIGNED BIG INT",
        "INT2", "INT8", "int(11)", "FLOATING POINT", "point",
    ],
    "TEXT": [
        "CHARACTER(20)", "VARCHAR(255)", "VARYING CHARACTER(255)", "NCHAR(55)",
        "NATIVE CHARACTER(70)", "NVARCHAR(100)", "TEXT", "CLOB", "varchar2(10)",
    ],
    "BLOB": ["BLOB", ""],
    "REAL": ["REAL", "DOUBLE", "DOUBLE PRECISION", "FLOAT"],
    "NUMERIC": [
        "NUMERIC", "DECIMAL(10,5)", "BOOLEAN", "DATE", "DATETIME", "number", "STRING", "year",
        "my type",
    ],
}  # fmt: skip
DECLARED = [(t, affinity) for affinity, types in AFFINITIES.items() for t in types]
# What SQLite stores the text '5' as, by affinity.
STORED_AS = {"INTEGER": "integer", "NUMERIC": "integer", "REAL": "real", "TEXT": "text"}


@pytest.mark.parametrize(("declared", "affinity"), DECLARED)
def test_affinity_follows_sqlite(declared: str, affinity: str) -> None:
    assert sqlite_affinity(declared) == affinity
    assert sqlite_column_type(declared).sql("duckdb")  # always a type DuckDB can spell
    # SQLite itself agrees: it converts the text '5' as the affinity says.
    with closing(sqlite3.connect(":memory:")) as con:
        con.execute(f"CREATE TABLE t (a {declared})")
        con.execute("INSERT INTO t VALUES ('5')")
        (stored,) = con.execute("SELECT typeof(a) FROM t").fetchone()
    assert stored == STORED_AS.get(affinity, "text")


@pytest.mark.parametrize(
    ("declared", "type_sql"),
    [
        ("int(11)", "BIGINT"),
        ("TINYINT", "BIGINT"),  # SQLite integers are 64-bit whatever the width
        ("real", "DOUBLE"),
        ("varchar(20)", "TEXT"),
        ("", "TEXT"),
        ("blob", "TEXT"),
        ("number", "DOUBLE"),
        ("NUMERIC", "DOUBLE"),  # not DECIMAL(18, 3), which would round
        ("decimal(10,2)", "DECIMAL(10, 2)"),
        ("NUMERIC(5)", "DECIMAL(5, 0)"),
        ("decimal(65,30)", "DOUBLE"),  # more digits than DuckDB holds
        ("date", "DATE"),
        ("DATETIME", "TIMESTAMP"),
        ("timestamp", "TIMESTAMP"),
        ("datetime(6)", "TIMESTAMP"),
        ("time", "TIME"),
        ("boolean", "BOOLEAN"),
        ("bool", "BOOLEAN"),
        ("year", "DOUBLE"),
    ],
)
def test_duckdb_type_of_declared_type(declared: str, type_sql: str) -> None:
    assert sqlite_column_type(declared).sql("duckdb") == type_sql


def test_affinity_without_declared_type_comes_from_the_type() -> None:
    def affinity(type_: str) -> str:
        return Column("a", exp.DataType.build(type_)).affinity

    assert [affinity(t) for t in ("BIGINT", "DOUBLE", "VARCHAR", "BLOB", "DATE")] == [
        "INTEGER",
        "REAL",
        "TEXT",
        "BLOB",
        "NUMERIC",
    ]
    # The declared text wins over the type.
    assert Column("a", exp.DataType.build("TEXT"), declared="int").affinity == "INTEGER"
    # Existing positional constructors keep working; declared is part of equality.
    assert Column("a", exp.DataType.build("INT"), False) == Column(
        "a", exp.DataType.build("INT"), nullable=False, declared=None
    )
    assert Column("a", exp.DataType.build("INT")) != Column(
        "a", exp.DataType.build("INT"), declared="INT"
    )


# --- SQLite database files --------------------------------------------------------------------

SPIDER_DB = '''
CREATE TABLE "Stadium" (
  "Stadium_ID" int,
  "Location" text,
  "Name" varchar(255) NOT NULL,
  "Capacity" number,
  "Average" real,
  "Opened" datetime,
  "Has Roof" bool,
  notes,
  PRIMARY KEY ("Stadium_ID"),
  UNIQUE ("Name")
);
CREATE TABLE "singer" (
  "Singer_ID" INTEGER PRIMARY KEY,
  "Name" text,
  "Country" varchar(20) CHECK ("Country" <> ''),
  "Gender" text CHECK ("Gender" IN ("M", "F")),
  "Age" int(11),
  CHECK ("Age" >= 0 AND "Age" < 150)
);
CREATE TABLE "concert" (
  "concert_ID" int(11),
  "concert_Name" text,
  "Stadium_ID" text,
  "Year" text,
  "Promoter" int,
  PRIMARY KEY ("concert_ID"),
  FOREIGN KEY ("Stadium_ID") REFERENCES "Stadium"("Stadium_ID"),
  FOREIGN KEY ("Promoter") REFERENCES promoters("id")
);
CREATE TABLE "singer_in_concert" (
  "concert_ID" int,
  "Singer_ID" text,
  PRIMARY KEY ("concert_ID", "Singer_ID"),
  FOREIGN KEY ("concert_ID") REFERENCES "concert"("concert_ID"),
  FOREIGN KEY ("Singer_ID") REFERENCES "singer"("Singer_ID")
);
CREATE TABLE "Ticket Sales" (
  "sale id" INTEGER PRIMARY KEY,
  "concert_ID" int REFERENCES concert,
  "Stadium" int REFERENCES "Stadium"("Location"),
  "Seat" text REFERENCES "singer_in_concert"("Singer_ID"),
  "Price" decimal(10,2)
);
CREATE UNIQUE INDEX "ticket seat" ON "Ticket Sales" ("concert_ID", "Seat");
CREATE INDEX ticket_price ON "Ticket Sales" ("Price");
CREATE TABLE "say ""hi""" (x, "Y" INT NOT NULL);
CREATE VIEW "old singers" AS SELECT * FROM singer WHERE "Age" > 60;
CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, message text);

INSERT INTO "Stadium" VALUES (3, 'Here', 'Big', 10000, 5.5, '2001-02-03', 1, NULL);
INSERT INTO "Stadium" VALUES (1, 'There', 'Small', 200.5, NULL, NULL, 0, x'00ff');
INSERT INTO "Stadium" VALUES (2, 'Nowhere', 'Tiny', '12', 1, '2020-01-01 10:00:00', 1, 'x');
INSERT INTO singer VALUES (7, 'Ann', 'NL', 'F', 31), (2, 'Bob', 'US', 'M', 40);
INSERT INTO "say ""hi""" VALUES ('a', 1), ('b', 2), ('c', 3);
INSERT INTO log (message) VALUES ('one'), ('two');
'''


@pytest.fixture
def spider_db(tmp_path: Path) -> Path:
    return make_sqlite(tmp_path / "concert_singer.sqlite", SPIDER_DB)


def test_sqlite_file_tables_and_types(spider_db: Path) -> None:
    schema = read_sqlite_catalog(spider_db)
    # Creation order; sqlite_sequence (AUTOINCREMENT's bookkeeping) and the view are left out.
    assert schema.table_names == (
        "stadium",
        "singer",
        "concert",
        "singer_in_concert",
        "ticket sales",
        'say "hi"',
        "log",
    )
    assert described(schema, "stadium") == [
        # SQLite upper-cases the names STRICT tables know (INT, TEXT, ...), so we do too.
        ("stadium_id", "INT", "BIGINT", "INTEGER", False),  # primary key: NOT NULL
        ("location", "TEXT", "TEXT", "TEXT", True),
        ("name", "varchar(255)", "TEXT", "TEXT", False),
        ("capacity", "number", "DOUBLE", "NUMERIC", True),
        ("average", "REAL", "DOUBLE", "REAL", True),
        ("opened", "datetime", "TIMESTAMP", "NUMERIC", True),
        ("has roof", "bool", "BOOLEAN", "NUMERIC", True),
        ("notes", "", "TEXT", "BLOB", True),
    ]
    assert described(schema, 'say "hi"') == [
        ("x", "", "TEXT", "BLOB", True),
        ("y", "INT", "BIGINT", "INTEGER", False),
    ]
    assert schema.table("ticket sales").column("price").type_sql == "DECIMAL(10, 2)"


def test_sqlite_file_keys(spider_db: Path) -> None:
    schema = read_sqlite_catalog(spider_db)
    stadium, concert = schema.table("stadium"), schema.table("concert")
    assert stadium.primary_key == ("stadium_id",)
    assert stadium.unique == (("name",),)
    assert schema.table("singer").primary_key == ("singer_id",)
    assert schema.table("singer_in_concert").primary_key == ("concert_id", "singer_id")
    assert schema.table("log").primary_key == ("id",)
    # The promoters table does not exist: that foreign key is dropped, the other is kept.
    assert concert.foreign_keys == (ForeignKey(("stadium_id",), "stadium", ("stadium_id",)),)
    assert schema.table("singer_in_concert").foreign_keys == (
        ForeignKey(("concert_id",), "concert", ("concert_id",)),
        ForeignKey(("singer_id",), "singer", ("singer_id",)),
    )
    tickets = schema.table("ticket sales")
    # The unique index is a key; the plain index is not. REFERENCES concert means its
    # primary key; Stadium(Location) is no key and singer_in_concert(Singer_ID) only part
    # of one, so those two are dropped.
    assert tickets.unique == (("concert_id", "seat"),)
    assert tickets.foreign_keys == (ForeignKey(("concert_id",), "concert", ("concert_id",)),)


def test_sqlite_file_checks(spider_db: Path) -> None:
    schema = read_sqlite_catalog(spider_db)
    # A double-quoted name that is no column is a string to SQLite: "M" is 'M'.
    assert checks(schema, "singer") == [
        "country <> ''",
        "gender IN ('M', 'F')",
        "age >= 0 AND age < 150",
    ]
    for check in schema.table("singer").checks:
        assert all(c.name == c.name.lower() for c in check.find_all(exp.Column))


def test_sqlite_file_warnings(spider_db: Path) -> None:
    warnings = read_sqlite_catalog(spider_db).warnings
    text = "\n".join(warnings)
    assert "views are not part of the schema and were ignored: old singers" in text
    assert "foreign key concert(promoter) -> promoters(id) dropped: there is no table" in text
    assert "foreign key ticket sales(stadium) -> stadium(location) dropped" in text
    assert "is neither the primary key nor a UNIQUE key of 'stadium'" in text
    assert "foreign key ticket sales(seat) -> singer_in_concert(singer_id) dropped" in text
    # Linked columns share the referenced column's type; the declared type stays.
    assert (
        "column concert.stadium_id is generated as BIGINT, the type of stadium.stadium_id"
        in text
    )
    schema = read_sqlite_catalog(spider_db)
    column = schema.table("singer_in_concert").column("singer_id")
    assert (column.declared, column.affinity, column.type_sql) == ("TEXT", "TEXT", "BIGINT")
    # Warnings are commentary: they do not take part in equality.
    assert schema == Schema(schema.tables)


def test_sqlite_schema_runs_on_duckdb(spider_db: Path) -> None:
    import duckdb

    schema = read_sqlite_catalog(spider_db)
    with closing(duckdb.connect()) as con:
        con.execute(schema.ddl())  # foreign keys link columns of one type


def test_sqlite_file_is_never_modified(spider_db: Path) -> None:
    before = spider_db.read_bytes()
    stat = spider_db.stat()
    files = sorted(p.name for p in spider_db.parent.iterdir())
    schema = read_sqlite_catalog(spider_db)
    read_sqlite_rows(spider_db, schema)
    load_schema(spider_db)
    assert spider_db.read_bytes() == before
    assert spider_db.stat().st_mtime_ns == stat.st_mtime_ns
    assert sorted(p.name for p in spider_db.parent.iterdir()) == files  # no journal, no WAL


def test_sqlite_file_opens_read_only(tmp_path: Path) -> None:
    # A file the user cannot write is still read (and a path needing URI escapes works).
    folder = tmp_path / "odd ?name# 100%"
    folder.mkdir()
    path = make_sqlite(folder / "db.sqlite", "CREATE TABLE t (a INT PRIMARY KEY)")
    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        assert read_sqlite_catalog(path).table_names == ("t",)
        assert read_sqlite_rows(path, read_sqlite_catalog(path)) == {"t": []}
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)


def test_load_schema_reads_sqlite_files(spider_db: Path, tmp_path: Path) -> None:
    expected = read_sqlite_catalog(spider_db)
    assert load_schema(spider_db) == expected
    assert load_schema(str(spider_db), "duckdb", db_id="ignored") == expected
    renamed = tmp_path / "concert.db"  # .db usually means DuckDB; the magic bytes decide
    renamed.write_bytes(spider_db.read_bytes())
    assert load_schema(renamed) == expected
    assert load_schema(renamed).warnings == expected.warnings


def test_read_sqlite_rows(spider_db: Path) -> None:
    schema = read_sqlite_catalog(spider_db)
    rows = read_sqlite_rows(spider_db, schema)
    assert set(rows) == set(schema.table_names)
    # Storage order (rowid), not key order; values as SQLite stores them.
    assert rows["stadium"] == [
        (3, "Here", "Big", 10000, 5.5, "2001-02-03", 1, None),
        (1, "There", "Small", 200.5, None, None, 0, b"\x00\xff"),
        (2, "Nowhere", "Tiny", 12, 1.0, "2020-01-01 10:00:00", 1, "x"),
    ]
    assert rows["singer"] == [(2, "Bob", "US", "M", 40), (7, "Ann", "NL", "F", 31)]  # rowid
    assert rows['say "hi"'] == [("a", 1), ("b", 2), ("c", 3)]
    assert rows["concert"] == []
    assert read_sqlite_rows(spider_db, schema, limit=2)['say "hi"'] == [("a", 1), ("b", 2)]
    assert read_sqlite_rows(spider_db, schema, limit=0)["stadium"] == []
    assert read_sqlite_rows(spider_db, schema) == rows  # deterministic
    with pytest.raises(ValueError, match="limit=-1 must not be negative"):
        read_sqlite_rows(spider_db, schema, limit=-1)


def test_read_sqlite_rows_without_rowid_and_shadowed_rowid(tmp_path: Path) -> None:
    path = make_sqlite(
        tmp_path / "x.sqlite",
        """
        CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        INSERT INTO kv VALUES ('b', 2), ('a', 1), ('c', 3);
        CREATE TABLE odd (rowid TEXT, v INT);
        INSERT INTO odd VALUES ('z', 1), ('a', 2);
        CREATE TABLE bad (t TEXT);
        INSERT INTO bad VALUES (CAST(x'ff61' AS TEXT));
        """,
    )
    schema = read_sqlite_catalog(path)
    rows = read_sqlite_rows(path, schema)
    assert rows["kv"] == [("a", 1), ("b", 2), ("c", 3)]  # a WITHOUT ROWID table: key order
    assert rows["odd"] == [("z", 1), ("a", 2)]  # insertion order, not the "rowid" column
    assert rows["bad"] == [("\ufffda",)]  # invalid UTF-8 is replaced, not an error
    other = parse_ddl("CREATE TABLE missing (a INT)")
    with pytest.raises(SchemaError) as info:
        read_sqlite_rows(path, other)
    assert info.value.kind == "unknown_table"


@pytest.mark.parametrize(
    ("script", "kind", "fragments"),
    [
        (
            "CREATE TABLE t (x CHECK (CAST(x AS unsigned big int) > 0))",
            "unsupported_constraint",
            ["table 't'", "CHECK (CAST(x AS unsigned big int) > 0)"],
        ),
        (
            "CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a + 1))",
            "unsupported_constraint",
            ["table 't'", "'b' is a generated column"],
        ),
        (
            "CREATE TABLE t (a INT); CREATE UNIQUE INDEX i ON t (a) WHERE a > 0",
            "unsupported_constraint",
            ["partial index"],
        ),
        (
            "CREATE TABLE t (a INT); CREATE UNIQUE INDEX i ON t (abs(a))",
            "unsupported_constraint",
            ["on an expression"],
        ),
        (
            "CREATE TABLE t (a TEXT COLLATE NOCASE UNIQUE)",
            "unsupported_constraint",
            ["COLLATE NOCASE"],
        ),
        ("CREATE VIEW v AS SELECT 1 AS a", "empty_schema", ["no tables"]),
    ],
)
def test_sqlite_file_refusals(
    tmp_path: Path, script: str, kind: str, fragments: list[str]
) -> None:
    path = make_sqlite(tmp_path / "refused.sqlite", script)
    with pytest.raises(SchemaError) as info:
        read_sqlite_catalog(path)
    assert info.value.kind == kind, str(info.value)
    assert "refused.sqlite" in info.value.message
    for fragment in fragments:
        assert fragment in info.value.message, str(info.value)


def test_sqlite_file_errors(tmp_path: Path) -> None:
    with pytest.raises(SchemaError) as info:
        read_sqlite_catalog(tmp_path / "missing.sqlite")
    assert info.value.kind == "file_not_found"
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all")
    with pytest.raises(SchemaError, match="is not a SQLite database file") as info:
        read_sqlite_catalog(text)
    assert info.value.kind == "unreadable_database"
    with pytest.raises(SchemaError) as info:
        read_sqlite_catalog(tmp_path)
    assert info.value.kind == "unreadable_database"


def test_collations_are_kept_per_column(tmp_path: Path) -> None:
    ddl = "CREATE TABLE t (a TEXT COLLATE NOCASE, b TEXT, c TEXT COLLATE rtrim)"
    path = make_sqlite(tmp_path / "c.sqlite", ddl)
    table = read_sqlite_catalog(path).table("t")
    assert [col.collation for col in table.columns] == ["NOCASE", None, "RTRIM"]


# --- The sqlite dialect of DDL ----------------------------------------------------------------


def test_sqlite_ddl_keeps_declared_types() -> None:
    schema = parse_ddl(
        """
        CREATE TABLE t (a, b int(11) NOT NULL, c VARCHAR ( 255 ), d number, "e" "my type",
                        f datetime DEFAULT 0, g INT UNSIGNED, PRIMARY KEY (b));
        CREATE TABLE u (x text REFERENCES t, y);
        ALTER TABLE u ADD COLUMN z decimal(8,2);
        """,
        "sqlite",
    )
    assert described(schema, "t") == [
        ("a", "", "TEXT", "BLOB", True),  # no type is legal in SQLite
        ("b", "int(11)", "BIGINT", "INTEGER", False),
        ("c", "VARCHAR ( 255 )", "TEXT", "TEXT", True),  # spelt as SQLite reports it
        ("d", "number", "DOUBLE", "NUMERIC", True),
        ("e", "my type", "DOUBLE", "NUMERIC", True),
        ("f", "datetime", "TIMESTAMP", "NUMERIC", True),
        ("g", "INT UNSIGNED", "BIGINT", "INTEGER", True),  # SQLite enforces no sign
    ]
    assert checks(schema, "t") == []
    assert described(schema, "u") == [
        ("x", "TEXT", "BIGINT", "TEXT", True),  # the type of t.b, which it references
        ("y", "", "TEXT", "BLOB", True),
        ("z", "decimal(8,2)", "DECIMAL(8, 2)", "NUMERIC", True),
    ]
    assert any("column u.x is generated as BIGINT" in w for w in schema.warnings)


def test_sqlite_ddl_matches_the_database_file(tmp_path: Path) -> None:
    script = """
        CREATE TABLE t (a, b int(11) NOT NULL PRIMARY KEY, c VARCHAR(20) UNIQUE,
                        d number CHECK (d > 0));
        CREATE TABLE u (x int REFERENCES t, y real);
    """
    from_file = read_sqlite_catalog(make_sqlite(tmp_path / "t.sqlite", script))
    from_ddl = parse_ddl(script, "sqlite")
    assert from_file == from_ddl
    for table in from_ddl:
        assert [c.declared for c in table.columns] == [
            c.declared for c in from_file.table(table.name).columns
        ]


def test_other_dialects_still_need_a_type() -> None:
    with pytest.raises(SchemaError) as info:
        parse_ddl("CREATE TABLE t (a)", "duckdb")
    assert info.value.kind == "missing_type"
    assert parse_ddl("CREATE TABLE t (a INT)").table("t").column("a").declared is None


# --- Spider / BIRD tables.json ----------------------------------------------------------------


def spider_entry() -> dict[str, object]:
    return {
        "db_id": "concert_singer",
        "table_names_original": ["Stadium", "singer", "concert", "singer_in_concert"],
        "table_names": ["stadium", "singer", "concert", "singer in concert"],
        "column_names_original": [
            [-1, "*"],
            [0, "Stadium_ID"],  # 1
            [0, "Location"],  # 2
            [0, "Opened"],  # 3
            [1, "Singer_ID"],  # 4
            [1, "Is_male"],  # 5
            [1, "Photo"],  # 6
            [2, "concert_ID"],  # 7
            [2, "Stadium_ID"],  # 8
            [2, "Year"],  # 9
            [3, "concert_ID"],  # 10
            [3, "Singer_ID"],  # 11
            [3, "Stadium Location"],  # 12
        ],
        "column_types": [
            "text", "number", "text", "time", "number", "boolean", "others",
            "number", "text", "text", "number", "number", "text",
        ],
        # Spider spells the composite key of singer_in_concert as two items.
        "primary_keys": [1, 4, 7, 10, 11],
        "foreign_keys": [[8, 1], [10, 7], [11, 4], [12, 2], [9, 9]],
    }


def bird_entry() -> dict[str, object]:
    return {
        "db_id": "card_games",
        "table_names_original": ["cards", "rulings", "legalities"],
        "column_names_original": [
            [-1, "*"],
            [0, "id"],  # 1
            [0, "uuid"],  # 2
            [0, "set code"],  # 3
            [1, "uuid"],  # 4
            [1, "set code"],  # 5
            [1, "date"],  # 6
            [1, "price"],  # 7
            [2, "id"],  # 8
        ],
        "column_types": [
            "text", "integer", "text", "text", "text", "text", "date", "real", "integer",
        ],
        "primary_keys": [[2, 3], 8],  # BIRD: a list is a composite key
        "foreign_keys": [[4, 2], [5, 3]],
    }


def test_spider_tables_json() -> None:
    data = [bird_entry(), spider_entry()]
    schema = read_tables_json(data, "concert_singer")
    assert schema.table_names == ("stadium", "singer", "concert", "singer_in_concert")
    assert described(schema, "stadium") == [
        ("stadium_id", "NUMERIC", "DOUBLE", "NUMERIC", False),
        ("location", "TEXT", "TEXT", "TEXT", True),
        ("opened", "DATETIME", "TIMESTAMP", "NUMERIC", True),
    ]
    assert described(schema, "singer") == [
        ("singer_id", "NUMERIC", "DOUBLE", "NUMERIC", False),
        ("is_male", "BOOLEAN", "BOOLEAN", "NUMERIC", True),
        ("photo", "", "TEXT", "BLOB", True),
    ]
    assert schema.table("singer_in_concert").primary_key == ("concert_id", "singer_id")
    assert schema.table("concert").foreign_keys == (
        ForeignKey(("stadium_id",), "stadium", ("stadium_id",)),
    )
    assert schema.table("singer_in_concert").foreign_keys == (
        ForeignKey(("concert_id",), "concert", ("concert_id",)),
        ForeignKey(("singer_id",), "singer", ("singer_id",)),
    )
    # concert.stadium_id is "text" but references a "number": it takes that type.
    assert schema.table("concert").column("stadium_id").type_sql == "DOUBLE"
    assert schema.table("concert").column("stadium_id").affinity == "TEXT"
    text = "\n".join(schema.warnings)
    assert "declares no NOT NULL, UNIQUE or CHECK constraints" in text
    assert "singer_in_concert(stadium location) -> stadium(location) dropped" in text
    assert "concert(year)" not in text  # a column referencing itself is no constraint


def test_bird_tables_json() -> None:
    schema = read_tables_json([spider_entry(), bird_entry()], "card_games")
    assert schema.table("cards").primary_key == ("uuid", "set code")
    assert schema.table("legalities").primary_key == ("id",)
    # Two pairs that together reference the composite key are one foreign key.
    assert schema.table("rulings").foreign_keys == (
        ForeignKey(("uuid", "set code"), "cards", ("uuid", "set code")),
    )
    assert described(schema, "rulings") == [
        ("uuid", "TEXT", "TEXT", "TEXT", True),  # Spider's "text" word, BIRD's too
        ("set code", "TEXT", "TEXT", "TEXT", True),
        ("date", "date", "DATE", "NUMERIC", True),
        ("price", "REAL", "DOUBLE", "REAL", True),
    ]
    assert schema.table("cards").column("id").type_sql == "BIGINT"


def test_tables_json_files_and_load_schema(tmp_path: Path) -> None:
    path = tmp_path / "tables.json"
    path.write_text(json.dumps([spider_entry(), bird_entry()]), encoding="utf-8")
    expected = read_tables_json([spider_entry(), bird_entry()], "card_games")
    assert read_tables_json(path, "card_games") == expected
    assert load_schema(path, db_id="card_games") == expected
    assert load_schema(str(path), db_id="card_games").warnings == expected.warnings
    assert load_schema([spider_entry(), bird_entry()], db_id="card_games") == expected
    # A file of one database needs no db_id.
    single = tmp_path / "dev_tables.json"
    single.write_text(json.dumps([bird_entry()]), encoding="utf-8")
    assert load_schema(single) == expected
    # The mapping format is still a .json file too.
    mapping = tmp_path / "schema.json"
    mapping.write_text(json.dumps({"tables": {"t": {"columns": {"a": "INT"}}}}))
    assert load_schema(mapping).table_names == ("t",)


def test_tables_json_errors(tmp_path: Path) -> None:
    path = tmp_path / "tables.json"
    path.write_text(json.dumps([spider_entry(), bird_entry()]), encoding="utf-8")

    def error(source: object, db_id: str | None = None) -> SchemaError:
        with pytest.raises(SchemaError) as info:
            load_schema(source, db_id=db_id)  # type: ignore[arg-type]
        return info.value

    err = error(path)
    assert err.kind == "missing_db_id"
    assert "describes 2 databases" in err.message and "--db-id" in err.message
    assert str(path) in err.message
    err = error(path, "concert_singers")
    assert err.kind == "unknown_db_id"
    assert "did you mean 'concert_singer'?" in err.message
    assert error(path, "zzz").kind == "unknown_db_id"
    broken = spider_entry()
    broken["column_types"] = ["text"]
    err = error([broken], "concert_singer")
    assert err.kind == "invalid_tables_json"
    assert "concert_singer" in err.message
    broken = spider_entry()
    broken["foreign_keys"] = [[99, 1]]
    assert "no column 99" in error([broken]).message
    with pytest.raises(SchemaError) as info:
        read_tables_json({"tables": {}}, "x")
    assert info.value.kind == "invalid_tables_json"


def test_cli_db_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps([spider_entry(), bird_entry()]), encoding="utf-8")
    a = tmp_path / "a.sql"
    a.write_text('SELECT "Location" FROM "Stadium"')
    b = tmp_path / "b.sql"
    b.write_text("SELECT s.location FROM stadium AS s")
    argv = ["check", str(a), str(b), "--schema", str(tables), "--dialect", "sqlite", "--json"]
    assert main([*argv, "--db-id", "concert_singer"]) == 0
    capsys.readouterr()
    assert main(argv) == 2  # two databases and no --db-id
    assert json.loads(capsys.readouterr().out)["error"]["kind"] == "missing_db_id"


def test_sqlite_ddl_declared_type_stops_at_primary_key() -> None:
    # sqlglot reads "PRIMARY KEY" as one token; the type must still end before it.
    ddl = "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT CONSTRAINT u UNIQUE)"
    schema = parse_ddl(ddl, "sqlite")
    assert [c.declared for c in schema.table("t").columns] == ["INTEGER", "TEXT"]


def test_sqlite_ddl_keeps_builtin_collations_and_refuses_others() -> None:
    ddl = "CREATE TABLE t (a TEXT COLLATE NOCASE, b TEXT COLLATE binary, c TEXT COLLATE RTRIM)"
    schema = parse_ddl(ddl, "sqlite")
    assert [c.collation for c in schema.table("t").columns] == ["NOCASE", None, "RTRIM"]
    with pytest.raises(SchemaError) as info:
        parse_ddl("CREATE TABLE t (a TEXT COLLATE my_locale)", "sqlite")
    assert info.value.kind == "unsupported_constraint"
