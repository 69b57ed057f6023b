# ruff: noqa: E501
"""Writes pairs_sqlite.jsonl and pairs_duckdb.jsonl from the table below.

Each entry: (dialects, schema, class, expected, question, reference (gold), candidate
(a plausible text-to-SQL prediction), why). ``dialects`` is "s" (SQLite), "d" (DuckDB) or
"sd" (the same pair, same label, on both; every third not_equivalent "sd" pair is
written for SQLite only, to keep the files about 60/40). For a not_equivalent label ``why`` names a
database that separates the two queries (with no ties left to the engine); for an
equivalent one it says why they agree.

    python benchmarks/floor/make_pairs.py      # rewrites the two .jsonl files
"""

from __future__ import annotations

import json
from pathlib import Path

NE, EQ = "not_equivalent", "equivalent"
HERE = Path(__file__).resolve().parent

# fmt: off
CARS_TOP = ("SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
            "GROUP BY c.country_id, c.country_name ORDER BY COUNT(*) DESC LIMIT 1")
PAIRS: list[tuple[str, str, str, str, str, str, str, str]] = [
    # ------------------------------------------------------------------ cars
    ("sd", "cars", "tie", NE, "Which country has the most car makers?",
     CARS_TOP,
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_name ORDER BY COUNT(*) DESC LIMIT 1",
     "countries 1 'x' and 2 'x' with 2 makers each, country 3 'y' with 3: gold 'y', prediction "
     "'x' (4 by name)"),
    ("sd", "cars", "tie", NE, "Which country has the most car makers, and how many?",
     "SELECT c.country_name, COUNT(*) FROM countries c JOIN car_makers m ON m.country = "
     "c.country_id GROUP BY c.country_id, c.country_name ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT c.country_name, COUNT(*) FROM countries c JOIN car_makers m ON m.country = "
     "c.country_id GROUP BY c.country_name ORDER BY COUNT(*) DESC LIMIT 1",
     "two countries named 'x' with one maker each: gold ('x', 1), prediction ('x', 2)"),
    ("s", "cars", "tie", NE, "Which country has the most car makers?",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_id ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT c.country_name, COUNT(*) FROM countries c JOIN car_makers m ON m.country = "
     "c.country_id GROUP BY c.country_id ORDER BY COUNT(*) DESC LIMIT 1",
     "any country with a maker: one column vs two"),
    ("d", "cars", "tie", NE, "Which country has the most car makers?",
     CARS_TOP,
     "SELECT c.country_name, COUNT(*) AS n FROM countries c JOIN car_makers m ON m.country = "
     "c.country_id GROUP BY c.country_id, c.country_name ORDER BY n DESC LIMIT 1",
     "any country with a maker: one column vs two"),
    ("sd", "cars", "tie", NE, "What is the id of the car with the highest horsepower?",
     "SELECT id FROM cars_data WHERE horsepower = (SELECT MAX(horsepower) FROM cars_data)",
     "SELECT id FROM cars_data ORDER BY horsepower DESC LIMIT 1",
     "two cars with horsepower 100: gold both ids, prediction one"),
    ("sd", "cars", "order", NE, "What is the id of the car with the lowest mpg?",
     "SELECT id FROM cars_data ORDER BY mpg ASC LIMIT 1",
     "SELECT id FROM cars_data ORDER BY mpg DESC LIMIT 1",
     "cars 1 (mpg 10) and 2 (mpg 20): gold 1, prediction 2"),
    ("s", "cars", "tie", NE, "Which car maker (full name) has the most models?",
     "SELECT m.full_name FROM car_makers m JOIN model_list l ON l.maker = m.id "
     "GROUP BY m.id ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT m.full_name FROM car_makers m JOIN model_list l ON l.maker = m.id "
     "GROUP BY m.maker ORDER BY COUNT(*) DESC LIMIT 1",
     "makers 1 ('x','A') and 2 ('x','B') with 2 models each, maker 3 ('y','C') with 3: gold "
     "'C', prediction 'A' or 'B'"),
    ("sd", "cars", "tie_eq", EQ, "Which country has the most car makers?",
     CARS_TOP,
     "SELECT T1.country_name FROM countries AS T1 JOIN car_makers AS T2 ON T1.country_id = "
     "T2.country GROUP BY T1.country_id, T1.country_name ORDER BY count(*) DESC LIMIT 1",
     "alias and join-condition order only"),
    ("sd", "cars", "count", NE, "How many models does each maker have, makers without models "
     "included?",
     "SELECT m.id, COUNT(l.model_id) FROM car_makers m LEFT JOIN model_list l ON l.maker = m.id "
     "GROUP BY m.id",
     "SELECT m.id, COUNT(*) FROM car_makers m LEFT JOIN model_list l ON l.maker = m.id "
     "GROUP BY m.id",
     "a maker with no models: 0 vs 1"),
    ("sd", "cars", "left_join", NE, "How many models does each maker have, makers without "
     "models included?",
     "SELECT m.id, COUNT(l.model_id) FROM car_makers m LEFT JOIN model_list l ON l.maker = m.id "
     "GROUP BY m.id",
     "SELECT m.id, COUNT(*) FROM car_makers m JOIN model_list l ON l.maker = m.id GROUP BY m.id",
     "a maker with no models: (1, 0) missing"),
    ("sd", "cars", "count_distinct", NE, "How many different countries have car makers?",
     "SELECT COUNT(DISTINCT country) FROM car_makers",
     "SELECT COUNT(country) FROM car_makers",
     "two makers in country 1: 1 vs 2"),
    ("s", "cars", "count", NE, "How many car makers are there?",
     "SELECT COUNT(*) FROM car_makers",
     "SELECT COUNT(country) FROM car_makers",
     "one maker with a NULL country: 1 vs 0"),
    ("sd", "cars", "eq_rewrite", EQ, "How many cars have 4 cylinders?",
     "SELECT COUNT(*) FROM cars_data WHERE cylinders = 4",
     "SELECT count(1) FROM cars_data AS t WHERE t.cylinders = 4",
     "COUNT(1) is COUNT(*)"),
    ("s", "cars", "eq_key", EQ, "How many cars have 4 cylinders?",
     "SELECT COUNT(*) FROM cars_data WHERE cylinders = 4",
     "SELECT COUNT(id) FROM cars_data WHERE cylinders = 4",
     "id is the primary key, never NULL"),
    ("sd", "cars", "value", NE, "What are the accelerations of the cars made in 1970?",
     "SELECT accelerate FROM cars_data WHERE year = 1970",
     "SELECT ROUND(accelerate, 2) FROM cars_data WHERE year = 1970",
     "a 1970 car with accelerate 12.345: 12.345 vs 12.35 (needs 3 decimals)"),
    ("sd", "cars", "value", NE, "What is the average mpg of all cars?",
     "SELECT AVG(mpg) FROM cars_data",
     "SELECT ROUND(AVG(mpg), 1) FROM cars_data",
     "one car with mpg 20.25: 20.25 vs 20.2 or 20.3"),
    ("sd", "cars", "eq_rewrite", EQ, "Which cars have horsepower between 100 and 150?",
     "SELECT id FROM cars_data WHERE horsepower BETWEEN 100 AND 150",
     "SELECT id FROM cars_data WHERE horsepower >= 100 AND horsepower <= 150",
     "BETWEEN is inclusive"),
    ("s", "cars", "boundary", NE, "Which cars have horsepower between 100 and 150?",
     "SELECT id FROM cars_data WHERE horsepower BETWEEN 100 AND 150",
     "SELECT id FROM cars_data WHERE horsepower > 100 AND horsepower < 150",
     "a car with horsepower 100"),
    ("sd", "cars", "precedence", NE, "Which cars with 4 or 6 cylinders were made after 1980?",
     "SELECT id FROM cars_data WHERE (cylinders = 4 OR cylinders = 6) AND year > 1980",
     "SELECT id FROM cars_data WHERE cylinders = 4 OR cylinders = 6 AND year > 1980",
     "a 4-cylinder car from 1970: only in the prediction"),
    ("s", "cars", "eq_rewrite", EQ, "Which cars with 4 or 6 cylinders were made after 1980?",
     "SELECT id FROM cars_data WHERE (cylinders = 4 OR cylinders = 6) AND year > 1980",
     "SELECT id FROM cars_data WHERE year > 1980 AND cylinders IN (4, 6)",
     "IN list is the disjunction"),
    ("sd", "cars", "distinct", NE, "Which countries have car makers?",
     "SELECT DISTINCT c.country_name FROM countries c JOIN car_makers m ON m.country = "
     "c.country_id",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id",
     "two makers in one country: 1 row vs 2"),
    ("s", "cars", "join_dup", NE, "Which countries have car makers?",
     "SELECT country_name FROM countries WHERE country_id IN (SELECT country FROM car_makers)",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id",
     "two makers in one country: the join repeats it"),
    ("sd", "cars", "eq_rewrite", EQ, "Which countries have car makers?",
     "SELECT country_name FROM countries WHERE country_id IN (SELECT country FROM car_makers)",
     "SELECT country_name FROM countries c WHERE EXISTS (SELECT 1 FROM car_makers m WHERE "
     "m.country = c.country_id)",
     "IN on a subquery is a semi-join"),
    ("sd", "cars", "not_in_null", NE, "Which countries have no car makers?",
     "SELECT country_name FROM countries c WHERE NOT EXISTS (SELECT 1 FROM car_makers m WHERE "
     "m.country = c.country_id)",
     "SELECT country_name FROM countries WHERE country_id NOT IN (SELECT country FROM car_makers)",
     "a country without makers and a maker with a NULL country: the prediction is empty"),
    ("s", "cars", "eq_rewrite", EQ, "Which continents have no countries?",
     "SELECT continent FROM continents c WHERE NOT EXISTS (SELECT 1 FROM countries k WHERE "
     "k.continent = c.cont_id)",
     "SELECT continent FROM continents WHERE cont_id NOT IN (SELECT continent FROM countries "
     "WHERE continent IS NOT NULL)",
     "NOT IN over a list without NULLs is NOT EXISTS"),
    ("sd", "cars", "join_key", NE, "What are the models made by 'bmw'?",
     "SELECT l.model FROM model_list l JOIN car_makers m ON l.maker = m.id WHERE m.maker = 'bmw'",
     "SELECT l.model FROM model_list l JOIN car_makers m ON l.model_id = m.id WHERE m.maker = "
     "'bmw'",
     "maker 1 'bmw' and model 2 made by maker 1: gold lists it, prediction does not"),
    ("sd", "cars", "eq_rewrite", EQ, "What are the models made by 'bmw'?",
     "SELECT l.model FROM model_list l JOIN car_makers m ON l.maker = m.id WHERE m.maker = 'bmw'",
     "SELECT model_list.model FROM car_makers, model_list WHERE car_makers.id = model_list.maker "
     "AND car_makers.maker = 'bmw'",
     "join order and comma join"),
    ("s", "cars", "size", NE, "Which countries have more than 5 car makers?",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_id HAVING COUNT(*) > 5",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_id HAVING COUNT(*) >= 5",
     "a country with exactly 5 makers"),
    ("d", "cars", "size", NE, "Which countries have at least 6 car makers?",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_id, c.country_name HAVING COUNT(*) >= 6",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_id, c.country_name HAVING COUNT(*) > 6",
     "a country with exactly 6 makers"),
    ("sd", "cars", "grain", NE, "Which countries have more than 2 car makers?",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_id, c.country_name HAVING COUNT(*) > 2",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id "
     "GROUP BY c.country_name HAVING COUNT(*) > 2",
     "countries 1 'x' (1 maker) and 2 'x' (2 makers): prediction 'x', gold nothing"),
    ("s", "cars", "avg_int", NE, "What is the average weight of the cars?",
     "SELECT AVG(weight) FROM cars_data",
     "SELECT SUM(weight) / COUNT(weight) FROM cars_data",
     "weights 1 and 2: 1.5 vs 1 (SQLite integer division)"),
    ("d", "cars", "avg_int", EQ, "What is the average weight of the cars?",
     "SELECT AVG(weight) FROM cars_data",
     "SELECT SUM(weight) / COUNT(weight) FROM cars_data",
     "DuckDB's / on integers is float division; NULL weights are skipped by both"),
    ("s", "cars", "avg_int", EQ, "What is the average weight of the cars?",
     "SELECT AVG(weight) FROM cars_data",
     "SELECT SUM(weight) * 1.0 / COUNT(weight) FROM cars_data",
     "the 1.0 makes the division real"),
    ("s", "cars", "like_case", EQ, "Which makers' names start with 'b'?",
     "SELECT maker FROM car_makers WHERE maker LIKE 'b%'",
     "SELECT maker FROM car_makers WHERE maker LIKE 'B%'",
     "SQLite LIKE ignores ASCII case"),
    ("d", "cars", "like_case", NE, "Which makers' names start with 'b'?",
     "SELECT maker FROM car_makers WHERE maker LIKE 'b%'",
     "SELECT maker FROM car_makers WHERE maker LIKE 'B%'",
     "a maker 'bmw': DuckDB LIKE is case-sensitive"),
    ("s", "cars", "like_case", NE, "Which cars are made by 'bmw'?",
     "SELECT id FROM car_makers WHERE maker = 'bmw'",
     "SELECT id FROM car_makers WHERE maker LIKE 'bmw'",
     "a maker 'BMW': SQLite LIKE matches it, = does not"),
    ("d", "cars", "like_case", EQ, "Which cars are made by 'bmw'?",
     "SELECT id FROM car_makers WHERE maker = 'bmw'",
     "SELECT id FROM car_makers WHERE maker LIKE 'bmw'",
     "a LIKE pattern without wildcards is equality in DuckDB"),
    ("sd", "cars", "string_case", NE, "What is the id of maker 'bmw'?",
     "SELECT id FROM car_makers WHERE maker = 'bmw'",
     "SELECT id FROM car_makers WHERE maker = 'BMW'",
     "a maker 'bmw'"),
    ("s", "cars", "string_case", NE, "What is the id of maker 'bmw'?",
     "SELECT id FROM car_makers WHERE maker = 'bmw'",
     "SELECT id FROM car_makers WHERE LOWER(maker) = 'bmw'",
     "a maker 'BMW'"),
    ("sd", "cars", "union", NE, "Which countries are in continent 1 or have a maker 'ford'?",
     "SELECT country_name FROM countries WHERE continent = 1 UNION SELECT c.country_name FROM "
     "countries c JOIN car_makers m ON m.country = c.country_id WHERE m.maker = 'ford'",
     "SELECT country_name FROM countries WHERE continent = 1 UNION ALL SELECT c.country_name FROM "
     "countries c JOIN car_makers m ON m.country = c.country_id WHERE m.maker = 'ford'",
     "a country in continent 1 with a maker 'ford': once vs twice"),
    ("sd", "cars", "intersect", NE, "Which countries have both a 'ford' and a 'bmw' maker?",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id WHERE "
     "m.maker = 'ford' INTERSECT SELECT c.country_name FROM countries c JOIN car_makers m ON "
     "m.country = c.country_id WHERE m.maker = 'bmw'",
     "SELECT c.country_name FROM countries c JOIN car_makers m ON m.country = c.country_id WHERE "
     "m.maker = 'ford' AND c.country_id IN (SELECT country FROM car_makers WHERE maker = 'bmw')",
     "countries 1 'x' with 'ford' and 2 'x' with 'bmw': gold 'x', prediction nothing"),
    ("sd", "cars", "eq_rewrite", EQ, "Which makers have more than 2 models, and how many?",
     "SELECT maker, COUNT(*) FROM model_list GROUP BY maker HAVING COUNT(*) > 2",
     "WITH t AS (SELECT maker, COUNT(*) AS n FROM model_list GROUP BY maker) "
     "SELECT maker, n FROM t WHERE n > 2",
     "HAVING is a filter over the grouped CTE"),
    ("sd", "cars", "null", NE, "Which makers have no country recorded?",
     "SELECT id FROM car_makers WHERE country IS NULL",
     "SELECT id FROM car_makers WHERE country = NULL",
     "a maker with a NULL country: = NULL is never true"),
    ("s", "cars", "boundary", NE, "Which cars were made after 1980?",
     "SELECT id FROM cars_data WHERE year > 1980",
     "SELECT id FROM cars_data WHERE year >= 1980",
     "a car from 1980"),
    ("sd", "cars", "eq_rewrite", EQ, "Which cars were made after 1980?",
     "SELECT id FROM cars_data WHERE year > 1980",
     "SELECT id FROM cars_data WHERE NOT (year <= 1980)",
     "NOT of a comparison; NULL stays NULL"),
    ("sd", "cars", "grain", NE, "How many car makers are there on each continent?",
     "SELECT k.continent, COUNT(*) FROM continents k JOIN countries c ON c.continent = k.cont_id "
     "JOIN car_makers m ON m.country = c.country_id GROUP BY k.cont_id, k.continent",
     "SELECT k.continent, COUNT(*) FROM continents k JOIN countries c ON c.continent = k.cont_id "
     "JOIN car_makers m ON m.country = c.country_id GROUP BY k.continent",
     "two continents named 'x' with a maker each: two rows ('x',1) vs one ('x',2)"),
    ("s", "cars", "order", NE, "List the cars' ids and mpg, highest mpg first.",
     "SELECT id, mpg FROM cars_data ORDER BY mpg DESC",
     "SELECT id, mpg FROM cars_data ORDER BY mpg",
     "two cars with mpg 10 and 20: the order differs"),
    ("sd", "cars", "eq_rewrite", EQ, "List the cars' ids and mpg, highest mpg first.",
     "SELECT id, mpg FROM cars_data ORDER BY mpg DESC",
     "SELECT id, mpg FROM cars_data ORDER BY 2 DESC",
     "positional ORDER BY"),
    ("s", "cars", "value", NE, "What are the ids of cars whose mpg is above 20.5?",
     "SELECT id FROM cars_data WHERE mpg > 20.5",
     "SELECT id FROM cars_data WHERE ROUND(mpg, 0) > 20.5",
     "a car with mpg 20.5: ROUND gives 21 > 20.5, but 20.5 > 20.5 is false"),
    # ------------------------------------------------------------------ concert_singer
    ("sd", "concert", "tie", NE, "What are the name and capacity of the stadium with the most "
     "concerts?",
     "SELECT s.name, s.capacity FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id "
     "GROUP BY s.stadium_id, s.name, s.capacity ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT s.name, s.capacity FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id "
     "GROUP BY s.name, s.capacity ORDER BY COUNT(*) DESC LIMIT 1",
     "stadiums 1 and 2 both ('x', 10) with 2 concerts each, stadium 3 ('y', 5) with 3: gold "
     "('y', 5), prediction ('x', 10)"),
    ("sd", "concert", "tie", NE, "What is the name of the oldest singer?",
     "SELECT name FROM singer WHERE age = (SELECT MAX(age) FROM singer)",
     "SELECT name FROM singer ORDER BY age DESC LIMIT 1",
     "two singers 'a' and 'b' both aged 40: gold both, prediction one"),
    ("s", "concert", "order", NE, "What is the song name of the youngest singer?",
     "SELECT song_name FROM singer ORDER BY age ASC LIMIT 1",
     "SELECT song_name FROM singer ORDER BY age DESC LIMIT 1",
     "singers aged 20 (song 'a') and 30 (song 'b')"),
    ("sd", "concert", "tie", NE, "Which year had the most concerts?",
     "SELECT year FROM concert GROUP BY year ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT year, COUNT(*) FROM concert GROUP BY year ORDER BY COUNT(*) DESC LIMIT 1",
     "any concert: one column vs two"),
    ("sd", "concert", "tie_eq", EQ, "Which year had the most concerts?",
     "SELECT year FROM concert GROUP BY year ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT year FROM concert GROUP BY year ORDER BY COUNT(concert_id) DESC LIMIT 1",
     "concert_id is the primary key, so COUNT(concert_id) = COUNT(*) in every group"),
    ("sd", "concert", "value", NE, "Which singers released a song after 2010?",
     "SELECT name FROM singer WHERE CAST(song_release_year AS INTEGER) > 2010",
     "SELECT name FROM singer WHERE song_release_year > '2010'",
     "song_release_year '999': 999 > 2010 is false, '999' > '2010' is true (text order)"),
    ("sd", "concert", "count", NE, "How many singers are from each country?",
     "SELECT country, COUNT(*) FROM singer GROUP BY country",
     "SELECT country, COUNT(country) FROM singer GROUP BY country",
     "a singer with a NULL country: (NULL, 1) vs (NULL, 0)"),
    ("sd", "concert", "left_join", NE, "How many concerts has each stadium hosted, stadiums "
     "without concerts included?",
     "SELECT s.name, COUNT(c.concert_id) FROM stadium s LEFT JOIN concert c ON c.stadium_id = "
     "s.stadium_id GROUP BY s.stadium_id, s.name",
     "SELECT s.name, COUNT(*) FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id "
     "GROUP BY s.stadium_id, s.name",
     "a stadium without concerts: (name, 0) missing"),
    ("sd", "concert", "eq_rewrite", EQ, "Which singers have not performed in any concert?",
     "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)",
     "SELECT s.name FROM singer s LEFT JOIN singer_in_concert sc ON sc.singer_id = s.singer_id "
     "WHERE sc.concert_id IS NULL",
     "singer_in_concert.singer_id is NOT NULL, so NOT IN is the anti-join; concert_id is NOT "
     "NULL so IS NULL marks the unmatched"),
    ("sd", "concert", "except_names", NE, "Which singers have not performed in any concert?",
     "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)",
     "SELECT name FROM singer EXCEPT SELECT s.name FROM singer s JOIN singer_in_concert sc ON "
     "sc.singer_id = s.singer_id",
     "two singers named 'x', one of whom performed: gold 'x', prediction nothing"),
    ("s", "concert", "boundary", NE, "Which stadiums have a capacity between 5000 and 10000?",
     "SELECT name FROM stadium WHERE capacity BETWEEN 5000 AND 10000",
     "SELECT name FROM stadium WHERE capacity >= 5000 AND capacity < 10000",
     "a stadium with capacity 10000"),
    ("sd", "concert", "eq_rewrite", EQ, "Which stadiums have a capacity between 5000 and 10000?",
     "SELECT name FROM stadium WHERE capacity BETWEEN 5000 AND 10000",
     "SELECT name FROM stadium WHERE NOT (capacity < 5000 OR capacity > 10000)",
     "De Morgan; a NULL capacity is out of both"),
    ("sd", "concert", "size", NE, "Which stadiums have hosted more than 5 concerts?",
     "SELECT s.name FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id "
     "GROUP BY s.stadium_id, s.name HAVING COUNT(*) > 5",
     "SELECT s.name FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id "
     "GROUP BY s.stadium_id, s.name HAVING COUNT(*) >= 5",
     "a stadium with exactly 5 concerts"),
    ("sd", "concert", "grain", NE, "Which singers performed in at least 2 concerts?",
     "SELECT s.name FROM singer s JOIN singer_in_concert sc ON sc.singer_id = s.singer_id "
     "GROUP BY s.singer_id, s.name HAVING COUNT(*) >= 2",
     "SELECT s.name FROM singer s JOIN singer_in_concert sc ON sc.singer_id = s.singer_id "
     "GROUP BY s.name HAVING COUNT(*) >= 2",
     "two singers named 'x' with one concert each: prediction 'x', gold nothing"),
    ("sd", "concert", "avg_int", NE, "What is the average age of the singers?",
     "SELECT AVG(age) FROM singer",
     "SELECT SUM(age) / COUNT(*) FROM singer",
     "singers aged 30 and NULL: 30 vs 15 (COUNT(*) counts the NULL)"),
    ("s", "concert", "avg_int", NE, "What is the average age of the singers?",
     "SELECT AVG(age) FROM singer",
     "SELECT SUM(age) / COUNT(age) FROM singer",
     "ages 20 and 21: 20.5 vs 20"),
    ("d", "concert", "eq_rewrite", EQ, "Which singers are female?",
     "SELECT name FROM singer WHERE NOT is_male",
     "SELECT name FROM singer WHERE is_male = FALSE",
     "on a BOOLEAN, NOT b and b = FALSE agree, NULL included"),
    ("sd", "concert", "union", NE, "Which singers are from France or older than 40?",
     "SELECT name FROM singer WHERE country = 'France' UNION SELECT name FROM singer WHERE age > 40",
     "SELECT name FROM singer WHERE country = 'France' OR age > 40",
     "two French singers named 'x': UNION returns 'x' once"),
    ("sd", "concert", "eq_rewrite", EQ, "Which singers are from France or older than 40?",
     "SELECT name FROM singer WHERE country = 'France' UNION SELECT name FROM singer WHERE age > 40",
     "SELECT DISTINCT name FROM singer WHERE country = 'France' OR age > 40",
     "UNION is DISTINCT over the disjunction"),
    ("s", "concert", "intersect", NE, "Which countries have both singers older than 40 and "
     "singers younger than 30?",
     "SELECT country FROM singer WHERE age > 40 INTERSECT SELECT country FROM singer WHERE age < 30",
     "SELECT country FROM singer WHERE age > 40 AND age < 30",
     "two singers from 'x' aged 50 and 20: gold 'x', prediction nothing"),
    ("sd", "concert", "eq_rewrite", EQ, "Which concerts took place in 2014 or 2015?",
     "SELECT concert_name FROM concert WHERE year = '2014' OR year = '2015'",
     "SELECT concert_name FROM concert WHERE year IN ('2014', '2015')",
     "IN list is the disjunction"),
    ("sd", "concert", "distinct", NE, "Where are the stadiums that hosted concerts?",
     "SELECT DISTINCT s.location FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id",
     "SELECT s.location FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id",
     "a stadium with two concerts"),
    ("sd", "concert", "grain", NE, "How many concerts were held in each stadium?",
     "SELECT stadium_id, COUNT(*) FROM concert GROUP BY stadium_id",
     "SELECT stadium_id, COUNT(*) FROM concert GROUP BY stadium_id, year",
     "two concerts in stadium 1 in years '2014' and '2015'"),
    ("sd", "concert", "eq_rewrite", EQ, "How many concerts were held in each stadium (name)?",
     "SELECT s.name, COUNT(*) FROM stadium s JOIN concert c ON s.stadium_id = c.stadium_id "
     "GROUP BY s.stadium_id, s.name",
     "SELECT T2.name, COUNT(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = "
     "T2.stadium_id GROUP BY T1.stadium_id, T2.name",
     "T1.stadium_id = T2.stadium_id after the join"),
    ("s", "concert", "column", NE, "What are the maximum and the average capacity of stadiums?",
     "SELECT MAX(capacity), AVG(capacity) FROM stadium",
     "SELECT MAX(capacity), AVG(average) FROM stadium",
     "a stadium with capacity 100 and average 10"),
    ("sd", "concert", "like", NE, "Which singers' names contain 'Joe'?",
     "SELECT name FROM singer WHERE name LIKE '%Joe%'",
     "SELECT name FROM singer WHERE name = 'Joe'",
     "a singer 'Joe Smith'"),
    ("s", "concert", "like_case", EQ, "Which singers' names contain 'Joe'?",
     "SELECT name FROM singer WHERE name LIKE '%Joe%'",
     "SELECT name FROM singer WHERE name LIKE '%joe%'",
     "SQLite LIKE ignores ASCII case"),
    ("d", "concert", "like_case", NE, "Which singers' names contain 'Joe'?",
     "SELECT name FROM singer WHERE name LIKE '%Joe%'",
     "SELECT name FROM singer WHERE name LIKE '%joe%'",
     "a singer 'Joe': DuckDB LIKE is case-sensitive"),
    ("d", "concert", "like_case", EQ, "Which singers' names contain 'Joe', in any case?",
     "SELECT name FROM singer WHERE name ILIKE '%joe%'",
     "SELECT name FROM singer WHERE lower(name) LIKE '%joe%'",
     "ILIKE is LIKE on lower-cased text (ASCII pattern)"),
    ("sd", "concert", "order", NE, "List singers' names and ages, oldest first.",
     "SELECT name, age FROM singer ORDER BY age DESC",
     "SELECT name, age FROM singer ORDER BY age",
     "singers aged 20 and 30"),
    ("s", "concert", "value", EQ, "Which concerts were held after 2014?",
     "SELECT concert_name FROM concert WHERE year > 2014",
     "SELECT concert_name FROM concert WHERE year > '2014'",
     "year has TEXT affinity, so SQLite applies TEXT affinity to the literal 2014: both "
     "comparisons are textual"),
    # ------------------------------------------------------------------ employees
    ("sd", "emp", "tie", NE, "Which department has the most employees?",
     "SELECT d.dept_name FROM departments d JOIN employees e ON e.dept_id = d.dept_id "
     "GROUP BY d.dept_id, d.dept_name ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT d.dept_name FROM departments d JOIN employees e ON e.dept_id = d.dept_id "
     "GROUP BY d.dept_name ORDER BY COUNT(*) DESC LIMIT 1",
     "departments 1 'x' and 2 'x' with 2 employees each, 3 'y' with 3: gold 'y', prediction 'x'"),
    ("sd", "emp", "tie", NE, "Who has the highest salary?",
     "SELECT first_name, last_name FROM employees WHERE salary = (SELECT MAX(salary) FROM "
     "employees)",
     "SELECT first_name, last_name FROM employees ORDER BY salary DESC LIMIT 1",
     "two employees with the top salary 100: gold two rows, prediction one"),
    ("sd", "emp", "aggregate", NE, "Which department has the highest average salary?",
     "SELECT d.dept_name FROM departments d JOIN employees e ON e.dept_id = d.dept_id "
     "GROUP BY d.dept_id, d.dept_name ORDER BY AVG(e.salary) DESC LIMIT 1",
     "SELECT d.dept_name FROM departments d JOIN employees e ON e.dept_id = d.dept_id "
     "GROUP BY d.dept_id, d.dept_name ORDER BY SUM(e.salary) DESC LIMIT 1",
     "department 'a' with one salary 10, 'b' with two salaries 6: avg 'a', sum 'b'"),
    ("sd", "emp", "tie", NE, "What is the last name of the first employee hired?",
     "SELECT last_name FROM employees ORDER BY hire_date LIMIT 1",
     "SELECT last_name, hire_date FROM employees ORDER BY hire_date LIMIT 1",
     "any employee: one column vs two"),
    ("sd", "emp", "tie_eq", EQ, "What is the last name of the first employee hired?",
     "SELECT last_name FROM employees ORDER BY hire_date ASC LIMIT 1",
     "SELECT e.last_name FROM employees AS e ORDER BY e.hire_date LIMIT 1",
     "alias and explicit ASC only"),
    ("s", "emp", "tie", NE, "What is the last name of the first employee hired?",
     "SELECT last_name FROM employees WHERE hire_date = (SELECT MIN(hire_date) FROM employees)",
     "SELECT last_name FROM employees ORDER BY hire_date LIMIT 1",
     "two employees hired on the same first day: two rows vs one"),
    ("sd", "emp", "left_join", NE, "List every employee's last name with their manager's last "
     "name.",
     "SELECT e.last_name, m.last_name FROM employees e LEFT JOIN employees m ON e.manager_id = "
     "m.emp_id",
     "SELECT e.last_name, m.last_name FROM employees e JOIN employees m ON e.manager_id = m.emp_id",
     "an employee without a manager: missing from the prediction"),
    ("sd", "emp", "not_in_null", NE, "Which departments have no employees?",
     "SELECT dept_name FROM departments d WHERE NOT EXISTS (SELECT 1 FROM employees e WHERE "
     "e.dept_id = d.dept_id)",
     "SELECT dept_name FROM departments WHERE dept_id NOT IN (SELECT dept_id FROM employees)",
     "an empty department and an employee with a NULL dept_id: the prediction is empty"),
    ("sd", "emp", "eq_rewrite", EQ, "Which departments have no employees?",
     "SELECT dept_name FROM departments d WHERE NOT EXISTS (SELECT 1 FROM employees e WHERE "
     "e.dept_id = d.dept_id)",
     "SELECT d.dept_name FROM departments d LEFT JOIN employees e ON e.dept_id = d.dept_id "
     "WHERE e.emp_id IS NULL",
     "emp_id is the primary key, NULL only on the padded side"),
    ("sd", "emp", "count_distinct", NE, "How many departments have employees hired after "
     "2020-01-01?",
     "SELECT COUNT(DISTINCT dept_id) FROM employees WHERE hire_date > '2020-01-01'",
     "SELECT COUNT(dept_id) FROM employees WHERE hire_date > '2020-01-01'",
     "two such employees in department 1"),
    ("sd", "emp", "date", NE, "Which employees were hired in 2020?",
     "SELECT emp_id FROM employees WHERE hire_date BETWEEN '2020-01-01' AND '2020-12-31'",
     "SELECT emp_id FROM employees WHERE hire_date >= '2020-01-01' AND hire_date < '2020-12-31'",
     "an employee hired on 2020-12-31"),
    ("d", "emp", "date", EQ, "Which employees were hired in 2020?",
     "SELECT emp_id FROM employees WHERE hire_date BETWEEN '2020-01-01' AND '2020-12-31'",
     "SELECT emp_id FROM employees WHERE hire_date >= DATE '2020-01-01' AND hire_date < DATE "
     "'2021-01-01'",
     "hire_date is a DATE: no value lies between 2020-12-31 and 2021-01-01"),
    ("d", "emp", "date", EQ, "Which employees were hired in 2020?",
     "SELECT emp_id FROM employees WHERE hire_date BETWEEN '2020-01-01' AND '2020-12-31'",
     "SELECT emp_id FROM employees WHERE year(hire_date) = 2020",
     "hire_date is a DATE"),
    ("s", "emp", "value", NE, "Which employees were hired in 2020?",
     "SELECT emp_id FROM employees WHERE strftime('%Y', hire_date) = '2020'",
     "SELECT emp_id FROM employees WHERE strftime('%Y', hire_date) = 2020",
     "an employee hired '2020-05-01': strftime returns the text '2020', never equal to the "
     "integer 2020 (needs a date-shaped string)"),
    ("s", "emp", "date", NE, "Which employees were hired after 2020-06-01?",
     "SELECT emp_id FROM employees WHERE hire_date > '2020-06-01'",
     "SELECT emp_id FROM employees WHERE hire_date > date('2020-06-01', '+1 day')",
     "an employee hired on 2020-06-02"),
    ("sd", "emp", "size", NE, "Which departments have more than 5 employees?",
     "SELECT dept_id FROM employees GROUP BY dept_id HAVING COUNT(*) > 5",
     "SELECT dept_id FROM employees GROUP BY dept_id HAVING COUNT(*) >= 5",
     "a department with exactly 5 employees"),
    ("sd", "emp", "null", NE, "Which employees have no commission?",
     "SELECT emp_id FROM employees WHERE commission IS NULL",
     "SELECT emp_id FROM employees WHERE commission = NULL",
     "an employee with a NULL commission"),
    ("sd", "emp", "value", NE, "What commission does each employee with one earn, to two "
     "decimals?",
     "SELECT emp_id, ROUND(commission, 2) FROM employees WHERE commission > 0",
     "SELECT emp_id, commission FROM employees WHERE commission > 0",
     "a commission of 0.125: 0.13 (or 0.12) vs 0.125"),
    ("s", "emp", "avg_int", NE, "What is the average salary in each department?",
     "SELECT dept_id, AVG(salary) FROM employees GROUP BY dept_id",
     "SELECT dept_id, SUM(salary) / COUNT(salary) FROM employees GROUP BY dept_id",
     "salaries 1 and 2 in one department: 1.5 vs 1"),
    ("d", "emp", "avg_int", EQ, "What is the average salary in each department?",
     "SELECT dept_id, AVG(salary) FROM employees GROUP BY dept_id",
     "SELECT dept_id, SUM(salary) / COUNT(salary) FROM employees GROUP BY dept_id",
     "DuckDB's / is float division"),
    ("s", "emp", "int_div", NE, "What is each employee's monthly salary?",
     "SELECT emp_id, salary / 12.0 FROM employees",
     "SELECT emp_id, salary / 12 FROM employees",
     "salary 13: 1.083 vs 1 (SQLite integer division)"),
    ("d", "emp", "int_div", EQ, "What is each employee's monthly salary?",
     "SELECT emp_id, salary / 12.0 FROM employees",
     "SELECT emp_id, salary / 12 FROM employees",
     "DuckDB's / is float division"),
    ("d", "emp", "int_div", NE, "What is each employee's monthly salary?",
     "SELECT emp_id, salary / 12 FROM employees",
     "SELECT emp_id, salary // 12 FROM employees",
     "salary 13: 1.083 vs 1"),
    ("sd", "emp", "join_key", NE, "What are the last names of the employees in 'Sales'?",
     "SELECT e.last_name FROM employees e JOIN departments d ON e.dept_id = d.dept_id WHERE "
     "d.dept_name = 'Sales'",
     "SELECT e.last_name FROM employees e JOIN departments d ON e.emp_id = d.dept_id WHERE "
     "d.dept_name = 'Sales'",
     "employee 2 in department 1 'Sales'"),
    ("sd", "emp", "eq_rewrite", EQ, "What are the last names of the employees in 'Sales'?",
     "SELECT e.last_name FROM employees e JOIN departments d ON e.dept_id = d.dept_id WHERE "
     "d.dept_name = 'Sales'",
     "SELECT e.last_name FROM departments d, employees e WHERE d.dept_id = e.dept_id AND "
     "d.dept_name = 'Sales'",
     "comma join, other order"),
    ("sd", "emp", "grain", NE, "What is the total salary paid to each employee?",
     "SELECT e.last_name, SUM(s.amount) FROM employees e JOIN salaries s ON s.emp_id = e.emp_id "
     "GROUP BY e.emp_id, e.last_name",
     "SELECT e.last_name, SUM(s.amount) FROM employees e JOIN salaries s ON s.emp_id = e.emp_id "
     "GROUP BY e.last_name",
     "two employees named 'x' with one salary each"),
    ("sd", "emp", "join_dup", NE, "What is the total budget of departments with employees?",
     "SELECT SUM(budget) FROM departments WHERE dept_id IN (SELECT dept_id FROM employees)",
     "SELECT SUM(d.budget) FROM departments d JOIN employees e ON e.dept_id = d.dept_id",
     "a department with budget 10 and two employees: 10 vs 20"),
    ("s", "emp", "precedence", NE, "Which employees in department 1 or 2 earn more than 5000?",
     "SELECT emp_id FROM employees WHERE (dept_id = 1 OR dept_id = 2) AND salary > 5000",
     "SELECT emp_id FROM employees WHERE dept_id = 1 OR dept_id = 2 AND salary > 5000",
     "an employee in department 1 earning 100"),
    ("sd", "emp", "eq_rewrite", EQ, "Which employees earn more than the average salary?",
     "SELECT last_name FROM employees WHERE salary > (SELECT AVG(salary) FROM employees)",
     "WITH a AS (SELECT AVG(salary) AS s FROM employees) SELECT e.last_name FROM employees e, a "
     "WHERE e.salary > a.s",
     "the CTE has exactly one row"),
    ("sd", "emp", "subquery", NE, "Which employees earn more than their department's average?",
     "SELECT last_name FROM employees e WHERE salary > (SELECT AVG(salary) FROM employees e2 "
     "WHERE e2.dept_id = e.dept_id)",
     "SELECT last_name FROM employees WHERE salary > (SELECT AVG(salary) FROM employees)",
     "department 1 with salaries 1 and 2, department 2 with 10: gold 'b' (2) and nothing in 2; "
     "prediction only the 10"),
    ("s", "emp", "union", NE, "Which last names belong to employees of department 1 or to "
     "managers?",
     "SELECT last_name FROM employees WHERE dept_id = 1 UNION SELECT m.last_name FROM employees "
     "m WHERE m.emp_id IN (SELECT manager_id FROM employees)",
     "SELECT last_name FROM employees WHERE dept_id = 1 UNION ALL SELECT m.last_name FROM "
     "employees m WHERE m.emp_id IN (SELECT manager_id FROM employees)",
     "an employee of department 1 who manages himself: once vs twice"),
    ("sd", "emp", "eq_key", EQ, "How many employees does each department have?",
     "SELECT dept_id, COUNT(*) FROM employees GROUP BY dept_id",
     "SELECT dept_id, COUNT(emp_id) FROM employees GROUP BY dept_id",
     "emp_id is the primary key"),
    ("s", "emp", "eq_rewrite", EQ, "Which employees were hired on or after 2020-06-01?",
     "SELECT emp_id FROM employees WHERE hire_date >= '2020-06-01'",
     "SELECT emp_id FROM employees WHERE NOT hire_date < '2020-06-01'",
     "NOT <; NULL stays NULL"),
    # ------------------------------------------------------------------ flights
    ("sd", "flights", "tie", NE, "Which airline has the most flights?",
     "SELECT a.name FROM airlines a JOIN flights f ON f.airline_id = a.airline_id "
     "GROUP BY a.airline_id, a.name ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT a.name FROM airlines a JOIN flights f ON f.airline_id = a.airline_id "
     "GROUP BY a.name ORDER BY COUNT(*) DESC LIMIT 1",
     "airlines 1 'x' and 2 'x' with 2 flights each, 3 'y' with 3: gold 'y', prediction 'x'"),
    ("sd", "flights", "tie", NE, "Which city has the most departing flights?",
     "SELECT a.city FROM airports a JOIN flights f ON f.source = a.code GROUP BY a.city "
     "ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT a.city FROM airports a JOIN flights f ON f.source = a.code GROUP BY a.code, a.city "
     "ORDER BY COUNT(*) DESC LIMIT 1",
     "city 'x' with airports A and B (2 flights each), city 'y' with C (3): gold 'x', "
     "prediction 'y'"),
    ("sd", "flights", "tie", NE, "What is the number of the cheapest flight?",
     "SELECT flight_no FROM flights WHERE price = (SELECT MIN(price) FROM flights)",
     "SELECT flight_no FROM flights ORDER BY price LIMIT 1",
     "flights 1 and 2 both priced 50: gold two rows, prediction one"),
    ("sd", "flights", "order", NE, "What are the source and destination of the longest flight?",
     "SELECT source, dest FROM flights ORDER BY duration DESC LIMIT 1",
     "SELECT source, dest FROM flights ORDER BY duration ASC LIMIT 1",
     "flights A->B (100 min) and B->A (200 min)"),
    ("s", "flights", "value", NE, "Which flights take less than 5 hours?",
     "SELECT flight_id FROM flights WHERE duration / 60 < 5",
     "SELECT flight_id FROM flights WHERE duration / 60 >= 0 AND duration / 60 < 5",
     "duration -60: -60/60 = -1 < 5 in the gold, excluded by the prediction's >= 0 (-59 "
     "truncates to 0 and agrees)"),
    ("d", "flights", "value", NE, "Which flights take less than 5 hours?",
     "SELECT flight_id FROM flights WHERE duration // 60 < 5",
     "SELECT flight_id FROM flights WHERE duration // 60 >= 0 AND duration // 60 < 5",
     "duration -60: -60 // 60 = -1"),
    ("d", "flights", "value", NE, "Which flights take less than 5 hours?",
     "SELECT flight_id FROM flights WHERE duration / 60 < 5",
     "SELECT flight_id FROM flights WHERE duration / 60 >= 0 AND duration / 60 < 5",
     "duration -1: -1/60 = -0.017 < 0 (DuckDB / is float division)"),
    ("sd", "flights", "int_div", EQ, "Which flights take less than 5 hours?",
     "SELECT flight_id FROM flights WHERE duration / 60 < 5",
     "SELECT flight_id FROM flights WHERE duration < 300",
     "integer division truncates toward zero: d/60 < 5 iff d < 300 (negatives give <= 0); "
     "with float division the same"),
    ("s", "flights", "int_div", NE, "Which flights take more than 2 hours?",
     "SELECT flight_id FROM flights WHERE duration > 120",
     "SELECT flight_id FROM flights WHERE duration / 60 > 2",
     "duration 121: 121/60 = 2 in SQLite"),
    ("d", "flights", "int_div", EQ, "Which flights take more than 2 hours?",
     "SELECT flight_id FROM flights WHERE duration > 120",
     "SELECT flight_id FROM flights WHERE duration / 60 > 2",
     "DuckDB's / is float division"),
    ("sd", "flights", "date", NE, "Which flights departed on or before 2020-12-31?",
     "SELECT flight_id FROM flights WHERE departure < '2021-01-01'",
     "SELECT flight_id FROM flights WHERE departure <= '2020-12-31'",
     "a flight departing 2020-12-31 10:00:00"),
    ("d", "flights", "date", EQ, "Which flights departed on 2020-12-31?",
     "SELECT flight_id FROM flights WHERE CAST(departure AS DATE) = DATE '2020-12-31'",
     "SELECT flight_id FROM flights WHERE departure >= TIMESTAMP '2020-12-31 00:00:00' AND "
     "departure < TIMESTAMP '2021-01-01 00:00:00'",
     "the day of a timestamp"),
    ("s", "flights", "date", NE, "Which flights departed on 2020-12-31?",
     "SELECT flight_id FROM flights WHERE date(departure) = '2020-12-31'",
     "SELECT flight_id FROM flights WHERE departure = '2020-12-31'",
     "a flight departing '2020-12-31 10:00:00'"),
    ("sd", "flights", "left_join", NE, "How many flights leave from each airport, airports "
     "without flights included?",
     "SELECT a.code, COUNT(f.flight_id) FROM airports a LEFT JOIN flights f ON f.source = a.code "
     "GROUP BY a.code",
     "SELECT a.code, COUNT(f.flight_id) FROM airports a JOIN flights f ON f.source = a.code "
     "GROUP BY a.code",
     "an airport without flights: (code, 0) missing"),
    ("sd", "flights", "join_key", NE, "What are the names of the airports airline 1 flies to?",
     "SELECT a.name FROM airports a JOIN flights f ON f.dest = a.code WHERE f.airline_id = 1",
     "SELECT a.name FROM airports a JOIN flights f ON f.source = a.code WHERE f.airline_id = 1",
     "a flight of airline 1 from A to B with different names"),
    ("sd", "flights", "not_in_null", NE, "Which airports have no departing flights?",
     "SELECT code FROM airports a WHERE NOT EXISTS (SELECT 1 FROM flights f WHERE f.source = "
     "a.code)",
     "SELECT code FROM airports WHERE code NOT IN (SELECT source FROM flights)",
     "an airport without flights and a flight with a NULL source"),
    ("sd", "flights", "eq_rewrite", EQ, "Which airports have departing flights?",
     "SELECT code FROM airports WHERE code IN (SELECT source FROM flights)",
     "SELECT a.code FROM airports a WHERE EXISTS (SELECT * FROM flights f WHERE f.source = a.code)",
     "IN on a subquery is a semi-join"),
    ("sd", "flights", "value", NE, "What is the average price of each airline's flights, to two "
     "decimals?",
     "SELECT airline_id, ROUND(AVG(price), 2) FROM flights GROUP BY airline_id",
     "SELECT airline_id, AVG(price) FROM flights GROUP BY airline_id",
     "one flight priced 10.125"),
    ("sd", "flights", "count_distinct", NE, "How many destinations does airline 1 fly to?",
     "SELECT COUNT(DISTINCT dest) FROM flights WHERE airline_id = 1",
     "SELECT COUNT(dest) FROM flights WHERE airline_id = 1",
     "two flights of airline 1 to the same airport"),
    ("s", "flights", "count", NE, "How many flights does each airline have?",
     "SELECT airline_id, COUNT(*) FROM flights GROUP BY airline_id",
     "SELECT airline_id, COUNT(flight_no) FROM flights GROUP BY airline_id",
     "a flight with a NULL flight_no"),
    ("sd", "flights", "union", NE, "Which airports are a source or a destination?",
     "SELECT source FROM flights UNION SELECT dest FROM flights",
     "SELECT source FROM flights UNION ALL SELECT dest FROM flights",
     "one flight A->A: once vs twice"),
    ("sd", "flights", "intersect", NE, "Which airports are both a source and a destination?",
     "SELECT source FROM flights INTERSECT SELECT dest FROM flights",
     "SELECT source FROM flights WHERE source IN (SELECT dest FROM flights)",
     "two flights A->A: the prediction repeats A"),
    ("sd", "flights", "intersect", NE, "Which airports are both a source and a destination?",
     "SELECT source FROM flights INTERSECT SELECT dest FROM flights",
     "SELECT DISTINCT source FROM flights WHERE source IN (SELECT dest FROM flights)",
     "a flight with NULL source and dest: INTERSECT keeps the NULL, IN does not"),
    ("sd", "flights", "eq_rewrite", EQ, "Which airports are both a source and a destination?",
     "SELECT code FROM airports WHERE code IN (SELECT source FROM flights) INTERSECT "
     "SELECT code FROM airports WHERE code IN (SELECT dest FROM flights)",
     "SELECT code FROM airports WHERE code IN (SELECT source FROM flights) AND code IN "
     "(SELECT dest FROM flights)",
     "code is the primary key (unique, not NULL): INTERSECT is the conjunction"),
    ("s", "flights", "precedence", NE, "Which airlines from 'USA' or 'Canada' have a name "
     "starting with 'A'?",
     "SELECT name FROM airlines WHERE (country = 'USA' OR country = 'Canada') AND name LIKE 'A%'",
     "SELECT name FROM airlines WHERE country = 'USA' OR country = 'Canada' AND name LIKE 'A%'",
     "an airline 'Delta' from 'USA'"),
    ("s", "flights", "like_case", EQ, "Which airlines have a name starting with 'a'?",
     "SELECT name FROM airlines WHERE name LIKE 'a%'",
     "SELECT name FROM airlines WHERE lower(name) LIKE 'a%'",
     "SQLite LIKE already ignores ASCII case"),
    ("d", "flights", "like_case", NE, "Which airlines have a name starting with 'a'?",
     "SELECT name FROM airlines WHERE name LIKE 'a%'",
     "SELECT name FROM airlines WHERE name ILIKE 'a%'",
     "an airline 'American'"),
    ("sd", "flights", "boundary", NE, "Which flights are longer than 2 hours?",
     "SELECT flight_id FROM flights WHERE duration > 120",
     "SELECT flight_id FROM flights WHERE duration >= 120",
     "a flight of 120 minutes"),
    ("s", "flights", "int_div", NE, "How many hours does each airline fly in total?",
     "SELECT airline_id, SUM(duration) / 60.0 FROM flights GROUP BY airline_id",
     "SELECT airline_id, SUM(duration) / 60 FROM flights GROUP BY airline_id",
     "90 minutes: 1.5 vs 1"),
    ("d", "flights", "int_div", EQ, "How many hours does each airline fly in total?",
     "SELECT airline_id, SUM(duration) / 60.0 FROM flights GROUP BY airline_id",
     "SELECT airline_id, SUM(duration) / 60 FROM flights GROUP BY airline_id",
     "DuckDB's / is float division"),
    ("sd", "flights", "eq_rewrite", EQ, "Which flights cost between 100 and 200?",
     "SELECT flight_id FROM flights WHERE price BETWEEN 100 AND 200",
     "SELECT f.flight_id FROM flights AS f WHERE f.price >= 100 AND f.price <= 200",
     "BETWEEN is inclusive"),
    # ------------------------------------------------------------------ students
    ("sd", "students", "tie", NE, "Which course has the most students?",
     "SELECT c.title FROM courses c JOIN enrollments e ON e.course_id = c.course_id "
     "GROUP BY c.course_id, c.title ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT c.title FROM courses c JOIN enrollments e ON e.course_id = c.course_id "
     "GROUP BY c.title ORDER BY COUNT(*) DESC LIMIT 1",
     "courses 1 'x' and 2 'x' with 2 students each, course 3 'y' with 3: gold 'y', prediction 'x'"),
    ("sd", "students", "tie", NE, "Which student has the highest GPA?",
     "SELECT name FROM students WHERE gpa = (SELECT MAX(gpa) FROM students)",
     "SELECT name FROM students ORDER BY gpa DESC LIMIT 1",
     "two students with GPA 4.0"),
    ("sd", "students", "tie", NE, "Which major has the most students?",
     "SELECT major FROM students GROUP BY major ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT major FROM students GROUP BY major ORDER BY COUNT(major) DESC LIMIT 1",
     "two students with a NULL major and one in 'cs': gold NULL, prediction 'cs'"),
    ("sd", "students", "tie_eq", EQ, "Which major has the most students?",
     "SELECT major FROM students GROUP BY major ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT s.major FROM students AS s GROUP BY s.major ORDER BY COUNT(s.student_id) DESC LIMIT 1",
     "student_id is the primary key"),
    ("sd", "students", "left_join", NE, "Which students are not enrolled in any course?",
     "SELECT name FROM students WHERE student_id NOT IN (SELECT student_id FROM enrollments)",
     "SELECT s.name FROM students s JOIN enrollments e ON e.student_id = s.student_id WHERE "
     "e.course_id IS NULL",
     "a student without enrollments: the inner join drops them"),
    ("sd", "students", "count", NE, "How many courses does each student take, zero included?",
     "SELECT s.student_id, COUNT(e.course_id) FROM students s LEFT JOIN enrollments e ON "
     "e.student_id = s.student_id GROUP BY s.student_id",
     "SELECT s.student_id, COUNT(*) FROM students s LEFT JOIN enrollments e ON e.student_id = "
     "s.student_id GROUP BY s.student_id",
     "a student without enrollments: 0 vs 1"),
    ("sd", "students", "size", NE, "Which courses have at least 5 students?",
     "SELECT course_id FROM enrollments GROUP BY course_id HAVING COUNT(*) >= 5",
     "SELECT course_id FROM enrollments GROUP BY course_id HAVING COUNT(*) > 5",
     "a course with exactly 5 students"),
    ("sd", "students", "size", NE, "Which students take more than 6 courses?",
     "SELECT student_id FROM enrollments GROUP BY student_id HAVING COUNT(*) > 6",
     "SELECT student_id FROM enrollments GROUP BY student_id HAVING COUNT(*) >= 6",
     "a student in exactly 6 courses (6 courses, 6 enrollments)"),
    ("sd", "students", "value", NE, "What is the average grade of each course?",
     "SELECT course_id, AVG(grade) FROM enrollments GROUP BY course_id",
     "SELECT course_id, CAST(AVG(grade) AS INTEGER) FROM enrollments GROUP BY course_id",
     "grades 80 and 81: 80.5 vs 80 or 81"),
    ("sd", "students", "precedence", NE, "Which students older than 20 major in CS or EE?",
     "SELECT name FROM students WHERE age > 20 AND (major = 'CS' OR major = 'EE')",
     "SELECT name FROM students WHERE age > 20 AND major = 'CS' OR major = 'EE'",
     "an EE student aged 18"),
    ("s", "students", "boundary", NE, "Which enrollments have a grade between 80 and 90?",
     "SELECT student_id, course_id FROM enrollments WHERE grade BETWEEN 80 AND 90",
     "SELECT student_id, course_id FROM enrollments WHERE grade > 80 AND grade < 90",
     "a grade of 90"),
    ("sd", "students", "eq_rewrite", EQ, "Which enrollments have a grade between 80 and 90?",
     "SELECT student_id, course_id FROM enrollments WHERE grade BETWEEN 80 AND 90",
     "SELECT e.student_id, e.course_id FROM enrollments e WHERE e.grade <= 90 AND e.grade >= 80",
     "BETWEEN is inclusive"),
    ("sd", "students", "value", NE, "Which students have a GPA above 3.5?",
     "SELECT name FROM students WHERE gpa > 3.5",
     "SELECT name FROM students WHERE ROUND(gpa, 1) > 3.5",
     "GPA 3.52: above 3.5, rounds to 3.5"),
    ("sd", "students", "string_case", NE, "Which students live in Boston?",
     "SELECT name FROM students WHERE city = 'Boston'",
     "SELECT name FROM students WHERE city = 'boston'",
     "a student in 'Boston'"),
    ("s", "students", "like_case", EQ, "Which students live in Boston?",
     "SELECT name FROM students WHERE city LIKE 'Boston'",
     "SELECT name FROM students WHERE city LIKE 'boston'",
     "SQLite LIKE ignores ASCII case"),
    ("s", "students", "like_case", NE, "Which students live in Boston?",
     "SELECT name FROM students WHERE city = 'Boston'",
     "SELECT name FROM students WHERE city LIKE 'Boston'",
     "a student in 'BOSTON': LIKE matches it in SQLite"),
    ("sd", "students", "distinct", NE, "What majors do students taking course 1 have?",
     "SELECT DISTINCT s.major FROM students s JOIN enrollments e ON e.student_id = s.student_id "
     "WHERE e.course_id = 1",
     "SELECT s.major FROM students s JOIN enrollments e ON e.student_id = s.student_id "
     "WHERE e.course_id = 1",
     "two CS students in course 1"),
    ("sd", "students", "join_dup", NE, "Which students take a course of the CS department?",
     "SELECT name FROM students WHERE student_id IN (SELECT e.student_id FROM enrollments e JOIN "
     "courses c ON c.course_id = e.course_id WHERE c.dept = 'CS')",
     "SELECT s.name FROM students s JOIN enrollments e ON e.student_id = s.student_id JOIN "
     "courses c ON c.course_id = e.course_id WHERE c.dept = 'CS'",
     "a student in two CS courses"),
    ("sd", "students", "eq_rewrite", EQ, "Which students take a course of the CS department?",
     "SELECT name FROM students WHERE student_id IN (SELECT e.student_id FROM enrollments e JOIN "
     "courses c ON c.course_id = e.course_id WHERE c.dept = 'CS')",
     "SELECT s.name FROM students s WHERE EXISTS (SELECT 1 FROM enrollments e, courses c WHERE "
     "e.course_id = c.course_id AND e.student_id = s.student_id AND c.dept = 'CS')",
     "semi-join either way"),
    ("sd", "students", "grain", NE, "What is the average GPA of each major?",
     "SELECT major, AVG(gpa) FROM students GROUP BY major",
     "SELECT major, AVG(gpa) FROM students GROUP BY major, city",
     "two CS students in different cities"),
    ("sd", "students", "count_distinct", NE, "How many students live in each city?",
     "SELECT city, COUNT(*) FROM students GROUP BY city",
     "SELECT city, COUNT(DISTINCT name) FROM students GROUP BY city",
     "two students named 'x' in one city: 2 vs 1"),
    ("s", "students", "null", NE, "Which students have a recorded age?",
     "SELECT name FROM students WHERE age IS NOT NULL",
     "SELECT name FROM students WHERE age <> NULL",
     "a student with age 20: <> NULL is never true"),
    ("sd", "students", "eq_rewrite", EQ, "Which CS students are older than 20?",
     "SELECT name FROM students WHERE major = 'CS' AND age > 20",
     "SELECT t.name FROM students t WHERE 20 < t.age AND t.major = 'CS'",
     "conjunct order and a flipped comparison"),
    ("sd", "students", "aggregate", NE, "How many credits does each student take?",
     "SELECT e.student_id, SUM(c.credits) FROM enrollments e JOIN courses c ON c.course_id = "
     "e.course_id GROUP BY e.student_id",
     "SELECT e.student_id, COUNT(c.credits) FROM enrollments e JOIN courses c ON c.course_id = "
     "e.course_id GROUP BY e.student_id",
     "one enrollment in a 3-credit course"),
    ("sd", "students", "eq_rewrite", EQ, "List each student's name with the titles of their "
     "courses.",
     "SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.student_id "
     "JOIN courses c ON c.course_id = e.course_id",
     "SELECT st.name, co.title FROM courses co JOIN enrollments en ON co.course_id = "
     "en.course_id JOIN students st ON st.student_id = en.student_id",
     "inner-join order"),
    ("s", "students", "like", NE, "Which enrollments are in Fall 2020?",
     "SELECT student_id FROM enrollments WHERE semester = 'Fall 2020'",
     "SELECT student_id FROM enrollments WHERE semester LIKE 'Fall%'",
     "an enrollment in 'Fall 2019'"),
    ("sd", "students", "eq_rewrite", EQ, "How many students are there?",
     "SELECT COUNT(*) FROM students",
     "SELECT COUNT(DISTINCT student_id) FROM students",
     "student_id is the primary key"),
    ("s", "students", "tie", NE, "Which student has the highest GPA, and what is it?",
     "SELECT name FROM students ORDER BY gpa DESC LIMIT 1",
     "SELECT name, gpa FROM students ORDER BY gpa DESC LIMIT 1",
     "any student: one column vs two"),
    # ------------------------------------------------------------------ shop
    ("sd", "shop", "tie", NE, "Which customer placed the most orders?",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id "
     "GROUP BY c.customer_id, c.name ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id "
     "GROUP BY c.name ORDER BY COUNT(*) DESC LIMIT 1",
     "customers 1 'x' and 2 'x' with 2 orders each, 3 'y' with 3: gold 'y', prediction 'x'"),
    ("sd", "shop", "tie", NE, "What is the name of the most expensive product?",
     "SELECT name FROM products WHERE price = (SELECT MAX(price) FROM products)",
     "SELECT name FROM products ORDER BY price DESC LIMIT 1",
     "two products priced 9.5"),
    ("sd", "shop", "aggregate", NE, "Which product sold the most units?",
     "SELECT p.name FROM products p JOIN order_items i ON i.product_id = p.product_id "
     "GROUP BY p.product_id, p.name ORDER BY SUM(i.quantity) DESC LIMIT 1",
     "SELECT p.name FROM products p JOIN order_items i ON i.product_id = p.product_id "
     "GROUP BY p.product_id, p.name ORDER BY COUNT(*) DESC LIMIT 1",
     "product 'a' in one item of quantity 5, product 'b' in two items of quantity 1"),
    ("sd", "shop", "tie", NE, "Which category has the most products?",
     "SELECT category FROM products GROUP BY category ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT category, COUNT(*) FROM products GROUP BY category ORDER BY COUNT(*) DESC LIMIT 1",
     "any product: one column vs two"),
    ("sd", "shop", "tie_eq", EQ, "Which category has the most products?",
     "SELECT category FROM products GROUP BY category ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT category FROM products GROUP BY 1 ORDER BY count(1) DESC LIMIT 1",
     "positional GROUP BY, COUNT(1)"),
    ("sd", "shop", "not_in_null", NE, "Which customers have placed no orders?",
     "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE "
     "o.order_id IS NULL",
     "SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders)",
     "a customer without orders and an order with a NULL customer_id"),
    ("sd", "shop", "eq_rewrite", EQ, "Which customers have placed no orders?",
     "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE "
     "o.order_id IS NULL",
     "SELECT name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = "
     "c.customer_id)",
     "order_id is the primary key: NULL only on the padded side"),
    ("sd", "shop", "left_join", NE, "How many orders has each customer placed, zero included?",
     "SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON "
     "o.customer_id = c.customer_id GROUP BY c.customer_id",
     "SELECT c.customer_id, COUNT(*) FROM customers c JOIN orders o ON o.customer_id = "
     "c.customer_id GROUP BY c.customer_id",
     "a customer without orders: (id, 0) missing"),
    ("sd", "shop", "null", NE, "How much has each customer spent (0 for none)?",
     "SELECT c.customer_id, COALESCE(SUM(o.total), 0) FROM customers c LEFT JOIN orders o ON "
     "o.customer_id = c.customer_id GROUP BY c.customer_id",
     "SELECT c.customer_id, SUM(o.total) FROM customers c LEFT JOIN orders o ON o.customer_id = "
     "c.customer_id GROUP BY c.customer_id",
     "a customer without orders: 0 vs NULL"),
    ("sd", "shop", "date", NE, "Which orders were placed in 2020?",
     "SELECT order_id FROM orders WHERE order_date >= '2020-01-01' AND order_date < '2021-01-01'",
     "SELECT order_id FROM orders WHERE order_date BETWEEN '2020-01-01' AND '2020-12-31'",
     "an order at 2020-12-31 09:00:00"),
    ("sd", "shop", "date", NE, "Which orders were placed before the last day of 2020?",
     "SELECT order_id FROM orders WHERE order_date < '2020-12-31'",
     "SELECT order_id FROM orders WHERE order_date <= '2020-12-31'",
     "an order at exactly 2020-12-31 (00:00:00)"),
    ("d", "shop", "date", EQ, "Which orders were placed before 2021?",
     "SELECT order_id FROM orders WHERE order_date < '2021-01-01'",
     "SELECT order_id FROM orders WHERE CAST(order_date AS DATE) < DATE '2021-01-01'",
     "a timestamp is before midnight of 2021-01-01 iff its day is"),
    ("s", "shop", "date", NE, "Which orders were placed in 2020?",
     "SELECT order_id FROM orders WHERE strftime('%Y', order_date) = '2020'",
     "SELECT order_id FROM orders WHERE order_date >= '2020-01-01' AND order_date <= '2020-12-31'",
     "an order at '2020-12-31 10:00:00'"),
    ("d", "shop", "value", NE, "Which customers signed up after 2021-03-01?",
     "SELECT name FROM customers WHERE CAST(signup_date AS DATE) > DATE '2021-03-01'",
     "SELECT name FROM customers WHERE signup_date > '2021-03-01'",
     "signup_date '2021-3-1' (a date to DuckDB, but text-greater than '2021-03-01')"),
    ("d", "shop", "value", NE, "How many customers signed up on or after 2021-01-01?",
     "SELECT COUNT(*) FROM customers WHERE CAST(signup_date AS DATE) >= DATE '2021-01-01'",
     "SELECT COUNT(*) FROM customers WHERE CAST(signup_date AS DATE) > DATE '2021-01-01'",
     "a customer with signup_date '2021-01-01' (any non-date text makes both fail)"),
    ("s", "shop", "value", NE, "How many customers signed up on or after 2021-01-01?",
     "SELECT COUNT(*) FROM customers WHERE date(signup_date) >= '2021-01-01'",
     "SELECT COUNT(*) FROM customers WHERE date(signup_date) > '2021-01-01'",
     "a customer with signup_date '2021-01-01' (non-date text gives NULL in both)"),
    ("s", "shop", "value", NE, "Which customers signed up on or after 2021-01-01?",
     "SELECT name FROM customers WHERE date(signup_date) >= '2021-01-01'",
     "SELECT name FROM customers WHERE signup_date >= '2021-01-01'",
     "signup_date 'soon': text-greater than the date, but date('soon') is NULL"),
    ("sd", "shop", "subquery", NE, "Which products cost more than the average of their "
     "category?",
     "SELECT name FROM products p WHERE price > (SELECT AVG(price) FROM products q WHERE "
     "q.category = p.category)",
     "SELECT name FROM products WHERE price > (SELECT AVG(price) FROM products)",
     "category 'a' with prices 1 and 2, category 'b' with 10: gold the 2, prediction the 10"),
    ("sd", "shop", "precedence", NE, "Which shipped or delivered orders are over 100?",
     "SELECT order_id FROM orders WHERE (status = 'shipped' OR status = 'delivered') AND "
     "total > 100",
     "SELECT order_id FROM orders WHERE status = 'shipped' OR status = 'delivered' AND total > 100",
     "a shipped order of total 5"),
    ("sd", "shop", "grain", NE, "What is the revenue of each product (by name)?",
     "SELECT p.name, SUM(i.quantity * p.price) FROM products p JOIN order_items i ON "
     "i.product_id = p.product_id GROUP BY p.product_id, p.name",
     "SELECT p.name, SUM(i.quantity * p.price) FROM products p JOIN order_items i ON "
     "i.product_id = p.product_id GROUP BY p.name",
     "two products named 'x' each sold once"),
    ("sd", "shop", "value", NE, "What is the average order total, to two decimals?",
     "SELECT ROUND(AVG(total), 2) FROM orders",
     "SELECT AVG(total) FROM orders",
     "one order of total 10.125"),
    ("sd", "shop", "distinct", NE, "Which cities do customers with orders live in?",
     "SELECT DISTINCT c.city FROM customers c JOIN orders o ON o.customer_id = c.customer_id",
     "SELECT c.city FROM customers c JOIN orders o ON o.customer_id = c.customer_id",
     "a customer with two orders"),
    ("sd", "shop", "join_dup", NE, "Which customers bought product 1?",
     "SELECT name FROM customers WHERE customer_id IN (SELECT o.customer_id FROM orders o JOIN "
     "order_items i ON i.order_id = o.order_id WHERE i.product_id = 1)",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN "
     "order_items i ON i.order_id = o.order_id WHERE i.product_id = 1",
     "a customer with two orders containing product 1"),
    ("sd", "shop", "eq_rewrite", EQ, "Which customers bought product 1?",
     "SELECT name FROM customers WHERE customer_id IN (SELECT o.customer_id FROM orders o JOIN "
     "order_items i ON i.order_id = o.order_id WHERE i.product_id = 1)",
     "SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i ON "
     "i.order_id = o.order_id WHERE o.customer_id = c.customer_id AND i.product_id = 1)",
     "semi-join either way"),
    ("sd", "shop", "count_distinct", NE, "How many customers have placed orders?",
     "SELECT COUNT(DISTINCT customer_id) FROM orders",
     "SELECT COUNT(customer_id) FROM orders",
     "a customer with two orders"),
    ("sd", "shop", "null", NE, "How many orders have no total recorded?",
     "SELECT COUNT(*) FROM orders WHERE total IS NULL",
     "SELECT COUNT(*) FROM orders WHERE total = 0",
     "an order with a NULL total"),
    ("s", "shop", "union", NE, "Which cities have customers with returned orders or are Paris?",
     "SELECT city FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE "
     "status = 'returned') UNION SELECT city FROM customers WHERE city = 'Paris'",
     "SELECT city FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE "
     "status = 'returned') UNION ALL SELECT city FROM customers WHERE city = 'Paris'",
     "a Paris customer with a returned order"),
    ("sd", "shop", "eq_key", EQ, "How many customers have an email?",
     "SELECT COUNT(email) FROM customers",
     "SELECT COUNT(DISTINCT email) FROM customers",
     "email is UNIQUE; NULLs are skipped by both"),
    ("sd", "shop", "eq_key", EQ, "What are the ids of the customers in Paris?",
     "SELECT customer_id FROM customers WHERE city = 'Paris'",
     "SELECT DISTINCT customer_id FROM customers WHERE city = 'Paris'",
     "customer_id is the primary key"),
    ("sd", "shop", "distinct", NE, "What are the names of the customers in Paris?",
     "SELECT name FROM customers WHERE city = 'Paris'",
     "SELECT DISTINCT name FROM customers WHERE city = 'Paris'",
     "two customers named 'x' in Paris"),
    ("sd", "shop", "eq_rewrite", EQ, "Which products were never ordered?",
     "SELECT name FROM products WHERE product_id NOT IN (SELECT product_id FROM order_items)",
     "SELECT p.name FROM products p WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE "
     "i.product_id = p.product_id)",
     "order_items.product_id is NOT NULL"),
    ("sd", "shop", "intersect", NE, "Which customers bought both product 1 and product 2?",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN "
     "order_items i ON i.order_id = o.order_id WHERE i.product_id = 1 INTERSECT SELECT c.name "
     "FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN order_items i ON "
     "i.order_id = o.order_id WHERE i.product_id = 2",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN "
     "order_items i ON i.order_id = o.order_id WHERE i.product_id = 1 AND i.product_id = 2",
     "one order with products 1 and 2: gold the name, prediction nothing"),
    ("sd", "shop", "eq_rewrite", EQ, "What are the names and prices of toys?",
     "SELECT name, price FROM products WHERE category = 'toys'",
     "SELECT price, name FROM products WHERE category = 'toys'",
     "column order is ignored"),
    ("s", "shop", "tie", NE, "Which city has the most customers?",
     "SELECT city FROM customers GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1",
     "SELECT city FROM customers WHERE city IS NOT NULL GROUP BY city ORDER BY COUNT(*) DESC "
     "LIMIT 1",
     "two customers without a city and one in 'Paris': gold NULL, prediction 'Paris'"),
    ("s", "shop", "size", NE, "Which customers placed more than 5 orders?",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY "
     "c.customer_id HAVING COUNT(*) > 5",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY "
     "c.name HAVING COUNT(*) > 5",
     "customers 1 'x' and 2 'x' with 3 orders each (6 orders): prediction 'x', gold nothing"),
    ("s", "shop", "size", NE, "Which customers placed more than 5 orders?",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY "
     "c.customer_id HAVING COUNT(*) > 5",
     "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY "
     "c.customer_id HAVING COUNT(*) >= 5",
     "a customer with exactly 5 orders"),
    ("s", "shop", "eq_rewrite", EQ, "What is the total quantity ordered per product?",
     "SELECT product_id, SUM(quantity) FROM order_items GROUP BY product_id",
     "SELECT i.product_id, total(i.quantity) FROM order_items i GROUP BY i.product_id",
     "SQLite total() is SUM as a float (never NULL here: every group has a row, quantity NOT "
     "NULL)"),
    ("s", "shop", "eq_rewrite", EQ, "How many products does each category have?",
     "SELECT category, COUNT(*) FROM products GROUP BY category",
     "WITH p AS (SELECT category FROM products) SELECT category, COUNT(*) FROM p GROUP BY category",
     "CTE inlined"),
    # ------------------------------------------------------------------ mixed join types
    # Spider's car_1 and museum_visit as declared: TEXT joined to INTEGER, no FOREIGN KEY.
    # On SQLite the join meets only numeric-looking text ('1' = 1); issue 40's recall case.
    ("s", "mixed", "case", NE, "How many car makers are there in France?",
     "SELECT COUNT(*) FROM car_makers m JOIN countries c ON m.country = c.countryid "
     "WHERE c.countryname = 'France'",
     "SELECT COUNT(*) FROM car_makers m JOIN countries c ON m.country = c.countryid "
     "WHERE c.countryname = 'france'",
     "country 1 'France' and a maker of country '1': 1 against 0"),
    ("s", "mixed", "join", NE, "List the makers of each country with the country's name.",
     "SELECT m.maker, c.countryname FROM car_makers m JOIN countries c ON m.country = c.countryid",
     "SELECT m.maker, c.countryname FROM car_makers m LEFT JOIN countries c ON m.country = c.countryid",
     "a maker of country '7' with no country 7: absent from the gold, (maker, NULL) in the prediction"),
    ("s", "mixed", "aggregate", NE, "How many makers does each country have?",
     "SELECT c.countryname, COUNT(*) FROM countries c JOIN car_makers m ON m.country = c.countryid "
     "GROUP BY c.countryid",
     "SELECT c.countryname, COUNT(*) FROM countries c JOIN car_makers m ON m.country = c.countryid "
     "GROUP BY c.countryname",
     "countries 1 and 2 both named 'x', one maker each ('1', '2'): two rows ('x', 1) against one ('x', 2)"),
    ("s", "mixed", "filter", NE, "Which countries have more than one car maker?",
     "SELECT c.countryname FROM countries c JOIN car_makers m ON m.country = c.countryid "
     "GROUP BY c.countryid HAVING COUNT(*) > 1",
     "SELECT c.countryname FROM countries c JOIN car_makers m ON m.country = c.countryid "
     "GROUP BY c.countryid HAVING COUNT(*) >= 1",
     "country 1 with one maker of country '1': absent from the gold"),
    ("s", "mixed", "join", NE, "What are the names of the visitors who bought more than 3 tickets?",
     "SELECT DISTINCT v.name FROM visitor v JOIN visit t ON t.visitor_id = v.id WHERE t.num_of_ticket > 3",
     "SELECT DISTINCT v.name FROM visitor v JOIN visit t ON t.visitor_id = v.id WHERE t.num_of_ticket >= 3",
     "visitor 1 and a visit by '1' of 3 tickets"),
    ("s", "mixed", "aggregate", NE, "How much did each member of level 1 spend in total?",
     "SELECT v.name, SUM(t.total_spent) FROM visitor v JOIN visit t ON t.visitor_id = v.id "
     "WHERE v.level_of_membership = 1 GROUP BY v.id",
     "SELECT v.name, SUM(t.total_spent) FROM visitor v JOIN visit t ON t.visitor_id = v.id "
     "WHERE v.level_of_membership = 1 GROUP BY v.name",
     "visitors 1 and 2 of level 1 both named 'x', a visit each ('1', '2'): two rows against one"),
    ("s", "mixed", "subquery", NE, "Which visitors have never visited a museum?",
     "SELECT name FROM visitor WHERE id NOT IN (SELECT visitor_id FROM visit)",
     "SELECT name FROM visitor WHERE id IN (SELECT visitor_id FROM visit)",
     "visitor 1 and a visit by '1': in the prediction, not in the gold"),
    ("s", "mixed", "join", EQ, "List the makers of each country with the country's name.",
     "SELECT m.maker, c.countryname FROM car_makers m JOIN countries c ON m.country = c.countryid",
     "SELECT m.maker, c.countryname FROM countries c JOIN car_makers m ON c.countryid = m.country",
     "the same inner join, its sides and its equality swapped"),
    ("s", "mixed", "subquery", EQ, "Which visitors have visited a museum?",
     "SELECT name FROM visitor WHERE id IN (SELECT visitor_id FROM visit)",
     "SELECT name FROM visitor v WHERE EXISTS (SELECT 1 FROM visit t WHERE t.visitor_id = v.id)",
     "IN and EXISTS apply the same comparison to the same pairs; no NULL can make IN unknown "
     "where EXISTS is false in a WHERE"),
]
# fmt: on

