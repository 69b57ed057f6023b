# Text-to-SQL style pairs: a question, the gold query a benchmark would hold and a model's
# rewrite of it, on Spider-like schemas (world, concert_singer, pets_students, flights)
# whose names are nullable and not unique. Each textbook equivalence of issue 14 comes with
# at least one near miss: the same rewrite where a column is nullable, a name is not unique,
# a range is closed, a table may be empty or a LIMIT 1 meets a tie. The candidate (the
# model's query) comes first, the gold query second.
# schema: world

# --- NOT IN / NOT EXISTS / LEFT JOIN ... IS NULL / EXCEPT ---------------------------------

# title: singers who never performed, NOT IN vs NOT EXISTS (both columns NOT NULL)
# schema: concert_singer
# expect: equivalent
# method: normalized
# note: singer.singer_id is the key and singer_in_concert.singer_id is NOT NULL, so NOT IN is never UNKNOWN and means "no equal row" (the normalizer's not_in_to_not_exists; the symbolic prover proved it before that rule)
SELECT name
FROM singer
WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert);
SELECT s.name
FROM singer s
WHERE NOT EXISTS (SELECT 1 FROM singer_in_concert sic WHERE sic.singer_id = s.singer_id);

# title: countries without a city, NOT IN over the nullable city.country_code
# expect: not_equivalent
# cause: empty_result
# note: one city whose country_code is NULL makes every NOT IN UNKNOWN: the model's query returns nothing while NOT EXISTS still lists the cityless countries
SELECT name
FROM country
WHERE code NOT IN (SELECT country_code FROM city);
SELECT co.name
FROM country co
WHERE NOT EXISTS (SELECT 1 FROM city ci WHERE ci.country_code = co.code);

# title: concerts in no large stadium, NOT IN with the nullable concert.stadium_id outside
# schema: concert_singer
# expect: not_equivalent
# cause: missing_rows
# note: the subquery column is the key, but a concert whose stadium_id is NULL makes NOT IN UNKNOWN as soon as one large stadium exists, while NOT EXISTS keeps it
SELECT concert_name
FROM concert
WHERE stadium_id NOT IN (SELECT stadium_id FROM stadium WHERE capacity > 50000);
SELECT c.concert_name
FROM concert c
WHERE NOT EXISTS (SELECT 1 FROM stadium s
                  WHERE s.stadium_id = c.stadium_id AND s.capacity > 50000);

# title: singers who never performed, LEFT JOIN IS NULL on a NOT NULL column vs NOT EXISTS
# schema: concert_singer
# expect: equivalent
# method: symbolic
# note: sic.concert_id is NOT NULL, so it is NULL exactly on the one NULL-extended row of a singer without a match; matched singers lose all their rows
SELECT s.name
FROM singer s
LEFT JOIN singer_in_concert sic ON sic.singer_id = s.singer_id
WHERE sic.concert_id IS NULL;
SELECT s.name
FROM singer s
WHERE NOT EXISTS (SELECT 1 FROM singer_in_concert sic WHERE sic.singer_id = s.singer_id);

# title: countries without a city, LEFT JOIN IS NULL on the nullable district
# expect: not_equivalent
# cause: extra_rows
# note: a country whose only city has a NULL district keeps that joined row, so it is listed although it has a city
SELECT co.name
FROM country co
LEFT JOIN city ci ON ci.country_code = co.code
WHERE ci.district IS NULL;
SELECT co.name
FROM country co
WHERE NOT EXISTS (SELECT 1 FROM city ci WHERE ci.country_code = co.code);

# title: countries without a city, LEFT JOIN IS NULL on the city key vs NOT EXISTS
# expect: equivalent
# method: symbolic
# note: ci.id is the PRIMARY KEY, NULL only on the NULL-extended row; a NULL country_code never matches in either query
SELECT co.name
FROM country co
LEFT JOIN city ci ON ci.country_code = co.code
WHERE ci.id IS NULL;
SELECT co.name
FROM country co
WHERE NOT EXISTS (SELECT 1 FROM city ci WHERE ci.country_code = co.code);

