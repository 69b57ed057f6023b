"""Write examples/data/bank.sqlite: a small bank's database, shaped like BIRD's
``financial`` (run it again after editing; the output is the same every time).

Its quirks are BIRD's: no foreign key is declared (clients name their district,
dispositions their client and account, loans their account, cards their disposition),
dates kept as text, codes kept as categories (a Czech account frequency, a loan status
'A'-'D', a card type), an account that has one loan at most in practice, one OWNER
disposition per account, a region spelled in lower case, and a nullable gender that the
data never leaves NULL.

    python examples/data/make_bank.py
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

HERE = Path(__file__).resolve().parent
DDL = """
CREATE TABLE district (
    district_id INTEGER PRIMARY KEY,
    name TEXT,
    region TEXT,
    inhabitants INTEGER
);
CREATE TABLE client (
    client_id INTEGER PRIMARY KEY,
    gender TEXT,
    birth_date TEXT,
    district_id INTEGER
);
CREATE TABLE account (
    account_id INTEGER PRIMARY KEY,
    district_id INTEGER,
    frequency TEXT,
    date TEXT
);
CREATE TABLE disp (
    disp_id INTEGER PRIMARY KEY,
    client_id INTEGER,
    account_id INTEGER,
    type TEXT
);
CREATE TABLE loan (
    loan_id INTEGER PRIMARY KEY,
    account_id INTEGER,
    date TEXT,
    amount INTEGER,
    duration INTEGER,
    payments REAL,
    status TEXT
);
CREATE TABLE card (
    card_id INTEGER PRIMARY KEY,
    disp_id INTEGER,
    type TEXT,
    issued TEXT
);
"""

REGIONS = ["Prague", "central Bohemia", "south Bohemia", "west Bohemia", "north Moravia"]
TOWNS = ["Hl.m. Praha", "Benesov", "Beroun", "Kladno", "Kolin", "Tabor", "Pisek", "Strakonice",
         "Plzen - mesto", "Klatovy", "Cheb", "Karvina", "Ostrava - mesto", "Opava", "Frydek",
         "Novy Jicin", "Bruntal", "Jesenik", "Sumperk", "Olomouc"]  # fmt: skip
FREQUENCIES = ["POPLATEK MESICNE", "POPLATEK TYDNE", "POPLATEK PO OBRATU"]


def _day(rng: random.Random, first: int, last: int) -> str:
    return f"{rng.randint(first, last)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def build(path: Path) -> None:
    rng = random.Random(1999)
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.executescript(DDL)
    districts = [(i + 1, town, REGIONS[min(i // 4, 4)], rng.randint(40_000, 1_200_000))
                 for i, town in enumerate(TOWNS)]  # fmt: skip
    con.executemany("INSERT INTO district VALUES (?, ?, ?, ?)", districts)
    clients = [(i + 1, rng.choice("FM"), _day(rng, 1935, 1985), rng.randint(1, 20))
               for i in range(300)]  # fmt: skip
    con.executemany("INSERT INTO client VALUES (?, ?, ?, ?)", clients)
    accounts = [(i + 1, rng.randint(1, 20), rng.choices(FREQUENCIES, (8, 1, 1))[0],
                 _day(rng, 1993, 1997)) for i in range(250)]  # fmt: skip
    con.executemany("INSERT INTO account VALUES (?, ?, ?, ?)", accounts)
    disps = []
    owners = rng.sample(range(1, 301), 250)
    for account_id, client_id in enumerate(owners, 1):
        disps.append((len(disps) + 1, client_id, account_id, "OWNER"))
    for account_id in rng.sample(range(1, 251), 50):
        disps.append((len(disps) + 1, rng.randint(1, 300), account_id, "DISPONENT"))
    con.executemany("INSERT INTO disp VALUES (?, ?, ?, ?)", disps)
    loans = []
    for n, account_id in enumerate(sorted(rng.sample(range(1, 251), 80)), 1):
        duration = rng.choice([12, 24, 36, 48, 60])
        amount = rng.randrange(4_980, 590_820, 12)
        loans.append((n, account_id, _day(rng, 1993, 1998), amount, duration,
                      round(amount / duration, 1), rng.choices("ABCD", (4, 1, 6, 1))[0]))  # fmt: skip
    con.executemany("INSERT INTO loan VALUES (?, ?, ?, ?, ?, ?, ?)", loans)
    cards = [(n, disp_id, rng.choices(["classic", "junior", "gold"], (6, 2, 1))[0],
              _day(rng, 1994, 1998) + " 00:00:00")
             for n, disp_id in enumerate(sorted(rng.sample(range(1, 251), 60)), 1)]  # fmt: skip
    con.executemany("INSERT INTO card VALUES (?, ?, ?, ?)", cards)
    con.commit()
    con.close()


if __name__ == "__main__":
    build(HERE / "bank.sqlite")
    print(f"wrote {HERE / 'bank.sqlite'}")
