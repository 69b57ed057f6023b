"""Build the bundled Spider-shaped example: two SQLite databases, tables.json, gold and pred.

    python examples/spider/make_example.py [TARGET_DIR]

writes (by default beside this script)::

    database/concert_singer/concert_singer.sqlite
    database/shop/shop.sqlite
    tables.json
    gold.sql     one "SQL<TAB>db_id" per line, as Spider's dev_gold.sql
    pred.sql     one predicted query per line, as a model writes them

The predictions are chosen to show every way the execution match on the shipped
database and sqlequiv's verdict can relate: agreements, passes that a
counterexample refutes (a tie, a singer in no concert, a NULL status, a number
stored as text, integer division), a fail that a proof clears (DISTINCT removed
by the evaluator), and predictions that do not run.

Then: ``sqlequiv spider --gold examples/spider/gold.sql --pred examples/spider/pred.sql
--db examples/spider/database --table examples/spider/tables.json --out results.jsonl``.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

CONCERT_SINGER = """
CREATE TABLE "singer" (
  "Singer_ID" INTEGER PRIMARY KEY,
  "Name" TEXT NOT NULL,
  "Country" TEXT,
  "Age" INTEGER NOT NULL,
  "Net_Worth_Millions" TEXT
);
CREATE TABLE "concert" (
  "concert_ID" INTEGER PRIMARY KEY,
  "concert_Name" TEXT,
  "Year" TEXT
);
CREATE TABLE "singer_in_concert" (
  "concert_ID" INTEGER,
  "Singer_ID" INTEGER,
  PRIMARY KEY ("concert_ID", "Singer_ID"),
  FOREIGN KEY ("concert_ID") REFERENCES "concert" ("concert_ID"),
  FOREIGN KEY ("Singer_ID") REFERENCES "singer" ("Singer_ID")
);
INSERT INTO singer VALUES
  (1, 'Joe Sharp', 'Netherlands', 52, '150'),
  (2, 'Timbaland', 'United States', 32, '210'),
  (3, 'Justin Brown', 'France', 28, '120'),
  (4, 'Rose White', 'France', 40, '300'),
  (5, 'John Nizinik', 'France', 44, '180'),
  (6, 'Tribal King', 'France', 26, '250');
INSERT INTO concert VALUES
  (1, 'Auditions', '2014'), (2, 'Super bootcamp', '2014'), (3, 'Home Visits', '2015'),
  (4, 'Week 1', '2014'), (5, 'Week 2', '2015');
INSERT INTO singer_in_concert VALUES
  (1, 2), (1, 3), (1, 5), (2, 3), (2, 6), (3, 5), (4, 4), (5, 6), (5, 3), (4, 1);
"""

SHOP = """
CREATE TABLE "customer" (
  "id" INTEGER PRIMARY KEY,
  "name" TEXT NOT NULL,
  "city" TEXT
);
CREATE TABLE "orders" (
  "order_id" INTEGER PRIMARY KEY,
  "customer_id" INTEGER NOT NULL,
  "amount" REAL,
  "status" TEXT,
  FOREIGN KEY ("customer_id") REFERENCES "customer" ("id")
);
INSERT INTO customer VALUES (1, 'Ada', 'Paris'), (2, 'Bo', 'Lyon'), (3, 'Cy', 'Paris');
INSERT INTO orders VALUES
  (10, 1, 25.0, 'shipped'), (11, 1, 40.0, 'cancelled'), (12, 2, 15.5, 'shipped'),
  (13, 3, 60.0, 'pending');