# title: ids of singers who never performed, EXCEPT vs NOT IN
# schema: concert_singer
# expect: equivalent
# method: symbolic
# note: EXCEPT removes duplicates, but singer_id is the key so the NOT IN side has none; both subquery columns are NOT NULL
SELECT singer_id FROM singer
EXCEPT
SELECT singer_id FROM singer_in_concert;
SELECT singer_id
FROM singer
WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert);

# title: names of singers who never performed, EXCEPT on names vs NOT IN on ids
# schema: concert_singer
# expect: not_equivalent
# cause: missing_rows
# note: names are not unique: a name shared by a singer who performed and one who did not is removed by EXCEPT, and two idle singers with one name come back once
SELECT name FROM singer
EXCEPT
SELECT s.name FROM singer s JOIN singer_in_concert sic ON sic.singer_id = s.singer_id;
SELECT name
FROM singer
WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert);

# title: countries where English is not spoken, EXCEPT vs DISTINCT NOT EXISTS
# expect: equivalent
# method: symbolic
# note: both return each country_code with at least one language row and no English row, once
SELECT country_code FROM countrylanguage
EXCEPT
SELECT country_code FROM countrylanguage WHERE language = 'English';
SELECT DISTINCT cl.country_code
FROM countrylanguage cl
WHERE NOT EXISTS (SELECT 1 FROM countrylanguage e
                  WHERE e.country_code = cl.country_code AND e.language = 'English');

# title: countries where English is not spoken, EXCEPT ALL vs EXCEPT
# expect: not_equivalent
# cause: extra_rows
# note: a country with two non-English languages comes back twice under EXCEPT ALL
SELECT country_code FROM countrylanguage
EXCEPT ALL
SELECT country_code FROM countrylanguage WHERE language = 'English';
SELECT country_code FROM countrylanguage
EXCEPT
SELECT country_code FROM countrylanguage WHERE language = 'English';

# --- joins to a parent on a nullable foreign key -----------------------------------------

# title: cities with a known country, join on the nullable FK vs country_code IS NOT NULL
# expect: equivalent
# method: normalized
# note: city.country_code REFERENCES country(code), the key: a non-NULL code matches exactly one country, a NULL one none
SELECT ci.name
FROM city ci
JOIN country co ON co.code = ci.country_code;
SELECT name
FROM city
WHERE country_code IS NOT NULL;

# title: cities with a known country, join on the nullable FK vs all cities
# expect: not_equivalent
# cause: missing_rows
# note: a city whose country_code is NULL is dropped by the join
SELECT ci.name
FROM city ci
JOIN country co ON co.code = ci.country_code;
SELECT name
FROM city;

# title: concerts with their stadium, join on the nullable FK vs stadium_id IS NOT NULL
# schema: concert_singer
# expect: equivalent
# method: normalized
# note: concert.stadium_id REFERENCES stadium(stadium_id); the join adds no row and drops only NULL ids
SELECT c.concert_name, c.year
FROM concert c
JOIN stadium s ON s.stadium_id = c.stadium_id;
SELECT concert_name, year
FROM concert
WHERE stadium_id IS NOT NULL;

# title: concerts with their stadium, join on the stadium name instead of the key
# schema: concert_singer
# expect: not_equivalent
# note: the model joins concerts to stadiums named like the concert's stadium: two stadiums with one name double a concert, a NULL name drops it
SELECT c.concert_name, c.year
FROM concert c
JOIN stadium s ON s.stadium_id = c.stadium_id
JOIN stadium s2 ON s2.name = s.name;
SELECT concert_name, year
FROM concert
WHERE stadium_id IS NOT NULL;

# --- filters in a LEFT JOIN's ON -----------------------------------------------------------

# title: stadiums with their 2014 concerts, ON filter vs filtered derived table
# schema: concert_singer
# expect: equivalent
# method: normalized
# note: a conjunct on the right side in ON filters the right input before the outer join
SELECT s.name, c.concert_name
FROM stadium s
LEFT JOIN concert c ON c.stadium_id = s.stadium_id AND c.year = '2014';
SELECT s.name, c.concert_name
FROM stadium s
LEFT JOIN (SELECT * FROM concert WHERE year = '2014') c ON c.stadium_id = s.stadium_id;

