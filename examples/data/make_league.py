"""Write examples/data/league.sqlite: a football league's database, shaped like Spider's
and BIRD's (run it again after editing; the output is the same every time).

Its quirks are theirs: no foreign key is declared (teams name their league, matches
their teams, players their team), a player's team is kept as TEXT while teams are keyed
by INTEGER (``'7'`` joins ``7`` in SQLite), names are unique in practice but not
declared so, nullable columns that the data never leaves NULL (a team's city, a match's
season) next to one that it does (a player's height), categories (a player's position,
a match's season) and dates kept as text.

    python examples/data/make_league.py
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

HERE = Path(__file__).resolve().parent
DDL = """
CREATE TABLE league (
    id INTEGER PRIMARY KEY,
    name TEXT,
    country TEXT
);
CREATE TABLE team (
    id INTEGER PRIMARY KEY,
    league_id INTEGER,
    name TEXT,
    city TEXT,
    founded INTEGER
);
CREATE TABLE player (
    id INTEGER PRIMARY KEY,
    team_id TEXT,
    name TEXT,
    position TEXT,
    height REAL,
    birthday TEXT
);
CREATE TABLE match (
    id INTEGER PRIMARY KEY,
    season TEXT,
    played_on TEXT,
    home_team INTEGER,
    away_team INTEGER,
    home_goals INTEGER,
    away_goals INTEGER
);
"""

LEAGUES = [("Premier", "England"), ("Liga", "Spain"), ("Serie A", "Italy"),
           ("Bundesliga", "Germany"), ("Ligue 1", "France")]  # fmt: skip
CITIES = ["Northport", "Eastvale", "Westfield", "Southbay", "Riverton", "Hillcrest", "Lakeside",
          "Stonebridge", "Fairview", "Oakmont", "Pinehurst", "Brookfield"]  # fmt: skip
FIRST = ["Ana", "Ben", "Caro", "Dmitri", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai",
         "Lea", "Mo", "Nia", "Oto", "Pia", "Quinn", "Rui", "Sol", "Teo"]  # fmt: skip
LAST = ["Abe", "Berg", "Costa", "Diaz", "Ek", "Faro", "Grau", "Holm", "Ito", "Jansen", "Kova",
        "Lund", "Moss", "Nagy", "Ortiz", "Pavl", "Rossi", "Silva", "Tan", "Ueda"]  # fmt: skip


def build(path: Path) -> None:
    rng = random.Random(2026)
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.executescript(DDL)
    con.executemany("INSERT INTO league VALUES (?, ?, ?)",
                    [(i + 1, n, c) for i, (n, c) in enumerate(LEAGUES)])  # fmt: skip
    teams = []
    for i in range(40):
        league = i % 5 + 1
        teams.append((i + 1, league, f"{CITIES[i % 12]} {['United', 'City', 'Rovers', 'FC'][i // 12]}",
                      CITIES[i % 12], rng.randint(1880, 1990)))  # fmt: skip
    con.executemany("INSERT INTO team VALUES (?, ?, ?, ?, ?)", teams)
    players = []
    names = set()
    for i in range(400):
        while True:
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if name not in names:
                names.add(name)
                break
        height = None if rng.random() < 0.1 else round(rng.uniform(1.65, 2.02), 2)
        born = f"{rng.randint(1988, 2005)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        players.append((i + 1, str(i % 40 + 1), name, rng.choice(["G", "D", "M", "F"]),
                        height, born))  # fmt: skip
    con.executemany("INSERT INTO player VALUES (?, ?, ?, ?, ?, ?)", players)
    matches = []
    for i in range(600):
        league = i % 5
        home, away = rng.sample([t for t in range(1, 41) if (t - 1) % 5 == league], 2)
        season = ["2021", "2022", "2023"][i // 200]
        day = f"{season}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        matches.append((i + 1, season, day, home, away, rng.randint(0, 5), rng.randint(0, 4)))
    con.executemany("INSERT INTO match VALUES (?, ?, ?, ?, ?, ?, ?)", matches)
    con.commit()
    con.close()


if __name__ == "__main__":
    build(HERE / "league.sqlite")
    print(f"wrote {HERE / 'league.sqlite'}")