SCHEMAS = {
    "cars": "cars.sql",
    "concert": "concert_singer.sql",
    "emp": "employees.sql",
    "flights": "flights.sql",
    "students": "students.sql",
    "shop": "shop.sql",
    "mixed": "spider_mixed.sql",
}


def records() -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {"sqlite": [], "duckdb": []}
    both_ne = 0
    for written, schema, cls, expected, question, reference, candidate, why in PAIRS:
        dialects = written
        if written == "sd" and expected == NE:
            both_ne += 1
            if both_ne % 3 == 0:  # every third shared refutable pair: SQLite only (60/40)
                dialects = "s"
        for code, dialect in (("s", "sqlite"), ("d", "duckdb")):
            if code not in dialects:
                continue
            n = len(out[dialect]) + 1
            out[dialect].append({
                "id": f"{dialect[0]}{n:03d}-{schema}-{cls}",
                "schema": SCHEMAS[schema],
                "dialect": dialect,
                "question": question,
                "reference": reference,
                "candidate": candidate,
                "expected": expected,
                "class": cls,
                "why": why,
            })  # fmt: skip
    return out


def main() -> None:
    for dialect, recs in records().items():
        path = HERE / f"pairs_{dialect}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for rec in recs:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        print(f"{path.name}: {len(recs)} pairs")


if __name__ == "__main__":
    main()
