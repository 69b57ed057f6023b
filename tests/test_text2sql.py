"""``sqlequiv spider`` / ``sqlequiv bird`` on generated Spider- and BIRD-shaped directories.

No benchmark data can be downloaded here, so the tests build what the evaluators
read: ``DB/{db_id}/{db_id}.sqlite`` files made with sqlite3, a tables.json, gold
and prediction files. The pairs cover every agreement category: predictions
whose execution match on the shipped data hides a real difference (a tie, a
singer in no concert, a NULL, a number stored as text, integer division),
failures that only the evaluator's rules cause (DISTINCT removed, column order
under BIRD's sets), SQLite's own semantics (LIKE ignores case), and predictions
that do not run.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from sqlequiv.cli import main
from sqlequiv.text2sql import (
    BenchmarkInputError,
    bird_result_eq,
    execution_match,
    read_bird,
    read_spider,
    spider_result_eq,
)
from sqlequiv.text2sql.execmatch import PermutationSearch, remove_distinct, spider_prepare
from sqlequiv.text2sql.formats import spider_databases

ROOT = Path(__file__).resolve().parent.parent

CONCERT_SINGER = """
CREATE TABLE "singer" ("Singer_ID" INTEGER PRIMARY KEY, "Name" TEXT NOT NULL,
  "Country" TEXT, "Age" INTEGER NOT NULL, "Net_Worth" TEXT);
CREATE TABLE "concert" ("concert_ID" INTEGER PRIMARY KEY, "concert_Name" TEXT, "Year" TEXT);
CREATE TABLE "singer_in_concert" ("concert_ID" INTEGER, "Singer_ID" INTEGER,
  PRIMARY KEY ("concert_ID", "Singer_ID"),
  FOREIGN KEY ("concert_ID") REFERENCES "concert" ("concert_ID"),
  FOREIGN KEY ("Singer_ID") REFERENCES "singer" ("Singer_ID"));
INSERT INTO singer VALUES (1, 'Joe Sharp', 'Netherlands', 52, '150'),
  (2, 'Timbaland', 'United States', 32, '210'), (3, 'Justin Brown', 'France', 28, '120'),
  (4, 'Rose White', 'France', 40, '300'), (5, 'John Nizinik', 'France', 44, '180'),
  (6, 'Tribal King', 'France', 26, '250');
INSERT INTO concert VALUES (1, 'Auditions', '2014'), (2, 'Super bootcamp', '2014'),
  (3, 'Home Visits', '2015');
INSERT INTO singer_in_concert VALUES (1, 2), (1, 3), (1, 5), (2, 3), (2, 6), (3, 5), (3, 4),
  (2, 1);
"""

SHOP = """
CREATE TABLE "customer" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "city" TEXT);
CREATE TABLE "orders" ("order_id" INTEGER PRIMARY KEY, "customer_id" INTEGER NOT NULL,
  "amount" REAL, "status" TEXT, FOREIGN KEY ("customer_id") REFERENCES "customer" ("id"));
INSERT INTO customer VALUES (1, 'Ada', 'Paris'), (2, 'Bo', 'Lyon'), (3, 'Cy', 'Paris');
INSERT INTO orders VALUES (10, 1, 25.0, 'shipped'), (11, 1, 40.0, 'cancelled'),
  (12, 2, 15.5, 'shipped'), (13, 3, 60.0, 'pending');
