# ruff: noqa: E501
"""Writes pairs.jsonl: text-to-SQL style pairs over examples/data/league.sqlite (Spider's
shape) and examples/data/bank.sqlite (BIRD's financial, in small).

Each entry: (id, question, gold, prediction). They are what a model gets wrong, and
right, on a Spider-shaped database: boundaries, joins that drop the unmatched, NULLs a
column never holds in the data, names that are unique only in practice, TEXT joined to
INTEGER, categories, dates as text, and rewrites that are right.

    python benchmarks/data_tiers/make_pairs.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

PAIRS: list[tuple[str, str, str, str]] = [
    # -- boundaries and filters
    ("tall-gt", "How many players are at least 1.90 m tall?", "SELECT COUNT(*) FROM player WHERE height >= 1.9", "SELECT COUNT(*) FROM player WHERE height > 1.9"),
    ("tall-between", "How many players are between 1.80 and 1.90 m?", "SELECT COUNT(*) FROM player WHERE height BETWEEN 1.8 AND 1.9", "SELECT COUNT(*) FROM player WHERE height > 1.8 AND height < 1.9"),
    ("old-teams", "Which teams were founded before 1900?", "SELECT name FROM team WHERE founded < 1900", "SELECT name FROM team WHERE founded <= 1900"),
    ("season-2022", "How many matches were played in the 2022 season?", "SELECT COUNT(*) FROM match WHERE season = '2022'", "SELECT COUNT(*) FROM match WHERE played_on LIKE '2022%'"),
    ("season-2022-range", "How many matches were played in 2022?", "SELECT COUNT(*) FROM match WHERE played_on >= '2022-01-01' AND played_on < '2023-01-01'", "SELECT COUNT(*) FROM match WHERE played_on BETWEEN '2022-01-01' AND '2022-12-31'"),
    ("home-wins", "How many matches did the home team win?", "SELECT COUNT(*) FROM match WHERE home_goals > away_goals", "SELECT COUNT(*) FROM match WHERE home_goals >= away_goals"),
    ("draws", "How many matches ended in a draw?", "SELECT COUNT(*) FROM match WHERE home_goals = away_goals", "SELECT COUNT(*) FROM match WHERE home_goals - away_goals = 0"),
    ("goalless", "How many matches had no goal?", "SELECT COUNT(*) FROM match WHERE home_goals = 0 AND away_goals = 0", "SELECT COUNT(*) FROM match WHERE home_goals + away_goals = 0"),
    ("or-precedence", "Which goalkeepers or defenders are taller than 1.9 m?", "SELECT name FROM player WHERE (position = 'G' OR position = 'D') AND height > 1.9", "SELECT name FROM player WHERE position = 'G' OR position = 'D' AND height > 1.9"),
    ("position-in", "Which players are goalkeepers or defenders?", "SELECT name FROM player WHERE position IN ('G', 'D')", "SELECT name FROM player WHERE position = 'G' OR position = 'D'"),
    ("born-90s", "Which players were born in the 1990s?", "SELECT name FROM player WHERE birthday >= '1990-01-01' AND birthday < '2000-01-01'", "SELECT name FROM player WHERE birthday BETWEEN '1990-01-01' AND '1999-12-31'"),
    ("born-year", "Which players were born in 1995?", "SELECT name FROM player WHERE birthday LIKE '1995-%'", "SELECT name FROM player WHERE substr(birthday, 1, 4) = '1995'"),
    # -- NULLs
    ("count-height", "How many players have a known height?", "SELECT COUNT(height) FROM player", "SELECT COUNT(*) FROM player"),
    ("avg-height", "What is the players' average height?", "SELECT AVG(height) FROM player", "SELECT SUM(height) / COUNT(*) FROM player"),
    ("no-height", "Which players have no height recorded?", "SELECT name FROM player WHERE height IS NULL", "SELECT name FROM player WHERE height = NULL"),
    ("short-or-unknown", "Which players are not taller than 1.8 m?", "SELECT name FROM player WHERE NOT height > 1.8", "SELECT name FROM player WHERE height <= 1.8 OR height IS NULL"),
    ("never-home", "Which teams never played at home?", "SELECT t.name FROM team t WHERE NOT EXISTS (SELECT 1 FROM match m WHERE m.home_team = t.id)", "SELECT name FROM team WHERE id NOT IN (SELECT home_team FROM match)"),
    ("never-away", "Which teams never played away?", "SELECT t.name FROM team t LEFT JOIN match m ON m.away_team = t.id WHERE m.id IS NULL", "SELECT name FROM team WHERE id NOT IN (SELECT away_team FROM match)"),
    ("city-known", "List every team's city.", "SELECT city FROM team", "SELECT city FROM team WHERE city IS NOT NULL"),
    ("founded-max", "When was the newest team founded?", "SELECT MAX(founded) FROM team", "SELECT founded FROM team ORDER BY founded DESC LIMIT 1"),
    # -- joins
    ("league-teams-left", "How many teams does each league have?", "SELECT l.name, COUNT(t.id) FROM league l LEFT JOIN team t ON t.league_id = l.id GROUP BY l.id", "SELECT l.name, COUNT(*) FROM league l JOIN team t ON t.league_id = l.id GROUP BY l.id"),
    ("team-players-left", "How many players does each team have?", "SELECT t.name, COUNT(p.id) FROM team t LEFT JOIN player p ON p.team_id = t.id GROUP BY t.id", "SELECT t.name, COUNT(*) FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.id"),
    ("team-players-star", "How many players does each team have, teams without players included?", "SELECT t.name, COUNT(p.id) FROM team t LEFT JOIN player p ON p.team_id = t.id GROUP BY t.id", "SELECT t.name, COUNT(*) FROM team t LEFT JOIN player p ON p.team_id = t.id GROUP BY t.id"),
    ("player-team-name", "List each player with the name of their team.", "SELECT p.name, t.name FROM player p JOIN team t ON p.team_id = t.id", "SELECT p.name, t.name FROM player p LEFT JOIN team t ON p.team_id = t.id"),
    ("player-league", "List each player with their league.", "SELECT p.name, l.name FROM player p JOIN team t ON p.team_id = t.id JOIN league l ON t.league_id = l.id", "SELECT p.name, l.name FROM player p JOIN team t ON p.team_id = t.id JOIN league l ON l.id = t.id"),
    ("home-team-name", "List every match with its home team's name.", "SELECT m.id, t.name FROM match m JOIN team t ON t.id = m.home_team", "SELECT m.id, t.name FROM match m JOIN team t ON t.id = m.away_team"),
    ("england-teams", "Which teams play in England?", "SELECT t.name FROM team t JOIN league l ON t.league_id = l.id WHERE l.country = 'England'", "SELECT t.name FROM team t WHERE t.league_id IN (SELECT id FROM league WHERE country = 'England')"),
    ("england-teams-in", "Which teams play in England? (by league name)", "SELECT t.name FROM team t JOIN league l ON t.league_id = l.id WHERE l.country = 'England'", "SELECT t.name FROM team t JOIN league l ON t.league_id = l.id WHERE l.name = 'Premier'"),
    ("premier-players", "How many players play in the Premier league?", "SELECT COUNT(*) FROM player p JOIN team t ON p.team_id = t.id JOIN league l ON t.league_id = l.id WHERE l.name = 'Premier'", "SELECT COUNT(*) FROM player p JOIN team t ON p.team_id = t.id WHERE t.league_id = 1"),
    # -- grouping and names
    ("players-by-team-name", "How many players does each team have (by name)?", "SELECT t.name, COUNT(*) FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.id", "SELECT t.name, COUNT(*) FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.name"),
    ("teams-by-city", "How many teams are there in each city?", "SELECT city, COUNT(*) FROM team GROUP BY city", "SELECT city, COUNT(DISTINCT name) FROM team GROUP BY city"),
    ("cities", "Which cities have a team?", "SELECT DISTINCT city FROM team", "SELECT city FROM team"),
    ("positions", "How many players play each position?", "SELECT position, COUNT(*) FROM player GROUP BY position", "SELECT position, COUNT(id) FROM player GROUP BY position"),
    ("big-teams", "Which teams have more than 10 players?", "SELECT t.name FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.id HAVING COUNT(*) > 10", "SELECT t.name FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.id HAVING COUNT(*) >= 10"),
    ("goals-per-team", "How many home goals did each team score?", "SELECT home_team, SUM(home_goals) FROM match GROUP BY home_team", "SELECT home_team, COUNT(home_goals) FROM match GROUP BY home_team"),
    ("seasons", "How many matches per season?", "SELECT season, COUNT(*) FROM match GROUP BY season", "SELECT substr(played_on, 1, 4), COUNT(*) FROM match GROUP BY substr(played_on, 1, 4)"),
    ("tallest-team", "Which team has the tallest player?", "SELECT t.name FROM team t JOIN player p ON p.team_id = t.id ORDER BY p.height DESC LIMIT 1", "SELECT t.name FROM team t JOIN player p ON p.team_id = t.id WHERE p.height = (SELECT MAX(height) FROM player)"),
    ("most-players", "Which team has the most players?", "SELECT t.name FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.id ORDER BY COUNT(*) DESC LIMIT 1", "SELECT t.name FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.name ORDER BY COUNT(*) DESC LIMIT 1"),
    ("leagues-by-name", "How many teams per league name?", "SELECT l.name, COUNT(*) FROM league l JOIN team t ON t.league_id = l.id GROUP BY l.id", "SELECT l.name, COUNT(*) FROM league l JOIN team t ON t.league_id = l.id GROUP BY l.name"),
    ("total-goals", "How many goals were scored in all?", "SELECT SUM(home_goals + away_goals) FROM match", "SELECT SUM(home_goals) + SUM(away_goals) FROM match"),
    ("total-goals-empty", "How many goals were scored, zero if none?", "SELECT COALESCE(SUM(home_goals + away_goals), 0) FROM match", "SELECT SUM(home_goals + away_goals) FROM match"),
    ("count-case", "How many matches ended with a home win?", "SELECT COUNT(*) FROM match WHERE home_goals > away_goals", "SELECT SUM(CASE WHEN home_goals > away_goals THEN 1 ELSE 0 END) FROM match"),
    # -- rewrites that are right
    ("eq-alias", "List the teams.", "SELECT name FROM team", "SELECT t.name FROM team AS t"),
    ("eq-exists", "Which teams played at home?", "SELECT t.name FROM team t WHERE t.id IN (SELECT home_team FROM match)", "SELECT t.name FROM team t WHERE EXISTS (SELECT 1 FROM match m WHERE m.home_team = t.id)"),
    ("eq-between", "Players between 1.8 and 1.9 m.", "SELECT name FROM player WHERE height BETWEEN 1.8 AND 1.9", "SELECT name FROM player WHERE height >= 1.8 AND height <= 1.9"),
    ("eq-count-key", "How many teams?", "SELECT COUNT(*) FROM team", "SELECT COUNT(id) FROM team"),
    ("eq-distinct-key", "List team ids.", "SELECT DISTINCT id FROM team", "SELECT id FROM team"),
    ("eq-join-order", "Players with their team.", "SELECT p.name, t.name FROM player p JOIN team t ON p.team_id = t.id", "SELECT p.name, t.name FROM team t JOIN player p ON t.id = p.team_id"),
    ("eq-group-key", "Players per team id.", "SELECT team_id, COUNT(*) FROM player GROUP BY team_id", "SELECT team_id, COUNT(id) FROM player GROUP BY team_id"),
    ("eq-not", "Non-goalkeepers.", "SELECT name FROM player WHERE NOT position = 'G'", "SELECT name FROM player WHERE position <> 'G'"),
    ("eq-cte", "Teams founded before 1900.", "WITH old AS (SELECT * FROM team WHERE founded < 1900) SELECT name FROM old", "SELECT name FROM team WHERE founded < 1900"),
    ("eq-derived", "Goals per match.", "SELECT g FROM (SELECT home_goals + away_goals AS g FROM match) x", "SELECT home_goals + away_goals FROM match"),
    ("eq-having-where", "Teams of league 1 with players.", "SELECT t.id, COUNT(*) FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.id HAVING t.id < 10", "SELECT t.id, COUNT(*) FROM team t JOIN player p ON p.team_id = t.id WHERE t.id < 10 GROUP BY t.id"),
    ("eq-or-in", "Matches of seasons 2021 and 2022.", "SELECT id FROM match WHERE season IN ('2021', '2022')", "SELECT id FROM match WHERE season = '2021' OR season = '2022'"),
    # -- more that differ
    ("home-or-away", "How many matches did team 1 play?", "SELECT COUNT(*) FROM match WHERE home_team = 1 OR away_team = 1", "SELECT COUNT(*) FROM match WHERE home_team = 1"),
    ("distinct-count", "How many cities have a team?", "SELECT COUNT(DISTINCT city) FROM team", "SELECT COUNT(city) FROM team"),
    ("limit-3", "The three tallest players.", "SELECT name FROM player ORDER BY height DESC LIMIT 3", "SELECT name FROM player WHERE height IS NOT NULL ORDER BY height DESC LIMIT 3"),
    ("avg-goals", "The average number of home goals.", "SELECT AVG(home_goals) FROM match", "SELECT AVG(CAST(home_goals AS REAL)) FROM match"),
    ("int-division", "Goals per match, as a fraction.", "SELECT SUM(home_goals + away_goals) * 1.0 / COUNT(*) FROM match", "SELECT SUM(home_goals + away_goals) / COUNT(*) FROM match"),
    ("text-id-join", "Players of team 7.", "SELECT name FROM player WHERE team_id = 7", "SELECT name FROM player WHERE team_id = '7'"),
    ("text-id-order", "Players ordered by team.", "SELECT name, team_id FROM player WHERE team_id > 9", "SELECT name, team_id FROM player WHERE CAST(team_id AS INTEGER) > 9"),
    ("union-all", "Teams that played at home or away.", "SELECT home_team FROM match UNION SELECT away_team FROM match", "SELECT home_team FROM match UNION ALL SELECT away_team FROM match"),
    ("country-case", "Teams in England.", "SELECT t.name FROM team t JOIN league l ON t.league_id = l.id WHERE l.country = 'England'", "SELECT t.name FROM team t JOIN league l ON t.league_id = l.id WHERE l.country = 'england'"),
    ("like-case", "Leagues whose name starts with 'l'.", "SELECT name FROM league WHERE name LIKE 'l%'", "SELECT name FROM league WHERE substr(name, 1, 1) = 'l'"),
]


#: Over examples/data/bank.sqlite (BIRD's financial, in small): what BIRD's predictions
#: get wrong and right there.
BANK: list[tuple[str, str, str, str]] = [
    ("bank-female-district", "How many female clients live in Beroun?", "SELECT COUNT(*) FROM client c JOIN district d ON c.district_id = d.district_id WHERE d.name = 'Beroun' AND c.gender = 'F'", "SELECT COUNT(DISTINCT c.client_id) FROM client c JOIN district d ON c.district_id = d.district_id WHERE d.name = 'Beroun' AND c.gender = 'F'"),
    ("bank-status-share", "What share of loans have status A?", "SELECT CAST(SUM(CASE WHEN status = 'A' THEN 1 ELSE 0 END) AS REAL) * 100 / COUNT(*) FROM loan", "SELECT CAST(COUNT(CASE WHEN status = 'A' THEN 1 END) AS REAL) * 100 / COUNT(loan_id) FROM loan"),
    ("bank-loans-1997", "How many loans were granted in 1997?", "SELECT COUNT(*) FROM loan WHERE STRFTIME('%Y', date) = '1997'", "SELECT COUNT(*) FROM loan WHERE date LIKE '1997%'"),
    ("bank-loans-1997-between", "How many loans were granted in 1997? (a range)", "SELECT COUNT(*) FROM loan WHERE STRFTIME('%Y', date) = '1997'", "SELECT COUNT(*) FROM loan WHERE date BETWEEN '1997-01-01' AND '1997-12-31'"),
    ("bank-card-owners", "Which clients have a card?", "SELECT DISTINCT d.client_id FROM disp d JOIN card c ON c.disp_id = d.disp_id", "SELECT client_id FROM disp WHERE disp_id IN (SELECT disp_id FROM card)"),
    ("bank-weekly-prague", "Which accounts in Prague are issued weekly?", "SELECT a.account_id FROM account a JOIN district d ON a.district_id = d.district_id WHERE d.region = 'Prague' AND a.frequency = 'POPLATEK TYDNE'", "SELECT account_id FROM account WHERE frequency = 'POPLATEK TYDNE' AND district_id IN (SELECT district_id FROM district WHERE region = 'Prague')"),
    ("bank-avg-loan-1993", "The average loan of accounts opened in 1993.", "SELECT AVG(l.amount) FROM loan l JOIN account a ON l.account_id = a.account_id WHERE STRFTIME('%Y', a.date) = '1993'", "SELECT AVG(amount) FROM loan WHERE account_id IN (SELECT account_id FROM account WHERE STRFTIME('%Y', date) = '1993')"),
    ("bank-oldest-client", "Which client is the oldest?", "SELECT client_id FROM client ORDER BY birth_date LIMIT 1", "SELECT client_id FROM client WHERE birth_date = (SELECT MIN(birth_date) FROM client)"),
    ("bank-no-loan", "How many accounts have no loan?", "SELECT COUNT(*) FROM account WHERE account_id NOT IN (SELECT account_id FROM loan)", "SELECT COUNT(*) FROM account a LEFT JOIN loan l ON l.account_id = a.account_id WHERE l.loan_id IS NULL"),
    ("bank-owners", "How many account owners are there?", "SELECT COUNT(*) FROM disp WHERE type = 'OWNER'", "SELECT COUNT(DISTINCT client_id) FROM disp WHERE type = 'OWNER'"),
    ("bank-biggest-loan-district", "In which district is the account with the biggest loan?", "SELECT d.name FROM loan l JOIN account a ON l.account_id = a.account_id JOIN district d ON a.district_id = d.district_id ORDER BY l.amount DESC LIMIT 1", "SELECT d.name FROM loan l JOIN account a ON l.account_id = a.account_id JOIN district d ON a.district_id = d.district_id WHERE l.amount = (SELECT MAX(amount) FROM loan)"),
    ("bank-young-by-gender", "How many clients born after 1980, by gender?", "SELECT gender, COUNT(*) FROM client WHERE birth_date > '1980-12-31' GROUP BY gender", "SELECT gender, SUM(CASE WHEN birth_date > '1980-12-31' THEN 1 ELSE 0 END) FROM client GROUP BY gender"),
    ("bank-monthly-payment", "Each loan's monthly amount.", "SELECT loan_id, CAST(amount AS REAL) / duration FROM loan", "SELECT loan_id, amount / duration FROM loan"),
    ("bank-payments-5000", "Loans with payments of 5000 or more.", "SELECT loan_id FROM loan WHERE payments >= 5000", "SELECT loan_id FROM loan WHERE payments > 5000"),
    ("bank-status-in", "Loans with status A or C.", "SELECT loan_id FROM loan WHERE status IN ('A', 'C')", "SELECT loan_id FROM loan WHERE status = 'A' OR status = 'C'"),
    ("bank-cards-per-disp", "How many cards has each disposition?", "SELECT d.disp_id, COUNT(c.card_id) FROM disp d LEFT JOIN card c ON c.disp_id = d.disp_id GROUP BY d.disp_id", "SELECT d.disp_id, COUNT(*) FROM disp d LEFT JOIN card c ON c.disp_id = d.disp_id GROUP BY d.disp_id"),
    ("bank-long-loans-total", "The total of the 72-month loans.", "SELECT SUM(amount) FROM loan WHERE duration = 72", "SELECT TOTAL(amount) FROM loan WHERE duration = 72"),
    ("bank-region-case", "Accounts in south Bohemia.", "SELECT a.account_id FROM account a JOIN district d ON a.district_id = d.district_id WHERE d.region = 'south Bohemia'", "SELECT a.account_id FROM account a JOIN district d ON a.district_id = d.district_id WHERE LOWER(d.region) = 'south bohemia'"),
    ("bank-women", "How many women are clients?", "SELECT COUNT(*) FROM client WHERE gender = 'F'", "SELECT COUNT(*) FROM client WHERE gender <> 'M'"),
    ("bank-loans-per-account", "How many accounts have a loan?", "SELECT COUNT(DISTINCT account_id) FROM loan", "SELECT COUNT(*) FROM loan"),
    ("bank-above-average", "Loans above the average amount.", "SELECT loan_id FROM loan WHERE amount > (SELECT AVG(amount) FROM loan)", "SELECT loan_id FROM loan WHERE amount >= (SELECT AVG(amount) FROM loan)"),
    ("bank-gold-owners", "Owners of gold cards.", "SELECT d.client_id FROM card c JOIN disp d ON c.disp_id = d.disp_id WHERE c.type = 'gold' AND d.type = 'OWNER'", "SELECT d.client_id FROM card c JOIN disp d ON c.disp_id = d.disp_id WHERE c.type = 'gold'"),
    ("bank-issued-1998", "Cards issued in 1998.", "SELECT card_id FROM card WHERE issued LIKE '1998%'", "SELECT card_id FROM card WHERE issued >= '1998-01-01' AND issued < '1999-01-01'"),
    ("bank-district-clients", "How many clients per district name?", "SELECT d.name, COUNT(*) FROM client c JOIN district d ON c.district_id = d.district_id GROUP BY d.district_id", "SELECT d.name, COUNT(*) FROM client c JOIN district d ON c.district_id = d.district_id GROUP BY d.name"),
    ("bank-eq-count-key", "How many loans?", "SELECT COUNT(*) FROM loan", "SELECT COUNT(loan_id) FROM loan"),
    ("bank-eq-exists", "Accounts with a loan.", "SELECT account_id FROM account WHERE account_id IN (SELECT account_id FROM loan)", "SELECT a.account_id FROM account a WHERE EXISTS (SELECT 1 FROM loan l WHERE l.account_id = a.account_id)"),
]


def main() -> None:
    with (HERE / "pairs.jsonl").open("w", encoding="utf-8") as fh:
        for source, pairs in (("examples/data/league.sqlite", PAIRS),
                              ("examples/data/bank.sqlite", BANK)):  # fmt: skip
            for pid, question, gold, pred in pairs:
                fh.write(json.dumps({"id": pid, "question": question, "schema": source,
                                     "data": source, "dialect": "sqlite",
                                     "reference": gold, "candidate": pred}) + "\n")  # fmt: skip
    print(f"pairs.jsonl: {len(PAIRS) + len(BANK)} pairs")


if __name__ == "__main__":
    main()
