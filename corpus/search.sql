# The differences a plain random test suite finds and a search must too (issue 15): ties
# under ORDER BY ... LIMIT, groups that need five or more rows, and values that need finer
# pools (decimals, negative numerators, date-shaped text). Each miss comes with a near
# miss that must stay unrefuted.
# schema: world
# dialect: duckdb

# title: the country with the most cities, grouped by name instead of by code
# expect: not_equivalent
# note: two countries named 'x' with 2 cities each and a country 'y' with 3: by name 'x' has 4 and wins, by code 'y' wins; a database with no tie at the top tells them apart
SELECT co.name FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.name ORDER BY COUNT(*) DESC LIMIT 1;
SELECT co.name FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name ORDER BY COUNT(*) DESC LIMIT 1;

# title: the country with the most cities, its grouping keys listed in another order
# expect: equivalent
# note: ties at the top make either query's answer the engine's choice; they must be set aside, not reported as a difference
SELECT co.name FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.name, co.code ORDER BY COUNT(*) DESC LIMIT 1;
SELECT co.name FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name ORDER BY COUNT(*) DESC LIMIT 1;

# title: the country with the most cities, a tie-break by name added to the reference's order
# expect: equivalent
# note: whatever the candidate returns is one of the answers the reference may give under a tie at the top: a difference only a tie-break explains is set aside, never reported
SELECT co.name, COUNT(*) FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name ORDER BY COUNT(*) DESC, co.name LIMIT 1;
SELECT co.name, COUNT(*) FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name ORDER BY COUNT(*) DESC LIMIT 1;

# title: the country with the most cities and their number, grouped by name
# expect: not_equivalent
# note: two countries named 'x' with one city each: ('x', 1) under either tie-break of the reference, ('x', 2) for the candidate
SELECT co.name, COUNT(*) FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.name ORDER BY COUNT(*) DESC LIMIT 1;
SELECT co.name, COUNT(*) FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code, co.name ORDER BY COUNT(*) DESC LIMIT 1;

# title: countries with more than five cities, > 5 instead of >= 5
# expect: not_equivalent
# note: a country with exactly five cities
SELECT co.code FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code HAVING COUNT(*) > 5;
SELECT co.code FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code HAVING COUNT(*) >= 5;

# title: countries with more than five cities, > 5 and >= 6
# expect: equivalent
SELECT co.code FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code HAVING COUNT(*) > 5;
SELECT co.code FROM country co JOIN city ci ON ci.country_code = co.code
GROUP BY co.code HAVING COUNT(*) >= 6;

# title: language shares rounded to two decimals vs not rounded
# expect: not_equivalent
# note: a DOUBLE with three decimals (2.675) is not its rounding
SELECT country_code, language, ROUND(percentage, 2) FROM countrylanguage;
SELECT country_code, language, percentage FROM countrylanguage;

# title: language shares rounded to no decimals, ROUND(x, 0) vs ROUND(x)
# expect: equivalent
SELECT country_code, language, ROUND(percentage, 0) FROM countrylanguage;
SELECT country_code, language, ROUND(percentage) FROM countrylanguage;

# title: flights booked by 2024-03-01, the text compared as text vs cast to a date
# schema: flights
# expect: not_equivalent
# note: booked_on '2024-03-01 23:59:59' is after '2024-03-01' as text, on that day as a date
SELECT flight_id FROM flights WHERE booked_on <= '2024-03-01';
SELECT flight_id FROM flights WHERE CAST(booked_on AS DATE) <= DATE '2024-03-01';

# title: flights booked in 2024, YEAR of the cast text vs a half-open range of casts
# schema: flights
# expect: equivalent
SELECT flight_id FROM flights WHERE YEAR(CAST(booked_on AS DATE)) = 2024;
SELECT flight_id FROM flights
WHERE CAST(booked_on AS DATE) >= DATE '2024-01-01' AND CAST(booked_on AS DATE) < DATE '2025-01-01';

# title: light cars, an integer-division bound that also drops negative numerators
# schema: spider_cars
# dialect: sqlite
# expect: not_equivalent
# note: weight -60: -60 / 60 is -1 in SQLite, below 0, but still below 5
SELECT id FROM cars_data WHERE weight / 60 >= 0 AND weight / 60 < 5;
SELECT id FROM cars_data WHERE weight / 60 < 5;

# title: an integer division bound against the bound it implies
# schema: spider_cars
# dialect: sqlite
# expect: equivalent
# note: SQLite's integer division truncates toward zero: weight / 60 < 5 iff weight < 300 for every integer weight
SELECT id FROM cars_data WHERE weight / 60 < 5;
SELECT id FROM cars_data WHERE weight < 300;

# title: orders placed before the last day of 2020, <= instead of < against a date-only text
# schema: shop
# dialect: sqlite
# expect: not_equivalent
# note: SQLite compares a TIMESTAMP column with the text '2020-12-31' as text, and '2020-12-31 00:00:00' is after it: only an order whose placed_at is the text '2020-12-31' itself (as Spider's databases store dates) tells <= from <
SELECT order_id FROM orders WHERE placed_at <= '2020-12-31';
SELECT order_id FROM orders WHERE placed_at < '2020-12-31';

# title: orders placed by the last day of 2020, <= against < or =
# schema: shop
# dialect: sqlite
# expect: equivalent
SELECT order_id FROM orders WHERE placed_at <= '2020-12-31';
SELECT order_id FROM orders WHERE placed_at < '2020-12-31' OR placed_at = '2020-12-31';

# title: students taking more than six courses, >= 6 instead of > 6
# schema: students
# dialect: sqlite
# expect: not_equivalent
# note: a student in exactly six courses: enrollments are keyed on (student_id, course_id), so the six rows need six courses, more than a shaped database gave a parent table
SELECT student_id FROM enrollments GROUP BY student_id HAVING COUNT(*) >= 6;
SELECT student_id FROM enrollments GROUP BY student_id HAVING COUNT(*) > 6;

# title: students taking more than six courses, > 6 and >= 7
# schema: students
# dialect: sqlite
# expect: equivalent
SELECT student_id FROM enrollments GROUP BY student_id HAVING COUNT(*) >= 7;
SELECT student_id FROM enrollments GROUP BY student_id HAVING COUNT(*) > 6;