# title: SELECT * over a LEFT JOIN, ON filter vs filtered derived table
# schema: concert_singer
# expect: equivalent
# method: normalized
# note: the derived table keeps concert's columns in order, so * expands to the same nine columns
SELECT *
FROM stadium s
LEFT JOIN concert c ON c.stadium_id = s.stadium_id AND c.year = '2014';
SELECT *
FROM stadium s
LEFT JOIN (SELECT * FROM concert WHERE year = '2014') c ON c.stadium_id = s.stadium_id;

# title: number of 2014 concerts per stadium, ON filter vs derived table, zero counts kept
# schema: concert_singer
# expect: equivalent
# method: normalized
# note: stadium_id is the key; a stadium without a 2014 concert has one NULL-extended row and COUNT(c.concert_id) = 0 in both
SELECT s.stadium_id, COUNT(c.concert_id)
FROM stadium s
LEFT JOIN concert c ON c.stadium_id = s.stadium_id AND c.year = '2014'
GROUP BY s.stadium_id;
SELECT s.stadium_id, COUNT(c.concert_id)
FROM stadium s
LEFT JOIN (SELECT concert_id, stadium_id FROM concert WHERE year = '2014') c
  ON c.stadium_id = s.stadium_id
GROUP BY s.stadium_id;

# title: stadiums with their 2014 concerts, filter in WHERE vs in ON
# schema: concert_singer
# expect: not_equivalent
# cause: missing_rows
# note: WHERE c.year = '2014' rejects the NULL-extended row: a stadium without a 2014 concert disappears
SELECT s.name, c.concert_name
FROM stadium s
LEFT JOIN concert c ON c.stadium_id = s.stadium_id
WHERE c.year = '2014';
SELECT s.name, c.concert_name
FROM stadium s
LEFT JOIN concert c ON c.stadium_id = s.stadium_id AND c.year = '2014';

# --- HAVING vs a filtered aggregate --------------------------------------------------------

# title: countries with more than 3 cities, HAVING vs filtered derived table
# expect: equivalent
# method: symbolic
# note: HAVING is a filter over the grouped rows; the derived table computes the same groups and filters the same count
SELECT country_code, COUNT(*)
FROM city
GROUP BY country_code
HAVING COUNT(*) > 3;
SELECT country_code, n
FROM (SELECT country_code, COUNT(*) AS n FROM city GROUP BY country_code) t
WHERE n > 3;

# title: continents whose average country population exceeds 1000000, HAVING vs derived table
# expect: equivalent
# method: symbolic
# note: the aggregate in HAVING is not projected; the derived table computes it as a column and drops it after the filter
SELECT continent
FROM country
GROUP BY continent
HAVING AVG(population) > 1000000;
SELECT continent
FROM (SELECT continent, AVG(population) AS avg_pop FROM country GROUP BY continent) t
WHERE avg_pop > 1000000;

# title: continents whose average country population exceeds 1000000, WHERE instead of HAVING
# expect: not_equivalent
# note: the model filters countries before grouping: a continent of one large and one small country qualifies under HAVING only if the average does, and is listed by WHERE when any country is large
SELECT continent
FROM country
WHERE population > 1000000
GROUP BY continent;
SELECT continent
FROM country
GROUP BY continent
HAVING AVG(population) > 1000000;

# --- UNION of two filters vs OR / IN ------------------------------------------------------

# title: names of countries in Europe or Asia, UNION vs DISTINCT with OR
# expect: equivalent
# method: symbolic
# note: UNION removes duplicates, NULL names included, as DISTINCT does
SELECT name FROM country WHERE continent = 'Europe'
UNION
SELECT name FROM country WHERE continent = 'Asia';
SELECT DISTINCT name
FROM country
WHERE continent = 'Europe' OR continent = 'Asia';

