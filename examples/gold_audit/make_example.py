"""Build the bundled gold-audit example: a small Spider-format benchmark with planted hazards.

    python examples/gold_audit/make_example.py [TARGET_DIR]

writes (by default beside this script)::

    database/school/school.sqlite
    database/shop/shop.sqlite
    database/metrics/metrics.sqlite
    tables.json
    dev.json      Spider-like questions: db_id, question, query (and "alternatives")
    gold.sql      one "SQL<TAB>db_id" per line, as Spider's dev_gold.sql
    pred.sql      one prediction per line, with a planted run shifted by one line
    planted.json  what the audit must find: {"hazards": [[index, kind, reason], ...],
                  "shifted": {"offset": 1, "items": [...]}}

Every hazard kind of ``sqlequiv audit-gold`` is planted in some gold; the other golds
are clean, several of them on purpose close to a hazard (a LIMIT whose ORDER BY ends on
the primary key, a NOT IN over a NOT NULL column, a bare column the GROUP BY's primary
key determines, an ORDER BY on a UNIQUE column) so that flagging them would be a false
alarm. ``tests/test_audit_gold.py`` checks that the audit finds exactly ``planted.json``.

Then: ``sqlequiv audit-gold --gold examples/gold_audit/gold.sql --questions
examples/gold_audit/dev.json --db examples/gold_audit/database --table
examples/gold_audit/tables.json --pred examples/gold_audit/pred.sql --out audit.jsonl``.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "spider"))
from make_example import tables_json_entry  # the Spider example's writer

SCHOOL = """
CREATE TABLE "student" (
  "student_id" INTEGER PRIMARY KEY,
  "name" TEXT NOT NULL UNIQUE,
  "major" TEXT,
  "gpa" REAL,
  "age" INTEGER NOT NULL,
  "credits" TEXT
);
CREATE TABLE "course" (
  "course_id" INTEGER PRIMARY KEY,
  "title" TEXT NOT NULL,
  "dept" TEXT NOT NULL,
  "capacity" INTEGER NOT NULL
);
CREATE TABLE "enrollment" (
  "student_id" INTEGER NOT NULL,
  "course_id" INTEGER NOT NULL,
  "grade" INTEGER,
  PRIMARY KEY ("student_id", "course_id"),
  FOREIGN KEY ("student_id") REFERENCES "student" ("student_id"),
  FOREIGN KEY ("course_id") REFERENCES "course" ("course_id")
);
CREATE TABLE "advisor" (
  "advisor_id" INTEGER PRIMARY KEY,
  "name" TEXT NOT NULL,
  "student_id" INTEGER,
  FOREIGN KEY ("student_id") REFERENCES "student" ("student_id")
);
INSERT INTO student VALUES
  (1, 'Ana', 'Physics', 3.9, 23, '120'),
  (2, 'Ben', 'Physics', NULL, 21, '95'),
  (3, 'Chloe', 'History', 3.1, 23, '30'),
  (4, 'Dev', 'Biology', 2.8, 19, '150'),
  (5, 'Eli', 'History', 3.5, 20, '60'),
  (6, 'Fay', 'Physics', 3.2, 22, '88');
INSERT INTO course VALUES
  (1, 'Mechanics', 'Physics', 40), (2, 'Optics', 'Physics', 25),
  (3, 'Rome', 'History', 35), (4, 'Cells', 'Biology', 30), (5, 'Genetics', 'Biology', 20);
INSERT INTO enrollment VALUES
  (1, 1, 90), (1, 2, 85), (2, 1, 70), (3, 3, 88), (4, 4, NULL), (5, 3, 75), (6, 1, 80);
INSERT INTO advisor VALUES (1, 'Prof. Ito', 1), (2, 'Prof. Ito', 3), (3, 'Dr. Roy', 4);
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
  "placed" TEXT NOT NULL,
  FOREIGN KEY ("customer_id") REFERENCES "customer" ("id")
);
INSERT INTO customer VALUES (1, 'Ada', 'Paris'), (2, 'Bo', 'Lyon'), (3, 'Cy', 'Paris');
INSERT INTO orders VALUES
  (10, 1, 25.0, 'shipped', '2024-03-01'), (11, 1, 40.0, 'cancelled', '2024-05-12'),
  (12, 2, 15.5, 'shipped', '2024-06-30'), (13, 3, 60.0, 'pending', '2024-07-04');