"""

#: (db_id, gold, pred): what each line of gold.sql and pred.sql holds.
PAIRS = [
    # Written differently, the same query: both graders pass it, sqlequiv proves it.
    ("concert_singer", "SELECT count(*) FROM singer", "SELECT count(1) FROM singer"),
    (
        "shop",
        "SELECT T1.name, T2.amount FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id",
        "SELECT T1.name, T2.amount FROM orders AS T2 JOIN customer AS T1 ON T2.customer_id = T1.id",
    ),
    # The oldest singer: the shipped data has one, so LIMIT 1 passes; a tie refutes it.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE Age = (SELECT max(Age) FROM singer)",
        "SELECT Name FROM singer ORDER BY Age DESC, Singer_ID LIMIT 1",
    ),
    # Concerts per singer: every shipped singer sang somewhere, so the inner join passes.
    (
        "concert_singer",
        "SELECT T1.Name, count(T2.concert_ID) FROM singer AS T1 LEFT JOIN singer_in_concert AS T2 "
        "ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID",
        "SELECT T1.Name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 "
        "ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID",
    ),
    # Orders not cancelled: no shipped status is NULL, where != and IS NOT part ways.
    (
        "shop",
        "SELECT count(*) FROM orders WHERE status != 'cancelled'",
        "SELECT count(*) FROM orders WHERE status IS NOT 'cancelled'",
    ),
    # A TEXT column holding numbers, compared with a number: SQLite compares as text
    # ('96' > '200'), which only three-digit shipped values hide.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE CAST(Net_Worth_Millions AS INTEGER) > 200",
        "SELECT Name FROM singer WHERE Net_Worth_Millions > 200",
    ),
    # Integer division: every shipped age is even.
    ("concert_singer", "SELECT Name, Age / 2.0 FROM singer", "SELECT Name, Age / 2 FROM singer"),
    # LIKE ignores ASCII case in SQLite: the same query.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE Name LIKE 'J%'",
        "SELECT Name FROM singer WHERE Name LIKE 'j%'",
    ),
    # The evaluator removes DISTINCT from the gold by default, so GROUP BY fails; it is
    # the same query.
    (
        "concert_singer",
        "SELECT DISTINCT Country FROM singer",
        "SELECT Country FROM singer GROUP BY Country",
    ),
    # Wrong, and the shipped data shows it (a singer aged exactly 40).
    (
        "concert_singer",
        "SELECT count(*) FROM singer WHERE Age >= 40",
        "SELECT count(*) FROM singer WHERE Age > 40",
    ),
    # Does not parse.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE Country = 'France'",
        "SELECT Name FROM singer WHERE Country =",
    ),
]


def tables_json_entry(con: sqlite3.Connection, db_id: str) -> dict[str, object]:
    """The tables.json entry Spider's preprocessing writes for a database."""
    tables = [
        name
        for (name,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"
        )
    ]
    columns: list[list[object]] = [[-1, "*"]]
    types = ["text"]
    primary_keys: list[int] = []
    index: dict[tuple[str, str], int] = {}
    for t, table in enumerate(tables):
        for _cid, name, declared, _notnull, _default, pk in con.execute(
            f'PRAGMA table_info("{table}")'
        ):
            index[(table.lower(), name.lower())] = len(columns)
            if pk:
                primary_keys.append(len(columns))
            columns.append([t, name])
            upper = str(declared).upper()
            types.append("number" if "INT" in upper or "REAL" in upper else "text")
    foreign_keys = []
    for table in tables:
        for row in con.execute(f'PRAGMA foreign_key_list("{table}")'):
            parent, child_col, parent_col = row[2], row[3], row[4]
            foreign_keys.append(
                [
                    index[(table.lower(), child_col.lower())],
                    index[(parent.lower(), parent_col.lower())],
                ]
            )
    return {
        "db_id": db_id,
        "table_names_original": tables,
        "table_names": [t.lower().replace("_", " ") for t in tables],
        "column_names_original": columns,
        "column_names": [[t, str(n).lower().replace("_", " ")] for t, n in columns],
        "column_types": types,
        "primary_keys": primary_keys,
        "foreign_keys": foreign_keys,
    }


def build(target: Path) -> None:
    """Write the example into ``target`` (existing databases are replaced)."""
    entries = []
    for db_id, script in (("concert_singer", CONCERT_SINGER), ("shop", SHOP)):
        path = target / "database" / db_id / f"{db_id}.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        con = sqlite3.connect(path)
        con.executescript(script)
        con.commit()
        entries.append(tables_json_entry(con, db_id))
        con.close()
    (target / "tables.json").write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    gold = "".join(f"{g}\t{db}\n" for db, g, _ in PAIRS)
    pred = "".join(f"{p}\n" for _, _, p in PAIRS)
    (target / "gold.sql").write_text(gold, encoding="utf-8")
    (target / "pred.sql").write_text(pred, encoding="utf-8")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
