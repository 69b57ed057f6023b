"""Writes ``sqlite.jsonl``: text-to-SQL pairs in SQLite's own terms over the league
database (``examples/data/league.sqlite``: INTEGER/TEXT/REAL columns, a team id kept as
TEXT, dates kept as TEXT), as a BIRD or Spider prediction differs from its gold: the
same SQLite functions (STRFTIME, SUBSTR, INSTR, LENGTH, IIF, ||, CAST, integer
division) on both sides, the shape changed (join, IN, EXISTS, CTE, derived table,
GROUP BY), and next to most equivalences a near miss that must be refuted.

    python benchmarks/prove_sets/make_sqlite.py
"""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA = "examples/data/league.sqlite"

# (id, expect, candidate, reference)
PAIRS = [
    ("count-star-pk", "equivalent",
     "SELECT COUNT(*) FROM player WHERE STRFTIME('%Y', birthday) = '1995'",
     "SELECT COUNT(id) FROM player WHERE STRFTIME('%Y', birthday) = '1995'"),
    ("count-star-pk-miss", "not_equivalent",
     "SELECT COUNT(*) FROM player WHERE STRFTIME('%Y', birthday) = '1995'",
     "SELECT COUNT(name) FROM player WHERE STRFTIME('%Y', birthday) = '1995'"),
    ("conjunct-order", "equivalent",
     "SELECT name FROM player WHERE height > 1.9 AND SUBSTR(birthday, 1, 4) = '1990'",
     "SELECT name FROM player WHERE SUBSTR(birthday, 1, 4) = '1990' AND height > 1.9"),
    ("join-vs-in-year", "equivalent",
     "SELECT DISTINCT t.id FROM team t JOIN match m ON m.home_team = t.id "
     "WHERE STRFTIME('%Y', m.played_on) = '2022'",
     "SELECT id FROM team WHERE id IN (SELECT home_team FROM match "
     "WHERE STRFTIME('%Y', played_on) = '2022')"),
    ("join-vs-in-year-miss", "not_equivalent",
     "SELECT DISTINCT t.id FROM team t JOIN match m ON m.home_team = t.id "
     "WHERE STRFTIME('%Y', m.played_on) = '2022'",
     "SELECT id FROM team WHERE id IN (SELECT away_team FROM match "
     "WHERE STRFTIME('%Y', played_on) = '2022')"),
    ("exists-vs-in-month", "equivalent",
     "SELECT name FROM team t WHERE EXISTS (SELECT 1 FROM match m WHERE m.home_team = t.id "
     "AND SUBSTR(m.played_on, 6, 2) = '12')",
     "SELECT name FROM team WHERE id IN (SELECT home_team FROM match "
     "WHERE SUBSTR(played_on, 6, 2) = '12')"),
    ("exists-vs-in-month-miss", "not_equivalent",
     "SELECT name FROM team t WHERE EXISTS (SELECT 1 FROM match m WHERE m.home_team = t.id "
     "AND SUBSTR(m.played_on, 6, 2) = '12')",
     "SELECT name FROM team WHERE id IN (SELECT home_team FROM match "
     "WHERE SUBSTR(played_on, 6, 2) = '11')"),
    ("iif-vs-case", "equivalent",
     "SELECT CAST(SUM(IIF(position = 'F', 1, 0)) AS REAL) * 100 / COUNT(*) FROM player",
     "SELECT CAST(SUM(CASE WHEN position = 'F' THEN 1 ELSE 0 END) AS REAL) * 100 / COUNT(*) "
     "FROM player"),
    ("iif-vs-case-miss", "not_equivalent",
     "SELECT CAST(SUM(IIF(position = 'F', 1, 0)) AS REAL) * 100 / COUNT(*) FROM player",
     "SELECT CAST(SUM(IIF(position = 'F', 1, 0)) AS REAL) * 100 / COUNT(position) FROM player"),
    ("derived-table-year", "equivalent",
     "SELECT name FROM (SELECT name, birthday FROM player WHERE height > 1.8) "
     "WHERE STRFTIME('%Y', birthday) = '1992'",
     "SELECT name FROM player WHERE height > 1.8 AND STRFTIME('%Y', birthday) = '1992'"),
    ("derived-table-year-miss", "not_equivalent",
     "SELECT name FROM (SELECT name, birthday FROM player WHERE height >= 1.8) "
     "WHERE STRFTIME('%Y', birthday) = '1992'",
     "SELECT name FROM player WHERE height > 1.8 AND STRFTIME('%Y', birthday) = '1992'"),
    ("cte-length", "equivalent",
     "WITH p AS (SELECT * FROM player WHERE LENGTH(name) > 10) SELECT name FROM p",
     "SELECT name FROM player WHERE LENGTH(name) > 10"),
    ("cte-length-miss", "not_equivalent",
     "WITH p AS (SELECT * FROM player WHERE LENGTH(name) >= 10) SELECT name FROM p",
     "SELECT name FROM player WHERE LENGTH(name) > 10"),
    ("int-division-join-order", "equivalent",
     "SELECT m.id, m.home_goals / 2 FROM match m JOIN team t ON t.id = m.home_team",
     "SELECT m.id, m.home_goals / 2 FROM team t JOIN match m ON m.home_team = t.id"),
    ("int-division-miss", "not_equivalent",
     "SELECT m.id, m.home_goals / 2 FROM match m JOIN team t ON t.id = m.home_team",
     "SELECT m.id, m.home_goals / 2.0 FROM team t JOIN match m ON m.home_team = t.id"),
    ("concat-not", "equivalent",
     "SELECT t.name || ' (' || t.city || ')' FROM team t WHERE t.founded < 1900",
     "SELECT name || ' (' || city || ')' FROM team WHERE NOT founded >= 1900"),
    ("concat-not-miss", "not_equivalent",
     "SELECT t.name || ' (' || t.city || ')' FROM team t WHERE t.founded <= 1900",
     "SELECT name || ' (' || city || ')' FROM team WHERE NOT founded >= 1900"),
    ("group-by-alias-year", "equivalent",
     "SELECT STRFTIME('%Y', played_on) AS y, COUNT(*) FROM match "
     "GROUP BY STRFTIME('%Y', played_on)",
     "SELECT STRFTIME('%Y', played_on) AS y, COUNT(*) FROM match GROUP BY y"),
    ("scalar-sum-vs-left-join", "equivalent",
     "SELECT t.id, (SELECT SUM(m.home_goals) FROM match m WHERE m.home_team = t.id "
     "AND STRFTIME('%Y', m.played_on) = '2021') FROM team t",
     "SELECT t.id, SUM(m.home_goals) FROM team t LEFT JOIN match m ON m.home_team = t.id "
     "AND STRFTIME('%Y', m.played_on) = '2021' GROUP BY t.id"),
    ("scalar-sum-vs-left-join-miss", "not_equivalent",
     "SELECT t.id, (SELECT SUM(m.home_goals) FROM match m WHERE m.home_team = t.id "
     "AND STRFTIME('%Y', m.played_on) = '2021') FROM team t",
     "SELECT t.id, SUM(m.home_goals) FROM team t LEFT JOIN match m ON m.home_team = t.id "
     "WHERE STRFTIME('%Y', m.played_on) = '2021' GROUP BY t.id"),
    ("count-distinct-vs-subquery", "equivalent",
     "SELECT COUNT(DISTINCT team_id) FROM player WHERE INSTR(name, ' ') > 0",
     "SELECT COUNT(*) FROM (SELECT DISTINCT team_id FROM player "
     "WHERE INSTR(name, ' ') > 0 AND team_id IS NOT NULL)"),
    ("count-distinct-vs-subquery-miss", "not_equivalent",
     "SELECT COUNT(DISTINCT team_id) FROM player WHERE INSTR(name, ' ') > 0",
     "SELECT COUNT(*) FROM (SELECT DISTINCT team_id FROM player WHERE INSTR(name, ' ') > 0)"),
    ("text-dates-between", "equivalent",
     "SELECT id FROM match WHERE played_on BETWEEN '2022-01-01' AND '2022-12-31'",
     "SELECT id FROM match WHERE played_on >= '2022-01-01' AND played_on <= '2022-12-31'"),
    ("text-dates-between-miss", "not_equivalent",
     "SELECT id FROM match WHERE played_on BETWEEN '2022-01-01' AND '2022-12-31'",
     "SELECT id FROM match WHERE played_on >= '2022-01-01' AND played_on < '2022-12-31'"),
    ("upper-commuted", "equivalent",
     "SELECT name FROM team WHERE UPPER(city) = 'LEEDS'",
     "SELECT name FROM team WHERE 'LEEDS' = UPPER(city)"),
    ("aggregate-pushdown", "equivalent",
     "SELECT l.name, COUNT(*) FROM league l JOIN team t ON t.league_id = l.id "
     "WHERE SUBSTR(t.name, 1, 1) = 'A' GROUP BY l.id, l.name",
     "SELECT l.name, x.n FROM league l JOIN (SELECT league_id, COUNT(*) AS n FROM team "
     "WHERE SUBSTR(name, 1, 1) = 'A' GROUP BY league_id) x ON x.league_id = l.id"),
    ("aggregate-pushdown-miss", "not_equivalent",
     "SELECT l.name, COUNT(*) FROM league l JOIN team t ON t.league_id = l.id "
     "WHERE SUBSTR(t.name, 1, 1) = 'A' GROUP BY l.id, l.name",
     "SELECT l.name, x.n FROM league l LEFT JOIN (SELECT league_id, COUNT(*) AS n FROM team "
     "WHERE SUBSTR(name, 1, 1) = 'A' GROUP BY league_id) x ON x.league_id = l.id"),
    ("month-in-vs-or", "equivalent",
     "SELECT id FROM match WHERE STRFTIME('%m', played_on) IN ('06', '07')",
     "SELECT id FROM match WHERE STRFTIME('%m', played_on) = '06' "
     "OR STRFTIME('%m', played_on) = '07'"),
    ("month-in-vs-or-miss", "not_equivalent",
     "SELECT id FROM match WHERE STRFTIME('%m', played_on) IN ('06', '07')",
     "SELECT id FROM match WHERE STRFTIME('%m', played_on) = '06' "
     "OR STRFTIME('%m', played_on) = '08'"),
    ("not-in-vs-not-exists", "equivalent",
     "SELECT name FROM team WHERE id NOT IN (SELECT home_team FROM match "
     "WHERE home_team IS NOT NULL AND STRFTIME('%Y', played_on) = '2023')",
     "SELECT name FROM team WHERE NOT EXISTS (SELECT 1 FROM match m "
     "WHERE m.home_team = team.id AND STRFTIME('%Y', m.played_on) = '2023')"),
    ("not-in-vs-not-exists-miss", "not_equivalent",
     "SELECT name FROM team WHERE id NOT IN (SELECT home_team FROM match "
     "WHERE STRFTIME('%Y', played_on) = '2023')",
     "SELECT name FROM team WHERE NOT EXISTS (SELECT 1 FROM match m "
     "WHERE m.home_team = team.id AND STRFTIME('%Y', m.played_on) = '2023')"),
    ("distinct-vs-group-by-trim", "equivalent",
     "SELECT DISTINCT TRIM(city) FROM team",
     "SELECT TRIM(city) FROM team GROUP BY TRIM(city)"),
    ("round-in-single", "equivalent",
     "SELECT name, ROUND(height, 1) FROM player WHERE position = 'G'",
     "SELECT name, ROUND(height, 1) FROM player WHERE position IN ('G')"),
    ("round-miss", "not_equivalent",
     "SELECT name, ROUND(height, 1) FROM player WHERE position = 'G'",
     "SELECT name, ROUND(height) FROM player WHERE position IN ('G')"),
    ("date-commuted", "equivalent",
     "SELECT id FROM match WHERE DATE(played_on) > '2022-06-01'",
     "SELECT id FROM match WHERE '2022-06-01' < DATE(played_on)"),
    ("date-commuted-miss", "not_equivalent",
     "SELECT id FROM match WHERE DATE(played_on) > '2022-06-01'",
     "SELECT id FROM match WHERE '2022-06-01' <= DATE(played_on)"),
    ("having-order", "equivalent",
     "SELECT team_id FROM player GROUP BY team_id HAVING AVG(height) > 1.85 AND COUNT(*) > 3",
     "SELECT team_id FROM player GROUP BY team_id HAVING COUNT(*) > 3 AND AVG(height) > 1.85"),
    ("cast-join-vs-in", "equivalent",
     "SELECT COUNT(*) FROM player p JOIN team t ON CAST(p.team_id AS INTEGER) = t.id "
     "WHERE t.founded > 1950",
     "SELECT COUNT(*) FROM player WHERE CAST(team_id AS INTEGER) IN "
     "(SELECT id FROM team WHERE founded > 1950)"),
    ("cast-join-vs-in-miss", "not_equivalent",
     "SELECT COUNT(*) FROM player p JOIN team t ON CAST(p.team_id AS INTEGER) = t.id "
     "WHERE t.founded >= 1950",
     "SELECT COUNT(*) FROM player WHERE CAST(team_id AS INTEGER) IN "
     "(SELECT id FROM team WHERE founded > 1950)"),
    ("ifnull-vs-coalesce", "equivalent",
     "SELECT IFNULL(city, 'unknown') FROM team",
     "SELECT COALESCE(city, 'unknown') FROM team"),
    ("text-key-join-vs-in", "equivalent",
     "SELECT p.name FROM player p JOIN team t ON p.team_id = t.id WHERE t.city = 'Leeds'",
     "SELECT name FROM player WHERE team_id IN (SELECT id FROM team WHERE city = 'Leeds')"),
    ("text-key-join-vs-in-miss", "not_equivalent",
     "SELECT p.name FROM player p JOIN team t ON p.team_id = t.name WHERE t.city = 'Leeds'",
     "SELECT name FROM player WHERE team_id IN (SELECT id FROM team WHERE city = 'Leeds')"),
    ("real-division-spelling", "equivalent",
     "SELECT CAST(home_goals AS REAL) / away_goals FROM match WHERE away_goals > 0",
     "SELECT home_goals * 1.0 / away_goals FROM match WHERE away_goals > 0"),
    ("strftime-vs-substr-year-trap", "not_equivalent",
     "SELECT name FROM player WHERE SUBSTR(birthday, 1, 4) = '1995' AND birthday LIKE '____-__-__'",
     "SELECT name FROM player WHERE STRFTIME('%Y', birthday) = '1995' "
     "AND birthday LIKE '____-__-__'"),
    ("max-per-group-join", "equivalent",
     "SELECT t.name, MAX(p.height) FROM team t JOIN player p ON CAST(p.team_id AS INTEGER) = t.id "
     "WHERE LENGTH(p.name) > 5 GROUP BY t.id, t.name",
     "SELECT t.name, MAX(p.height) FROM player p JOIN team t ON t.id = CAST(p.team_id AS INTEGER) "
     "WHERE LENGTH(p.name) > 5 GROUP BY t.name, t.id"),
    ("percentage-real-literal-first", "equivalent",
     "SELECT 100.0 * SUM(CASE WHEN position = 'F' THEN 1 ELSE 0 END) / COUNT(*) FROM player",
     "SELECT CAST(SUM(CASE WHEN position = 'F' THEN 1 ELSE 0 END) AS REAL) * 100 / COUNT(*) "
     "FROM player"),
    ("percentage-real-literal-last", "equivalent",
     "SELECT SUM(IIF(home_goals > away_goals, 1, 0)) * 100.0 / COUNT(*) FROM match",
     "SELECT CAST(SUM(IIF(home_goals > away_goals, 1, 0)) AS REAL) * 100 / COUNT(*) FROM match"),
    ("percentage-integer-division-miss", "not_equivalent",
     "SELECT 100 * SUM(IIF(home_goals > away_goals, 1, 0)) / COUNT(*) FROM match",
     "SELECT CAST(SUM(IIF(home_goals > away_goals, 1, 0)) AS REAL) * 100 / COUNT(*) FROM match"),
    ("half-height-real-spellings", "equivalent",
     "SELECT name, height * 1.0 / 2 FROM player",
     "SELECT name, CAST(height AS REAL) / 2.0 FROM player"),
]


def main() -> None:
    out = Path(__file__).resolve().parent / "sqlite.jsonl"
    with out.open("w", encoding="utf-8") as f:
        for pair_id, expect, candidate, reference in PAIRS:
            f.write(json.dumps({"id": pair_id, "part": "sqlite", "expect": expect,
                                "schema": SCHEMA, "dialect": "sqlite",
                                "candidate": candidate, "reference": reference}) + "\n")
    print(f"wrote {len(PAIRS)} pairs to {out}")


if __name__ == "__main__":
    main()