# title: names of countries in Europe or Asia, UNION vs DISTINCT with IN
# expect: equivalent
# method: symbolic
# note: IN of two constants is the OR of two equalities
SELECT name FROM country WHERE continent = 'Europe'
UNION
SELECT name FROM country WHERE continent = 'Asia';
SELECT DISTINCT name
FROM country
WHERE continent IN ('Europe', 'Asia');

# title: codes of European or very populous countries, UNION vs OR without DISTINCT
# expect: equivalent
# method: symbolic
# note: code is the PRIMARY KEY, so the OR query has no duplicates for UNION to remove
SELECT code FROM country WHERE continent = 'Europe'
UNION
SELECT code FROM country WHERE population > 80000000;
SELECT code
FROM country
WHERE continent = 'Europe' OR population > 80000000;

# title: names of European or very populous countries, UNION ALL vs OR
# expect: not_equivalent
# cause: extra_rows
# note: a European country of more than 80 million people satisfies both branches and comes back twice
SELECT name FROM country WHERE continent = 'Europe'
UNION ALL
SELECT name FROM country WHERE population > 80000000;
SELECT name
FROM country
WHERE continent = 'Europe' OR population > 80000000;

# title: names of countries in Europe or Asia, UNION vs OR without DISTINCT
# expect: not_equivalent
# cause: missing_rows
# note: names are not unique: two European countries with one name come back twice from the OR query, once from UNION
SELECT name FROM country WHERE continent = 'Europe'
UNION
SELECT name FROM country WHERE continent = 'Asia';
SELECT name
FROM country
WHERE continent = 'Europe' OR continent = 'Asia';

# --- COALESCE and SUM ----------------------------------------------------------------------

# title: total fare per airline, COALESCE(SUM) vs SUM(COALESCE)
# schema: flights
# expect: equivalent
# method: symbolic
# note: every group has a row; SUM over a group of NULL prices is NULL and becomes 0, and SUM of the zeros is 0
SELECT airline, COALESCE(SUM(price), 0)
FROM flights
GROUP BY airline;
SELECT airline, SUM(COALESCE(price, 0))
FROM flights
GROUP BY airline;

# title: total fare of every airline with zero for none, COALESCE(SUM) vs SUM(COALESCE) over a LEFT JOIN
# schema: flights
# expect: equivalent
# method: symbolic
# note: an airline without flights has one NULL-extended row whose COALESCE is 0; the group is never empty
SELECT a.uid, COALESCE(SUM(f.price), 0)
FROM airlines a
LEFT JOIN flights f ON f.airline = a.uid
GROUP BY a.uid;
SELECT a.uid, SUM(COALESCE(f.price, 0))
FROM airlines a
LEFT JOIN flights f ON f.airline = a.uid
GROUP BY a.uid;

# title: total fare of all flights, COALESCE(SUM) vs SUM(COALESCE) without GROUP BY
# schema: flights
# expect: not_equivalent
# note: on an empty flights table the ungrouped SUM(COALESCE(price, 0)) is NULL while COALESCE(SUM(price), 0) is 0
SELECT COALESCE(SUM(price), 0)
FROM flights;
SELECT SUM(COALESCE(price, 0))
FROM flights;

# --- date windows --------------------------------------------------------------------------

# title: flights departing in March 2024, date_trunc vs half-open range
# schema: flights
# expect: equivalent
# method: symbolic
# note: date_trunc('month', ts) = 2024-03-01 00:00 exactly when 2024-03-01 <= ts < 2024-04-01
SELECT flight_id
FROM flights
WHERE date_trunc('month', departs_at) = TIMESTAMP '2024-03-01 00:00:00';
SELECT flight_id
FROM flights
WHERE departs_at >= TIMESTAMP '2024-03-01 00:00:00'
  AND departs_at < TIMESTAMP '2024-04-01 00:00:00';

# title: flights flown in 2024, YEAR(date) vs range
# schema: flights
# expect: equivalent
# method: symbolic
# note: on a DATE, YEAR(d) = 2024 exactly when 2024-01-01 <= d < 2025-01-01; a NULL date fails both
SELECT flight_id, flight_no
FROM flights
WHERE YEAR(flight_date) = 2024;
SELECT flight_id, flight_no
FROM flights
WHERE flight_date >= DATE '2024-01-01' AND flight_date < DATE '2025-01-01';