"""

# A UNIQUE key under NOCASE: the catalog reader refuses it, so the schema comes from
# tables.json, which knows no UNIQUE at all.
LIBRARY = """
CREATE TABLE "book" ("id" INTEGER PRIMARY KEY, "title" TEXT UNIQUE COLLATE NOCASE);
INSERT INTO book VALUES (1, 'Dune'), (2, 'Emma'), (3, 'Ulysses');
"""

TABLES_JSON = [
    {
        "db_id": "concert_singer",
        "table_names_original": ["singer", "concert", "singer_in_concert"],
        "column_names_original": [
            [-1, "*"],
            [0, "Singer_ID"],
            [0, "Name"],
            [0, "Country"],
            [0, "Age"],
            [0, "Net_Worth"],
            [1, "concert_ID"],
            [1, "concert_Name"],
            [1, "Year"],
            [2, "concert_ID"],
            [2, "Singer_ID"],
        ],
        "column_types": [
            "text",
            "number",
            "text",
            "text",
            "number",
            "text",
            "number",
            "text",
            "text",
            "number",
            "number",
        ],
        "primary_keys": [1, 6, 9, 10],
        "foreign_keys": [[9, 6], [10, 1]],
    },
    {
        "db_id": "shop",
        "table_names_original": ["customer", "orders"],
        "column_names_original": [
            [-1, "*"],
            [0, "id"],
            [0, "name"],
            [0, "city"],
            [1, "order_id"],
            [1, "customer_id"],
            [1, "amount"],
            [1, "status"],
        ],
        "column_types": ["text", "number", "text", "text", "number", "number", "number", "text"],
        "primary_keys": [1, 4],
        "foreign_keys": [[5, 1]],
    },
    {
        "db_id": "library",
        "table_names_original": ["book"],
        "column_names_original": [[-1, "*"], [0, "id"], [0, "title"]],
        "column_types": ["text", "number", "text"],
        "primary_keys": [1],
        "foreign_keys": [],
    },
]

#: (db_id, gold, pred, category expected) for each line of the Spider files.
SPIDER_PAIRS = [
    # 0-2: written differently, the same query: both agree it passes (proved).
    ("concert_singer", "SELECT count(*) FROM singer", "SELECT count(1) FROM singer", "agree_pass"),
    (
        "shop",
        "SELECT T1.name, T2.amount FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id",
        "SELECT T1.name, T2.amount FROM orders AS T2 JOIN customer AS T1 ON T2.customer_id = T1.id",
        "agree_pass",
    ),
    (
        "concert_singer",
        "SELECT Name, Country FROM singer ORDER BY Age",
        "SELECT Country, Name FROM singer ORDER BY Age",
        "agree_pass",
    ),
    # 3: one oldest singer in the shipped data; a tie refutes LIMIT 1.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE Age = (SELECT max(Age) FROM singer)",
        "SELECT Name FROM singer ORDER BY Age DESC, Singer_ID LIMIT 1",
        "false_pass",
    ),
    # 4: every shipped singer sang somewhere; one who did not refutes the inner join.
    (
        "concert_singer",
        "SELECT T1.Name, count(T2.concert_ID) FROM singer AS T1 LEFT JOIN singer_in_concert AS T2 "
        "ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID",
        "SELECT T1.Name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 "
        "ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID",
        "false_pass",
    ),
    # 5: no shipped status is NULL.
    (
        "shop",
        "SELECT count(*) FROM orders WHERE status != 'cancelled'",
        "SELECT count(*) FROM orders WHERE status IS NOT 'cancelled'",
        "false_pass",
    ),
    # 6: SQLite: a TEXT column compared with a number compares as text ('96' > '200').
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE CAST(Net_Worth AS INTEGER) > 200",
        "SELECT Name FROM singer WHERE Net_Worth > 200",
        "false_pass",
    ),
    # 7: SQLite: integer division; every shipped age is even.
    (
        "concert_singer",
        "SELECT Name, Age / 2.0 FROM singer",
        "SELECT Name, Age / 2 FROM singer",
        "false_pass",
    ),
    # 8: SQLite: LIKE ignores ASCII case, so these are the same query.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE Name LIKE 'J%'",
        "SELECT Name FROM singer WHERE Name LIKE 'j%'",
        "agree_pass",
    ),
    # 9: the evaluator removes DISTINCT from the gold, so GROUP BY fails; it is the same query.
    (
        "concert_singer",
        "SELECT DISTINCT Country FROM singer",
        "SELECT Country FROM singer GROUP BY Country",
        "false_fail",
    ),
    # 10: wrong, and the shipped data shows it (a singer aged exactly 40).
    (
        "concert_singer",
        "SELECT count(*) FROM singer WHERE Age >= 40",
        "SELECT count(*) FROM singer WHERE Age > 40",
        "agree_fail",
    ),
    # 11-12: a prediction that does not parse, and an empty line.
    (
        "concert_singer",
        "SELECT Name FROM singer WHERE Country = 'France'",
        "SELECT Name FROM singer WHERE Country =",
        "error",
    ),
    ("shop", "SELECT name FROM customer", "", "error"),
    # 13: the schema comes from tables.json (no UNIQUE, coarse types): sqlequiv's
    # counterexample (two equal titles) breaks the real database's constraints: no refutation.
    ("library", "SELECT DISTINCT title FROM book", "SELECT title FROM book", "unresolved_pass"),
]


def make_database(path: Path, script: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.executescript(script)
    con.commit()
    con.close()


def make_benchmark(root: Path) -> dict[str, Path]:
    """A Spider-shaped directory (and BIRD files over the same databases) under ``root``."""
    db = root / "database"
    for db_id, script in (("concert_singer", CONCERT_SINGER), ("shop", SHOP), ("library", LIBRARY)):
        make_database(db / db_id / f"{db_id}.sqlite", script)
    (root / "tables.json").write_text(json.dumps(TABLES_JSON), encoding="utf-8")
    (root / "gold.sql").write_text(
        "".join(f"{g}\t{d}\n" for d, g, _, _ in SPIDER_PAIRS), encoding="utf-8"
    )
    (root / "pred.sql").write_text("".join(f"{p}\n" for _, _, p, _ in SPIDER_PAIRS), "utf-8")
    bird = [
        # Column order counts in BIRD's set comparison: a false fail.
        (
            "simple",
            "SELECT Name, Age FROM singer WHERE Country = 'France'",
            "SELECT Age, Name FROM singer WHERE Country = 'France'",
        ),
        # Sets hide duplicates: a false pass the evaluator's rule cannot see at all.
        ("simple", "SELECT Country FROM singer", "SELECT DISTINCT Country FROM singer"),
        (
            "moderate",
            "SELECT Name FROM singer WHERE Age = (SELECT max(Age) FROM singer)",
            "SELECT Name FROM singer ORDER BY Age DESC, Singer_ID LIMIT 1",
        ),
        ("challenging", "SELECT count(*) FROM singer", "SELECT count(1) FROM singer"),
        ("moderate", "SELECT count(*) FROM concert", None),
    ]
    dev = [
        {
            "question_id": n,
            "db_id": "concert_singer",
            "question": f"question {n}",
            "evidence": "",
            "SQL": gold,
            "difficulty": level,
        }
        for n, (level, gold, _) in enumerate(bird)
    ]
    (root / "dev.json").write_text(json.dumps(dev, indent=1), encoding="utf-8")
    (root / "dev.sql").write_text("".join(f"{g}\tconcert_singer\n" for _, g, _ in bird), "utf-8")
    predictions = {
        str(n): None if p is None else f"{p}\t----- bird -----\tconcert_singer"
        for n, (_, _, p) in enumerate(bird)
    }
    (root / "predict_dev.json").write_text(json.dumps(predictions), encoding="utf-8")
    return {"root": root, "db": db}


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_benchmark(tmp_path_factory.mktemp("bench"))


def spider_argv(bench: dict[str, Path], out: Path, *extra: str) -> list[str]:
    root = bench["root"]
    return [
        "spider",
        "--gold",
        str(root / "gold.sql"),
        "--pred",
        str(root / "pred.sql"),
        "--db",
        str(bench["db"]),
        "--table",
        str(root / "tables.json"),
        "--out",
        str(out),
        "--backend",
        "inline",
        *extra,
    ]


@pytest.fixture(scope="module")
def spider_run(bench: dict[str, Path]) -> dict[str, Any]:
    out = bench["root"] / "spider.jsonl"
    code = main([*spider_argv(bench, out), "--json"])
    assert code == 0
    return {"out": out, "records": read_records(out)}


# -- the Spider run ------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(SPIDER_PAIRS)))
def test_spider_categories(spider_run: dict[str, Any], index: int) -> None:
    record = next(r for r in spider_run["records"] if r["index"] == index)
    db_id, gold, pred, expected = SPIDER_PAIRS[index]
    assert (record["db_id"], record["gold"], record["pred"]) == (db_id, gold, pred)
    assert record["category"] == expected, record
    assert record["gold_source"] == f"gold.sql:{index + 1}"
    assert record["pred_source"] == f"pred.sql:{index + 1}"
    if expected in ("agree_pass", "false_fail"):
        assert record["verdict"] == "equivalent" and record["proved"] is True
    if expected in ("false_pass", "agree_fail"):
        assert record["verdict"] == "not_equivalent" and record["proved"] is False


def test_every_record_has_every_key(spider_run: dict[str, Any]) -> None:
    from sqlequiv.text2sql.item import RECORD_KEYS

    assert len(spider_run["records"]) == len(SPIDER_PAIRS)
    for record in spider_run["records"]:
        assert tuple(record) == RECORD_KEYS
        assert record["benchmark"] == "spider"
        assert set(record["exec"]) >= {"rule", "match", "order_matters", "pred_error"}


def test_false_passes_carry_a_verified_counterexample(spider_run: dict[str, Any]) -> None:
    false_passes = [r for r in spider_run["records"] if r["category"] == "false_pass"]
    assert len(false_passes) == 5
    for record in false_passes:
        assert record["exec_match"] is True
        example = record["counterexample"]
        assert example is not None and record["cause"] == example["cause"]
        assert example["tables"] and example["detail"]
        assert example["candidate_rows"] != example["reference_rows"]
        # Replayed on the real DDL, the evaluator's own rule fails these predictions too:
        # the shipped database just lacked the case.
        assert record["replay"]["evaluator_match"] is False, record["replay"]
        assert record["replay"]["illegal"] is False
        # Sorted against the benchmark's own database, which the command reads unasked.
        assert example["realism"] in ("realistic", "edge"), example
        assert (example["realism"] == "edge") == bool(example["breaks"])


def test_tie_and_zero_concert_counterexamples(spider_run: dict[str, Any]) -> None:
    by_index = {r["index"]: r for r in spider_run["records"]}
    tie = by_index[3]["counterexample"]
    ages = [row["age"] for row in tie["tables"]["singer"]]
    assert len(tie["reference_rows"]) > len(tie["candidate_rows"])
    assert ages.count(max(ages)) >= 2  # two oldest singers
    zero = by_index[4]["counterexample"]
    assert any(row[-1] == 0 for row in zero["reference_rows"])  # a singer in no concert
    null = by_index[5]["counterexample"]
    assert any(row["status"] is None for row in null["tables"]["orders"])


def test_sqlite_semantics(spider_run: dict[str, Any]) -> None:
    by_index = {r["index"]: r for r in spider_run["records"]}
    # A TEXT column holding numbers, compared with a number: compared as text in SQLite.
    text = by_index[6]["counterexample"]
    worths = [row["net_worth"] for row in text["tables"]["singer"]]
    assert all(isinstance(w, str) for w in worths if w is not None)
    # Integer division: an odd age tells `Age / 2` from `Age / 2.0`.
    division = by_index[7]["counterexample"]
    assert any(row["age"] % 2 for row in division["tables"]["singer"])
    # LIKE is case-insensitive in SQLite: the same query, never a false pass.
    assert by_index[8]["category"] == "agree_pass" and by_index[8]["exec_match"] is True


def test_false_fail_from_distinct_removal(spider_run: dict[str, Any]) -> None:
    record = next(r for r in spider_run["records"] if r["index"] == 9)
    assert record["exec_match"] is False
    assert record["exec"]["distinct_removed"] is True
    assert record["exec"]["gold_rows"] == 6 and record["exec"]["pred_rows"] == 3
    assert record["verdict"] == "equivalent" and record["counterexample"] is None


def test_keep_distinct(bench: dict[str, Path]) -> None:
    db = [bench["db"] / "concert_singer" / "concert_singer.sqlite"]
    _, gold, pred, _ = SPIDER_PAIRS[9]
    assert execution_match("spider", gold, pred, db).match is False
    kept = execution_match("spider", gold, pred, db, keep_distinct=True)
    assert kept.match is True and kept.distinct_removed is False


def test_broken_and_empty_predictions(spider_run: dict[str, Any]) -> None:
    by_index = {r["index"]: r for r in spider_run["records"]}
    broken, empty = by_index[11], by_index[12]
    assert broken["exec_match"] is False and "incomplete input" in broken["exec"]["pred_error"]
    assert broken["error"]["side"] == "candidate" and broken["error"]["kind"] == "parse_error"
    assert empty["pred"] == "" and empty["exec_match"] is False
    assert empty["exec"]["pred_error"] == "the prediction is empty"
    assert empty["error"]["side"] == "candidate"


def test_tables_json_fallback_and_illegal_counterexample(spider_run: dict[str, Any]) -> None:
    by_index = {r["index"]: r for r in spider_run["records"]}
    library = by_index[13]
    assert library["schema_source"] == "tables_json"
    assert by_index[0]["schema_source"] == "sqlite"
    # sqlequiv's counterexample (two equal titles) is legal for tables.json's schema, not
    # for the real database: it is recorded, and refutes nothing.
    assert library["verdict"] == "not_equivalent"
    assert library["replay"]["illegal"] is True
    assert "breaks a constraint of the real database" in library["replay"]["error"]
    assert library["category"] == "unresolved_pass"


def test_spider_summary(
    spider_run: dict[str, Any], bench: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # A rerun grades nothing (every record is there) and prints the same summary.
    code, out, _ = run_cli([*spider_argv(bench, spider_run["out"]), "--json"], capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["items"] == 14 and summary["databases"] == 3
    ex = summary["execution_accuracy"]
    # Passes: 0-8 and 13; fails: 9-12.
    assert (ex["passed"], ex["n"], ex["method"]) == (10, 14, "wilson")
    assert ex["lo"] < ex["rate"] < ex["hi"]
    assert summary["sqlequiv_proved"]["passed"] == 5
    assert summary["sqlequiv_proved_or_unresolved"]["passed"] == 6
    assert summary["corrected_execution_accuracy"]["passed"] == 6
    assert summary["false_passes"] == [3, 4, 5, 6, 7]
    assert summary["false_fails"] == [9]
    assert summary["illegal_counterexamples"] == [13]
    assert summary["categories"]["agree_fail"] == 1 and summary["categories"]["error"] == 2
    assert summary["exec_by_verdict"]["pass"] == {
        "equivalent": 4,
        "not_equivalent": 5,
        "unknown": 1,
        "error": 0,
    }
    assert summary["errors_by_kind"]["candidate: parse_error"] == 1
    assert [d["index"] for d in summary["disagreements"]] == [3, 4, 5, 6, 7, 9]
    assert summary["run"]["graded_now"] == 0 and summary["run"]["resumed"] == 14
    assert summary["run"]["keep_distinct"] is False and summary["run"]["options"]["seed"] == 0
    code, out, _ = run_cli(spider_argv(bench, spider_run["out"]), capsys)
    assert code == 0
    assert "graded 0 items" in out and "14 already in the file" in out
    assert "execution accuracy (Spider test-suite rule)   71.4% (10/14)" in out
    assert "false passes: 5" in out and "items #3 #4 #5 #6 #7" in out
    assert "false fails: 1" in out and "items #9" in out


def test_results_file_of_other_predictions_is_refused(
    spider_run: dict[str, Any],
    bench: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    pred = tmp_path / "pred.sql"
    lines = [p for _, _, p, _ in SPIDER_PAIRS]
    lines[0] = "SELECT count(Name) FROM singer"
    pred.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = spider_argv(bench, spider_run["out"])
    argv[argv.index("--pred") + 1] = str(pred)
    code, _, err = run_cli(argv, capsys)
    assert code == 2
    assert "item 0 (pred.sql:1) was graded from different SQL" in err


# -- BIRD ---------------------------------------------------------------------------------------


def bird_argv(bench: dict[str, Path], out: Path, gold: str = "dev.json", *extra: str) -> list[str]:
    root = bench["root"]
    return [
        "bird",
        "--pred",
        str(root / "predict_dev.json"),
        "--gold",
        str(root / gold),
        "--db",
        str(bench["db"]),
        "--table",
        str(root / "tables.json"),
        "--out",
        str(out),
        "--backend",
        "inline",
        *extra,
    ]


def test_bird_run(bench: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    out = bench["root"] / "bird.jsonl"
    code, stdout, _ = run_cli([*bird_argv(bench, out), "--json"], capsys)
    assert code == 0
    records = read_records(out)
    categories = [r["category"] for r in records]
    assert categories == ["false_fail", "false_pass", "false_pass", "agree_pass", "error"]
    assert [r["difficulty"] for r in records][:3] == ["simple", "simple", "moderate"]
    assert records[0]["question"] == "question 0" and records[0]["question_id"] == 0
    assert all(r["exec"]["rule"] == "bird" for r in records)
    # BIRD compares sets: the DISTINCT prediction passes, and the evaluator's rule cannot
    # see the duplicates even on the counterexample database.
    assert records[1]["replay"]["evaluator_match"] is True
    assert records[1]["cause"] in ("missing_rows", "grain")
    # A prediction that is not a string is empty: BIRD runs it and gets no rows.
    assert records[4]["pred"] == "" and records[4]["exec_match"] is False
    summary = json.loads(stdout)
    assert summary["false_passes_replayed"].get("evaluator_rule_blind", 0) >= 1
    levels = summary["by_difficulty"]
    assert list(levels) == ["simple", "moderate", "challenging"]
    assert levels["simple"]["execution_accuracy"]["passed"] == 1
    assert levels["simple"]["false_fails"] == 1 and levels["moderate"]["false_passes"] == 1
    code, text, _ = run_cli(bird_argv(bench, out), capsys)
    assert code == 0
    assert "execution accuracy (BIRD rule)" in text and "difficulty" in text
    assert "and cannot see the difference in" in text


def test_bird_gold_sql_with_diff_json(bench: dict[str, Path]) -> None:
    root = bench["root"]
    from_json = read_bird(root / "predict_dev.json", root / "dev.json")
    from_sql = read_bird(root / "predict_dev.json", root / "dev.sql", root / "dev.json")
    assert [(i.gold, i.pred, i.difficulty) for i in from_json] == [
        (i.gold, i.pred, i.difficulty) for i in from_sql
    ]


# -- bad input: a clear message naming the file and line, exit 2 ---------------------------------


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("gold", "pred", "message"),
    [
        (
            "SELECT 1\tconcert_singer\nSELECT 2\tconcert_singer\n",
            "SELECT 1\n",
            "pred.sql has 1 prediction lines but",
        ),
        (
            "SELECT 1\tconcert_singer\nSELECT 2 concert_singer\n",
            "SELECT 1\nSELECT 2\n",
            "gold.sql line 2: expected 'SQL<TAB>db_id', found no tab",
        ),
        ("SELECT 1\t../etc\n", "SELECT 1\n", "gold.sql line 1: '../etc' is not a db_id"),
        ("SELECT 1\tno_such_db\n", "SELECT 1\n", "gold.sql:1: no database for db_id 'no_such_db'"),
        ("", "", "gold.sql: no gold queries"),
    ],
)
def test_spider_input_errors(
    bench: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    gold: str,
    pred: str,
    message: str,
) -> None:
    argv = spider_argv(bench, tmp_path / "out.jsonl")
    argv[argv.index("--gold") + 1] = str(_write(tmp_path / "gold.sql", gold))
    argv[argv.index("--pred") + 1] = str(_write(tmp_path / "pred.sql", pred))
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("pred", "message"),
    [
        (
            '{"0": "SELECT 1\\t----- bird -----\\tconcert_singer"}',
            "no prediction for 4 of the 5 gold items (keys 1, 2, 3, 4)",
        ),
        (
            '{"0": "x", "1": "x", "2": "x", "3": "x", "4": "x", "5": "x"}',
            "1 predictions past the last of the 5 gold items (keys 5)",
        ),
        (
            '{"0": "SELECT 1\\t----- bird -----\\tshop", "1": "", "2": "", "3": "", "4": ""}',
            "predict_dev.json['0']: the prediction is for db_id 'shop'",
        ),
        ('{"0": "x", "one": "x"}', "predict_dev.json['one']: keys must be item numbers"),
        ('{"0": "x",\n "1": }', "predict_dev.json line 2 column 7: invalid JSON"),
        ("[]", "expected a JSON object"),
        ('{"0": "x", "0": "y"}', "predict_dev.json['0']: the key appears twice"),
    ],
)
def test_bird_input_errors(
    bench: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    pred: str,
    message: str,
) -> None:
    argv = bird_argv(bench, tmp_path / "out.jsonl")
    argv[argv.index("--pred") + 1] = str(_write(tmp_path / "predict_dev.json", pred))
    code, _, err = run_cli(argv, capsys)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_bad_gold_json_and_options(
    bench: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = _write(tmp_path / "dev.json", '[{"SQL": "SELECT 1"}, "x"]')
    argv = bird_argv(bench, tmp_path / "out.jsonl")
    argv[argv.index("--gold") + 1] = str(gold)
    code, _, err = run_cli(argv, capsys)
    assert code == 2
    assert "dev.json item 0: 'db_id' must be a string" in err
    assert "dev.json item 1: expected an object" in err
    code, _, err = run_cli([*spider_argv(bench, tmp_path / "o.jsonl"), "--jobs", "0"], capsys)
    assert code == 2 and "--jobs=0 must be at least 1" in err
    code, _, err = run_cli(["spider", "--gold", "x"], capsys)
    assert code == 2 and "required" in err


def test_reader_alignment(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.sql", "SELECT 1\ta\n\nSELECT 2\tb\r\n")
    # The second prediction is empty; trailing blank lines are ignored; a tab ends the query.
    pred = _write(tmp_path / "pred.sql", "SELECT 1\tignored\n\n\n\n")
    items = read_spider(gold, pred)
    assert [(i.db_id, i.gold, i.pred) for i in items] == [
        ("a", "SELECT 1", "SELECT 1"),
        ("b", "SELECT 2", ""),
    ]
    assert items[1].gold_source == "gold.sql:3" and items[1].pred_source == "pred.sql:2"
    with pytest.raises(BenchmarkInputError, match="3 prediction lines"):
        read_spider(gold, _write(tmp_path / "p2.sql", "a\nb\nc\n"))


# -- the execution match, rule by rule ---------------------------------------------------------


def test_spider_result_eq() -> None:
    gold = [(1, "a"), (2, "b"), (2, "b")]
    assert spider_result_eq(gold, [("b", 2), ("a", 1), ("b", 2)], False) is True
    assert spider_result_eq(gold, [("b", 2), ("a", 1), ("a", 1)], False) is False  # bags
    assert spider_result_eq(gold, [("a", 1), ("b", 2), ("b", 2)], True) is True
    assert spider_result_eq(gold, [("b", 2), ("a", 1), ("b", 2)], True) is False
    assert spider_result_eq([], [], True) is True
    assert spider_result_eq([(1,)], [], False) is False
    assert spider_result_eq([(1,)], [(1.0,)], False) is True  # Python equality, as the evaluator
    # Columns must move together: the same column bags, different rows.
    assert spider_result_eq([(1, 1), (2, 2)], [(1, 2), (2, 1)], False) is False


def test_spider_result_eq_does_not_hang_on_wide_results() -> None:
    # 26 columns holding the same few values: the evaluator's search would try 26**26
    # candidate permutations.
    rows = [tuple((r + c) % 2 for c in range(26)) for r in range(40)]
    shuffled = [tuple(reversed(row)) for row in rows]
    start = time.monotonic()
    search = PermutationSearch()
    assert spider_result_eq(rows, shuffled, False, search=search) is True
    changed = [*shuffled[:-1], tuple(1 - v for v in shuffled[-1])]
    assert spider_result_eq(rows, changed, False) is False
    assert time.monotonic() - start < 2.0
    # A search past its cap says so instead of guessing.
    hard = [tuple((r * (c + 1)) % 3 for c in range(12)) for r in range(30)]
    capped = PermutationSearch()
    result = spider_result_eq(
        hard, [tuple(reversed(x)) for x in hard], False, max_steps=1, search=capped
    )
    assert result is None and capped.capped


def test_bird_result_eq_is_set_equality() -> None:
    assert bird_result_eq([(1,), (1,)], [(1,)]) is True
    assert bird_result_eq([(1, "a")], [("a", 1)]) is False
    assert bird_result_eq([], []) is True


def test_spider_prepare() -> None:
    assert remove_distinct("SELECT DISTINCT a FROM t") == "SELECT  a FROM t"
    assert remove_distinct("SELECT 'distinct' FROM t") == "SELECT 'distinct' FROM t"
    assert spider_prepare("SELECT a FROM t WHERE a > = YEAR(CURDATE())") == (
        "SELECT a FROM t WHERE a >= 2020"
    )
    assert spider_prepare("SELECT DISTINCT a FROM t", keep_distinct=True) == (
        "SELECT DISTINCT a FROM t"
    )


def test_order_by_is_found_by_text_search(bench: dict[str, Path]) -> None:
    db = [bench["db"] / "concert_singer" / "concert_singer.sqlite"]
    # 'order by' anywhere in the gold's text makes row order count, as in the evaluator.
    gold = (
        "SELECT Name FROM singer WHERE Age >= (SELECT Age FROM singer ORDER BY Age "
        "LIMIT 1) ORDER BY Singer_ID"
    )
    result = execution_match("spider", gold, "SELECT Name FROM singer ORDER BY Name", db)
    assert result.order_matters is True and result.match is False
    same = execution_match(
        "spider", "SELECT Name FROM singer", "SELECT Name FROM singer ORDER BY Name", db
    )
    assert same.order_matters is False and same.match is True


def test_gold_that_fails_is_not_scored(bench: dict[str, Path]) -> None:
    db = [bench["db"] / "shop" / "shop.sqlite"]
    # The Spider evaluator asserts that the gold runs; BIRD scores the item 0.
    spider = execution_match("spider", "SELECT nope FROM orders", "SELECT 1", db)
    assert spider.match is None and "no such column" in (spider.gold_error or "")
    bird = execution_match("bird", "SELECT nope FROM orders", "SELECT 1", db)
    assert bird.match is False and bird.gold_error


def test_test_suite_databases(tmp_path: Path) -> None:
    # The test-suite evaluator compares on every .sqlite file of the database's directory.
    folder = tmp_path / "db" / "t"
    make_database(folder / "t.sqlite", "CREATE TABLE x (a INTEGER); INSERT INTO x VALUES (1);")
    make_database(
        folder / "t_1.sqlite", "CREATE TABLE x (a INTEGER); INSERT INTO x VALUES (1), (NULL);"
    )
    paths = spider_databases(tmp_path / "db", "t")
    assert [p.name for p in paths] == ["t.sqlite", "t_1.sqlite"]
    result = execution_match("spider", "SELECT count(a) FROM x", "SELECT count(*) FROM x", paths)
    assert result.match is False and result.failed_on == "t_1.sqlite"
    assert result.databases == ["t.sqlite", "t_1.sqlite"]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("pred", "fragment"),
    [
        ("DELETE FROM singer", "not authorized"),
        ("INSERT INTO singer (Name, Age) VALUES ('x', 1)", "not authorized"),
        ("ATTACH DATABASE ':memory:' AS other", "not authorized"),
        ("PRAGMA query_only = 0", "not authorized"),
        ("SELECT load_extension('x')", "not authorized"),
        ("DROP TABLE singer", "not authorized"),
    ],
)
def test_shipped_database_is_read_only(bench: dict[str, Path], pred: str, fragment: str) -> None:
    path = bench["db"] / "concert_singer" / "concert_singer.sqlite"
    before = _digest(path)
    result = execution_match("bird", "SELECT count(*) FROM singer", pred, [path])
    assert result.match is False and fragment in (result.pred_error or "")
    assert _digest(path) == before


def test_runaway_prediction_times_out(bench: dict[str, Path]) -> None:
    path = bench["db"] / "concert_singer" / "concert_singer.sqlite"
    forever = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c"
    start = time.monotonic()
    result = execution_match("spider", "SELECT 1", forever, [path], timeout=0.3)
    assert time.monotonic() - start < 3
    assert result.match is False and (result.pred_error or "").startswith("timeout")


# -- worker processes: parallel, per-item timeout, the execution match kept ------------------


def test_worker_processes_and_item_timeout(
    bench: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forever = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c"
    gold = _write(
        tmp_path / "gold.sql",
        "SELECT count(*) FROM singer\tconcert_singer\n"
        "SELECT count(*) FROM singer\tconcert_singer\n",
    )
    pred = _write(tmp_path / "pred.sql", f"{forever}\nSELECT count(1) FROM singer\n")
    out = tmp_path / "out.jsonl"
    argv = spider_argv(
        bench, out, "--backend", "local", "--jobs", "2", "--timeout", "1.5", "--exec-timeout", "0.2"
    )
    argv[argv.index("--gold") + 1], argv[argv.index("--pred") + 1] = str(gold), str(pred)
    code, stdout, _ = run_cli(argv, capsys)
    assert code == 0, stdout
    records = {r["index"]: r for r in read_records(out)}
    slow, fine = records[0], records[1]
    # The runaway query's check overran the item's wall clock: the worker was replaced,
    # and the execution match it had already reported is kept.
    assert slow["verdict"] == "error" and slow["error"]["kind"] == "timeout"
    assert slow["exec_match"] is False and slow["exec"]["pred_error"].startswith("timeout")
    assert slow["category"] == "error"
    assert fine["category"] == "agree_pass"


# -- the bundled example ---------------------------------------------------------------------------


def test_bundled_example_is_current(tmp_path: Path) -> None:
    import importlib.util

    example = ROOT / "examples" / "spider"
    spec = importlib.util.spec_from_file_location("make_example", example / "make_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path)
    for name in ("gold.sql", "pred.sql", "tables.json"):
        assert (tmp_path / name).read_text() == (example / name).read_text(), name
    for db_id in ("concert_singer", "shop"):
        fresh = sqlite3.connect(tmp_path / "database" / db_id / f"{db_id}.sqlite")
        bundled = sqlite3.connect(example / "database" / db_id / f"{db_id}.sqlite")
        assert list(fresh.iterdump()) == list(bundled.iterdump())
        fresh.close()
        bundled.close()
    items = read_spider(example / "gold.sql", example / "pred.sql")
    assert len(items) == len(module.PAIRS)


def test_execution_match_connections_have_the_executors_limits() -> None:
    """The execution match and the SQLite executor share one hardening (SQL length too)."""
    from sqlequiv.execute.sqlite_engine import SQLiteExecutor
    from sqlequiv.execute.sqlite_sandbox import MAX_VALUE_BYTES
    from sqlequiv.text2sql.execmatch import memory_connection

    con = memory_connection()
    executor = SQLiteExecutor(timeout=1.0)
    try:
        for limit in (
            sqlite3.SQLITE_LIMIT_ATTACHED,
            sqlite3.SQLITE_LIMIT_LENGTH,
            sqlite3.SQLITE_LIMIT_SQL_LENGTH,
        ):
            assert con.getlimit(limit) == executor._con.getlimit(limit)
        assert con.getlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH) == MAX_VALUE_BYTES
        with pytest.raises(sqlite3.DataError):
            con.execute("SELECT 1 " + " " * MAX_VALUE_BYTES)
    finally:
        con.close()