"""

METRICS = "CREATE TABLE num (n INTEGER PRIMARY KEY);\n" + "".join(
    f"INSERT INTO num VALUES ({i});\n" for i in range(1, 81)
)

#: (db_id, question, gold, planted hazards as (kind, reason), alternatives).
ITEMS: list[tuple[str, str, str, list[tuple[str, str]], list[str]]] = [
    ("school", "How many students are there?", "SELECT count(*) FROM student", [], []),
    (
        "school",
        "What is the name of the oldest student?",
        "SELECT name FROM student ORDER BY age DESC LIMIT 1",
        [("nondeterministic", "limit_ties")],
        [],
    ),
    (
        "school",
        "List the names and majors of students, ordered by major.",
        "SELECT name, major FROM student ORDER BY major",
        [("nondeterministic", "order_ties")],
        [],
    ),
    (
        "school",
        "Give the titles of three courses.",
        "SELECT title FROM course LIMIT 3",
        [("nondeterministic", "limit_without_order")],
        [],
    ),
    (
        "school",
        "For each department, give a course title and the number of its courses.",
        "SELECT dept, title, count(*) FROM course GROUP BY dept",
        [("nondeterministic", "bare_column")],
        [],
    ),
    (
        "school",
        "Pick a student at random.",
        "SELECT name FROM student ORDER BY random() LIMIT 1",
        [("nondeterministic", "random")],
        [],
    ),
    (
        "school",
        "List the course titles in alphabetical order.",
        "SELECT title FROM course",
        [("order_sensitive", "question_order_not_in_gold")],
        [],
    ),
    (
        "school",
        "What are the names of the students majoring in Physics?",
        "SELECT name FROM student WHERE major = 'Physics' ORDER BY student_id",
        [("order_sensitive", "order_not_asked")],
        [],
    ),
    (
        "school",
        "What are the names of the three students with the smallest ids?",
        "SELECT name FROM student WHERE student_id IN "
        "(SELECT student_id FROM student ORDER BY student_id LIMIT 3)",
        [("order_sensitive", "order_text_in_subquery")],
        [],
    ),
    (
        "school",
        "Which student has the lowest GPA?",
        "SELECT name FROM student ORDER BY gpa, student_id LIMIT 1",
        [("null_sensitive", "nulls_first_limit")],
        [],
    ),
    (
        "school",
        "Which students have no advisor?",
        "SELECT name FROM student WHERE student_id NOT IN (SELECT student_id FROM advisor)",
        [("null_sensitive", "not_in_nullable")],
        [],
    ),
    (
        "school",
        "Which students have more than 100 credits?",
        "SELECT name FROM student WHERE credits > 100",
        [("type_fragile", "text_numbers")],
        [],
    ),
    (
        "school",
        "Which students are older than 100?",
        "SELECT name FROM student WHERE age > 100",
        [("empty", "empty_on_shipped")],
        [],
    ),
    (
        "school",
        "How many students take at least one course?",
        "SELECT count(DISTINCT student_id) FROM enrollment",
        [("alternatives_disagree", "alternative")],
        ["SELECT count(*) FROM enrollment"],
    ),
    (
        "school",
        "How many courses are there?",
        "SELECT count(*) FROM course",
        [],
        ["SELECT count(course_id) FROM course"],
    ),
    ("school", "What is the average age of the students?", "SELECT avg(age) FROM student", [], []),
    (
        "school",
        "Show the number of students in each major.",
        "SELECT major, count(*) FROM student GROUP BY major",
        [],
        [],
    ),
    (
        "school",
        "What is the title of the course with the largest capacity?",
        "SELECT title FROM course ORDER BY capacity DESC, course_id LIMIT 1",
        [],
        [],
    ),
    (
        "school",
        "List every student's name with the titles of the courses they take.",
        "SELECT T1.name, T3.title FROM student AS T1 JOIN enrollment AS T2 "
        "ON T1.student_id = T2.student_id JOIN course AS T3 ON T2.course_id = T3.course_id",
        [],
        [],
    ),
    (
        "school",
        "Which courses have a capacity over 30?",
        "SELECT title FROM course WHERE capacity > 30",
        [],
        [],
    ),
    (
        "school",
        "List all student names sorted by name.",
        "SELECT name FROM student ORDER BY name",
        [],
        [],
    ),
    (
        "school",
        "Which students have an advisor?",
        "SELECT name FROM student WHERE student_id IN (SELECT student_id FROM advisor)",
        [],
        [],
    ),
    (
        "school",
        "Which courses have nobody enrolled?",
        "SELECT title FROM course WHERE course_id NOT IN (SELECT course_id FROM enrollment)",
        [],
        [],
    ),
    (
        "school",
        "What is the highest grade given in each course?",
        "SELECT course_id, max(grade) FROM enrollment GROUP BY course_id",
        [],
        [],
    ),
    (
        "shop",
        "How many customers live in Paris?",
        "SELECT count(*) FROM customer WHERE city = 'Paris'",
        [],
        [],
    ),
    (
        "shop",
        "What is the total amount of the shipped orders?",
        "SELECT sum(amount) FROM orders WHERE status = 'shipped'",
        [],
        [],
    ),
    (
        "shop",
        "Which customer placed the largest order?",
        "SELECT T1.name FROM customer AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id "
        "ORDER BY T2.amount DESC LIMIT 1",
        [("nondeterministic", "limit_ties"), ("null_sensitive", "nulls_first_limit")],
        [],
    ),
    (
        "shop",
        "How many orders were placed in the last 30 days?",
        "SELECT count(*) FROM orders WHERE placed >= date('now', '-30 days')",
        [("nondeterministic", "clock")],
        [],
    ),
    (
        "shop",
        "Show each order's id with the name of its customer.",
        "SELECT T2.order_id, T1.name FROM customer AS T1 JOIN orders AS T2 "
        "ON T1.id = T2.customer_id",
        [],
        [],
    ),
    (
        "shop",
        "Which cities have more than one customer?",
        "SELECT city FROM customer GROUP BY city HAVING count(*) > 1",
        [],
        [],
    ),
    ("shop", "When was the most recent order placed?", "SELECT max(placed) FROM orders", [], []),
    (
        "shop",
        "Show each customer's name and number of orders.",
        "SELECT T1.name, count(*) FROM customer AS T1 JOIN orders AS T2 "
        "ON T1.id = T2.customer_id GROUP BY T1.id",
        [],
        [],
    ),
    ("shop", "What are the distinct order statuses?", "SELECT DISTINCT status FROM orders", [], []),
    (
        "metrics",
        "How many ordered 5-tuples of numbers are increasing in their first two?",
        "SELECT count(*) FROM num AS a, num AS b, num AS c, num AS d, num AS e WHERE a.n < b.n",
        [("slow", "timeout")],
        [],
    ),
]

#: Predictions from this line on (0-based) hold the next item's gold, for SHIFT_LENGTH lines.
SHIFT_START = 17
SHIFT_LENGTH = 5


def predictions() -> list[str]:
    """One prediction per item: the gold itself, except a planted run shifted by one."""
    preds = []
    for i, (_db, _q, gold, _h, _a) in enumerate(ITEMS):
        if SHIFT_START <= i < SHIFT_START + SHIFT_LENGTH:
            preds.append(ITEMS[i + 1][2])
        elif ITEMS[i][3] == [("slow", "timeout")]:
            preds.append("SELECT count(*) FROM num")  # not the slow gold again
        else:
            preds.append(gold)
    return preds


def build(target: Path) -> None:
    """Write the example into ``target`` (existing databases are replaced)."""
    entries = []
    for db_id, script in (("school", SCHOOL), ("shop", SHOP), ("metrics", METRICS)):
        path = target / "database" / db_id / f"{db_id}.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        con = sqlite3.connect(path)
        con.executescript(script)
        con.commit()
        entries.append(tables_json_entry(con, db_id))
        con.close()
    (target / "tables.json").write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    dev = []
    for db_id, question, gold, _hazards, alternatives in ITEMS:
        entry: dict[str, object] = {"db_id": db_id, "question": question, "query": gold}
        if alternatives:
            entry["alternatives"] = alternatives
        dev.append(entry)
    (target / "dev.json").write_text(json.dumps(dev, indent=1) + "\n", encoding="utf-8")
    (target / "gold.sql").write_text(
        "".join(f"{gold}\t{db}\n" for db, _q, gold, _h, _a in ITEMS), encoding="utf-8"
    )
    (target / "pred.sql").write_text("".join(f"{p}\n" for p in predictions()), encoding="utf-8")
    planted = {
        "hazards": [[i, kind, reason] for i, item in enumerate(ITEMS) for kind, reason in item[3]],
        "shifted": {
            "offset": 1,
            "items": list(range(SHIFT_START, SHIFT_START + SHIFT_LENGTH)),
        },
    }
    (target / "planted.json").write_text(json.dumps(planted, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