# title: flights departing in 2024, EXTRACT(YEAR) on a timestamp vs range
# schema: flights
# expect: equivalent
# method: symbolic
# note: the year of a timestamp is 2024 exactly when it lies in [2024-01-01, 2025-01-01)
SELECT flight_id
FROM flights
WHERE EXTRACT(YEAR FROM departs_at) = 2024;
SELECT flight_id
FROM flights
WHERE departs_at >= TIMESTAMP '2024-01-01 00:00:00'
  AND departs_at < TIMESTAMP '2025-01-01 00:00:00';

# title: flights departing in March 2024, BETWEEN the first and the last day on a TIMESTAMP
# schema: flights
# expect: not_equivalent
# cause: filter_window
# note: '2024-03-31' is midnight: a flight at 2024-03-31 08:00 is outside the BETWEEN
SELECT flight_id
FROM flights
WHERE departs_at BETWEEN '2024-03-01' AND '2024-03-31';
SELECT flight_id
FROM flights
WHERE departs_at >= TIMESTAMP '2024-03-01 00:00:00'
  AND departs_at < TIMESTAMP '2024-04-01 00:00:00';

# title: flights departing in 2024, YEAR vs BETWEEN the first and last day
# schema: flights
# expect: not_equivalent
# cause: filter_window
# note: a flight on 2024-12-31 after midnight has YEAR 2024 but is past the BETWEEN's upper bound
SELECT flight_id
FROM flights
WHERE departs_at BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND TIMESTAMP '2024-12-31 00:00:00';
SELECT flight_id
FROM flights
WHERE YEAR(departs_at) = 2024;

# title: flights booked in 2024, CAST of the text date vs YEAR of the cast
# schema: flights
# expect: equivalent
# method: symbolic
# note: both cast the same text to DATE (an invalid text fails both); the year is 2024 exactly on [2024-01-01, 2025-01-01)
SELECT flight_id
FROM flights
WHERE CAST(booked_on AS DATE) >= DATE '2024-01-01'
  AND CAST(booked_on AS DATE) < DATE '2025-01-01';
SELECT flight_id
FROM flights
WHERE YEAR(CAST(booked_on AS DATE)) = 2024;

# title: flights booked on 2024-03-01, text comparison vs CAST to DATE
# schema: flights
# expect: not_equivalent
# cause: missing_rows
# note: the text '2024-3-1' casts to DATE 2024-03-01 but is not the string '2024-03-01'
SELECT flight_id
FROM flights
WHERE booked_on = '2024-03-01';
SELECT flight_id
FROM flights
WHERE CAST(booked_on AS DATE) = DATE '2024-03-01';

# --- GROUP BY name vs GROUP BY id ---------------------------------------------------------

# title: residents per dorm, GROUP BY the UNIQUE NOT NULL name vs the id and the name
# schema: pets_students
# expect: equivalent
# method: symbolic
# note: dorm_name is UNIQUE NOT NULL and dorm_id the key: each name is one dorm, so both groupings make the same groups
SELECT d.dorm_name, COUNT(*)
FROM dorm d
JOIN lives_in l ON l.dorm_id = d.dorm_id
GROUP BY d.dorm_name;
SELECT d.dorm_name, COUNT(*)
FROM dorm d
JOIN lives_in l ON l.dorm_id = d.dorm_id
GROUP BY d.dorm_id, d.dorm_name;

# title: number of cities per country, GROUP BY the name vs the code and the name
# expect: not_equivalent
# cause: grain
# note: country names are not unique: two countries called alike make one group by name and two by code
SELECT co.name, COUNT(*)
FROM country co
JOIN city ci ON ci.country_code = co.code
GROUP BY co.name;
SELECT co.name, COUNT(*)
FROM country co
JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name;

# title: number of pets per student, GROUP BY the first name vs the student id
# schema: pets_students
# expect: not_equivalent
# cause: grain
# note: two students named alike are merged by the model's GROUP BY fname
SELECT s.fname, COUNT(*)
FROM student s
JOIN has_pet hp ON hp.stu_id = s.stu_id
GROUP BY s.fname;
SELECT s.fname, COUNT(*)
FROM student s
JOIN has_pet hp ON hp.stu_id = s.stu_id
GROUP BY s.stu_id, s.fname;

# --- COUNT variants -----------------------------------------------------------------------

# title: number of continents, COUNT(DISTINCT) vs COUNT(*) over DISTINCT non-NULL values
# expect: equivalent
# method: normalized
# note: COUNT(DISTINCT x) counts the distinct non-NULL values, 0 on an empty table as COUNT(*) is
SELECT COUNT(DISTINCT continent)
FROM country;
SELECT COUNT(*)
FROM (SELECT DISTINCT continent FROM country WHERE continent IS NOT NULL) t;

# title: number of continents, COUNT(DISTINCT) vs COUNT(*) over DISTINCT values with NULL
# expect: not_equivalent
# note: a country without a continent adds a NULL row to SELECT DISTINCT, which COUNT(*) counts and COUNT(DISTINCT) does not
SELECT COUNT(*)
FROM (SELECT DISTINCT continent FROM country) t;
SELECT COUNT(DISTINCT continent)
FROM country;

# title: number of cities of each country, scalar subquery vs LEFT JOIN with COUNT(ci.id)
# expect: equivalent
# method: symbolic
# note: code is the key, so the groups are the country rows; a country without a city has one NULL-extended row and COUNT(ci.id) = 0, the subquery's COUNT(*) over no row
SELECT co.name, (SELECT COUNT(*) FROM city ci WHERE ci.country_code = co.code)
FROM country co;
SELECT co.name, COUNT(ci.id)
FROM country co
LEFT JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name;

# title: number of cities of each country, scalar subquery vs LEFT JOIN with COUNT(*)
# expect: not_equivalent
# cause: same_keys_different_values
# note: COUNT(*) counts the NULL-extended row: a country without a city gets 1 instead of 0
SELECT co.name, COUNT(*)
FROM country co
LEFT JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name;
SELECT co.name, (SELECT COUNT(*) FROM city ci WHERE ci.country_code = co.code)
FROM country co;

# title: number of pets of each student, scalar subquery vs LEFT JOIN grouped by name only
# schema: pets_students
# expect: not_equivalent
# note: students sharing a first name are merged into one group by the model's query
SELECT s.fname, COUNT(hp.pet_id)
FROM student s
LEFT JOIN has_pet hp ON hp.stu_id = s.stu_id
GROUP BY s.fname;
SELECT s.fname, (SELECT COUNT(*) FROM has_pet hp WHERE hp.stu_id = s.stu_id)
FROM student s;

# --- ORDER BY ... LIMIT, MAX and "the most ..." -------------------------------------------

# title: first ten languages by country and language, the country key written two ways
# expect: equivalent
# method: symbolic
# note: co.code = cl.country_code on every joined row, and (country_code, language) is the key of countrylanguage, so the order is total and the same
SELECT co.name, cl.language
FROM country co
JOIN countrylanguage cl ON cl.country_code = co.code
ORDER BY co.code, cl.language
LIMIT 10;
SELECT co.name, cl.language
FROM country co
JOIN countrylanguage cl ON cl.country_code = co.code
ORDER BY cl.country_code, cl.language
LIMIT 10;

# title: five countries by code, an extra sort key after the primary key
# expect: equivalent
# method: symbolic
# note: code is the key, so name never breaks a tie
SELECT code, name
FROM country
ORDER BY code, name
LIMIT 5;
SELECT code, name
FROM country
ORDER BY code
LIMIT 5;

# title: largest city population, MAX vs ORDER BY DESC LIMIT 1
# expect: not_equivalent
# cause: extra_rows
# note: not equivalent although population is NOT NULL: nothing makes city non-empty, and on the empty database MAX returns one NULL row while ORDER BY ... LIMIT 1 returns none; ties do not matter, the value is the same
SELECT MAX(population)
FROM city;
SELECT population
FROM city
ORDER BY population DESC
LIMIT 1;

# title: largest city population, MAX vs a scalar ORDER BY DESC LIMIT 1 subquery
# expect: equivalent
# method: symbolic
# note: the scalar subquery is NULL on an empty city as MAX is; otherwise its first row holds the largest population (NOT NULL)
SELECT MAX(population)
FROM city;
SELECT (SELECT population FROM city ORDER BY population DESC LIMIT 1);

# title: name of the most populous city, ORDER BY DESC LIMIT 1 vs = MAX
# expect: not_equivalent
# cause: missing_rows
# note: with two cities tied for the largest population the gold query returns both names, LIMIT 1 one of them
SELECT name
FROM city
ORDER BY population DESC
LIMIT 1;
SELECT name
FROM city
WHERE population = (SELECT MAX(population) FROM city);

# title: name of the most populous city, = MIN instead of = MAX
# expect: not_equivalent
# note: agrees on one city and on all-tied cities; two cities of different population tell them apart
SELECT name
FROM city
WHERE population = (SELECT MIN(population) FROM city);
SELECT name
FROM city
WHERE population = (SELECT MAX(population) FROM city);

# title: the country with the most cities, LIMIT 1 vs every country with the maximum count
# expect: not_equivalent
# cause: missing_rows
# note: two countries tied for the most cities are both in the gold answer, LIMIT 1 keeps one
SELECT country_code
FROM city
WHERE country_code IS NOT NULL
GROUP BY country_code
ORDER BY COUNT(*) DESC
LIMIT 1;
SELECT country_code
FROM city
WHERE country_code IS NOT NULL
GROUP BY country_code
HAVING COUNT(*) = (SELECT MAX(n)
                   FROM (SELECT COUNT(*) AS n FROM city
                         WHERE country_code IS NOT NULL GROUP BY country_code) t);

# title: oldest singer, DESC NULLS LAST spelled out vs DuckDB's default
# schema: concert_singer
# expect: equivalent
# method: normalized
# note: DuckDB sorts NULLs last in both directions by default; singer_id, the key, makes the order total
SELECT name, age
FROM singer
ORDER BY age DESC NULLS LAST, singer_id
LIMIT 1;
SELECT name, age
FROM singer
ORDER BY age DESC, singer_id ASC
LIMIT 1;

# title: oldest singer, NULLS FIRST
# schema: concert_singer
# expect: not_equivalent
# note: a singer of unknown age sorts first under NULLS FIRST
SELECT name, age
FROM singer
ORDER BY age DESC NULLS FIRST, singer_id
LIMIT 1;
SELECT name, age
FROM singer
ORDER BY age DESC, singer_id
LIMIT 1;

# --- window functions, ROLLUP, SUBSTRING, ROUND -------------------------------------------

# title: largest city of each country, ROW_NUMBER in a derived table vs QUALIFY
# expect: equivalent
# note: QUALIFY filters on the window value as the outer WHERE does
SELECT name, country_code
FROM (SELECT name, country_code,
             ROW_NUMBER() OVER (PARTITION BY country_code ORDER BY population DESC, id) AS rn
      FROM city) t
WHERE rn = 1;
SELECT name, country_code
FROM city
QUALIFY ROW_NUMBER() OVER (PARTITION BY country_code ORDER BY population DESC, id) = 1;

# title: largest city of each country, ROW_NUMBER vs a named WINDOW
# expect: equivalent
# note: WINDOW w AS (...) names the same partition and order
SELECT name, country_code,
       ROW_NUMBER() OVER (PARTITION BY country_code ORDER BY population DESC, id)
FROM city;
SELECT name, country_code, ROW_NUMBER() OVER w
FROM city
WINDOW w AS (PARTITION BY country_code ORDER BY population DESC, id);

# title: population rank of each city, RANK vs one plus the number of larger cities
# expect: equivalent
# note: population is NOT NULL; RANK is 1 + the number of rows that sort strictly before, here the cities with a larger population
SELECT id, RANK() OVER (ORDER BY population DESC)
FROM city;
SELECT c.id, 1 + (SELECT COUNT(*) FROM city c2 WHERE c2.population > c.population)
FROM city c;

# title: population rank of each city, DENSE_RANK vs one plus the number of larger cities
# expect: not_equivalent
# note: two cities tied above a third give it DENSE_RANK 2 and RANK 3
SELECT c.id, 1 + (SELECT COUNT(*) FROM city c2 WHERE c2.population > c.population)
FROM city c;
SELECT id, DENSE_RANK() OVER (ORDER BY population DESC)
FROM city;

# title: largest city of each country, RANK = 1 vs ROW_NUMBER = 1
# expect: not_equivalent
# cause: extra_rows
# note: two cities tied for a country's largest population both have RANK 1, one has ROW_NUMBER 1
SELECT name, country_code
FROM city
QUALIFY RANK() OVER (PARTITION BY country_code ORDER BY population DESC) = 1;
SELECT name, country_code
FROM city
QUALIFY ROW_NUMBER() OVER (PARTITION BY country_code ORDER BY population DESC, id) = 1;

# title: population by continent and region with subtotals, ROLLUP vs GROUPING SETS
# expect: equivalent
# method: symbolic
# note: ROLLUP (a, b) is GROUPING SETS ((a, b), (a), ())
SELECT continent, region, SUM(population)
FROM country
GROUP BY ROLLUP (continent, region);
SELECT continent, region, SUM(population)
FROM country
GROUP BY GROUPING SETS ((continent, region), (continent), ());

# title: population by continent and region with subtotals, ROLLUP vs UNION ALL of three groupings
# expect: equivalent
# method: symbolic
# note: the grand total row exists on an empty table in both (a global aggregate has one row)
SELECT continent, region, SUM(population)
FROM country
GROUP BY ROLLUP (continent, region);
SELECT continent, region, SUM(population) FROM country GROUP BY continent, region
UNION ALL
SELECT continent, NULL, SUM(population) FROM country GROUP BY continent
UNION ALL
SELECT NULL, NULL, SUM(population) FROM country;

# title: population by continent and region with subtotals, ROLLUP vs plain GROUP BY
# expect: not_equivalent
# cause: grain
# note: the model's GROUP BY has no subtotal and no grand total rows
SELECT continent, region, SUM(population)
FROM country
GROUP BY continent, region;
SELECT continent, region, SUM(population)
FROM country
GROUP BY ROLLUP (continent, region);

# title: countries whose name starts with A, SUBSTRING vs LIKE
# expect: equivalent
# method: symbolic
# note: SUBSTRING(name, 1, 1) is the first character ('' for ''), so it is 'A' exactly when name LIKE 'A%'; NULL fails both
SELECT name
FROM country
WHERE SUBSTRING(name, 1, 1) = 'A';
SELECT name
FROM country
WHERE name LIKE 'A%';

# title: countries whose name starts with A, case-insensitive ILIKE vs SUBSTRING
# expect: not_equivalent
# cause: extra_rows
# note: ILIKE 'a%' also matches a name starting with a lower-case a
SELECT name
FROM country
WHERE name ILIKE 'a%';
SELECT name
FROM country
WHERE SUBSTRING(name, 1, 1) = 'A';

# title: average singer age per country rounded to two places, inline vs derived table
# schema: concert_singer
# expect: equivalent
# method: symbolic
# note: the same ROUND of the same AVG, computed in a derived table and rounded outside
SELECT country, ROUND(AVG(age), 2)
FROM singer
GROUP BY country;
SELECT country, ROUND(avg_age, 2)
FROM (SELECT country, AVG(age) AS avg_age FROM singer GROUP BY country) t;

# title: average singer age per country, rounded vs not rounded
# schema: concert_singer
# expect: not_equivalent
# cause: same_keys_different_values
# note: ages 20, 21 and 21 average 20.666..., rounded 20.67
SELECT country, AVG(age)
FROM singer
GROUP BY country;
SELECT country, ROUND(AVG(age), 2)
FROM singer
GROUP BY country;
