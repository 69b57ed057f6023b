# Pairs whose truth is SQLite's: they run on SQLite itself, unchanged. Each one
# is judged differently by a transpile to DuckDB (which refuses the query or
# computes another answer).
# schema: spider_cars
# dialect: sqlite

# title: TEXT column compared with a number is compared as text
# expect: not_equivalent
# note: horsepower '99' > 150 as text ('9' > '1'), not as a number
SELECT id FROM cars_data WHERE horsepower > 150;
SELECT id FROM cars_data WHERE CAST(horsepower AS INTEGER) > 150;

# title: max over a TEXT column of numbers is the largest string
# expect: not_equivalent
SELECT max(horsepower) FROM cars_data;
SELECT max(CAST(horsepower AS INTEGER)) FROM cars_data;

# title: integer division truncates in SQLite
# expect: not_equivalent
SELECT id, weight / 2 FROM cars_data;
SELECT id, weight / 2.0 FROM cars_data;

# title: LIKE ignores ASCII case in SQLite
# expect: equivalent
# method: normalized
SELECT name FROM singer WHERE name LIKE 'a%';
SELECT name FROM singer WHERE name LIKE 'A%';

# title: = on text is case-sensitive in SQLite, unlike LIKE
# expect: not_equivalent
SELECT count(*) FROM singer WHERE is_male = 'T';
SELECT count(*) FROM singer WHERE is_male = 't';

# title: a double-quoted name that is no column is a string
# expect: equivalent
# method: normalized
SELECT name FROM singer WHERE country = "France";
SELECT name FROM singer WHERE country = 'France';

# title: NULLs sort first in SQLite
# expect: not_equivalent
SELECT name, age FROM singer ORDER BY age;
SELECT name, age FROM singer ORDER BY age NULLS LAST;

# title: a TEXT column compared with a number and with its string
# expect: equivalent
# note: the number takes the column's TEXT affinity: '150' either way
SELECT id FROM cars_data WHERE horsepower = 150;
SELECT id FROM cars_data WHERE horsepower = '150';

# title: SQLite functions run as SQLite defines them
# expect: equivalent
# method: normalized
SELECT instr(name, 'a'), substr(name, 1, 2), ifnull(age, 0), iif(age > 30, 'old', 'young') FROM singer;
SELECT INSTR(name, 'a'), SUBSTR(name, 1, 2), IFNULL(age, 0), IIF(age > 30, 'old', 'young') FROM singer;

# title: total() is 0.0 on no rows, sum() is NULL
# expect: not_equivalent
SELECT total(weight) FROM cars_data WHERE year > 2000;
SELECT sum(weight) FROM cars_data WHERE year > 2000;

# title: a maker with no car counts 0 under LEFT JOIN and is absent under JOIN
# expect: not_equivalent
# cause: extra_rows
SELECT m.maker, count(c.id) FROM car_makers AS m LEFT JOIN cars_data AS c ON c.maker_id = m.id GROUP BY m.id;
SELECT m.maker, count(*) FROM car_makers AS m JOIN cars_data AS c ON c.maker_id = m.id GROUP BY m.id;

# title: LIMIT 1 against every singer of the maximum age: ties change the row count
# expect: not_equivalent
# note: whichever tie LIMIT keeps, one row comes back against two; once judged unknown
SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age DESC LIMIT 1;
SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer);

# title: = then LIKE reads left to right in SQLite, not as sqlglot nests it
# expect: error
# kind: ambiguous_precedence
# note: SQLite gives = the precedence of LIKE, BETWEEN, IN and IS, left to right: (weight = year) LIKE '1%'. sqlglot's tree was weight = (year LIKE '1%'), and this pair was proved equivalent (normalized) about another query than the one SQLite runs.
SELECT id FROM cars_data WHERE weight = year LIKE '1%';
SELECT id FROM cars_data WHERE weight = (year LIKE '1%');

# title: = then BETWEEN reads left to right in SQLite
# expect: error
# kind: ambiguous_precedence
SELECT id FROM cars_data WHERE weight = 1 BETWEEN 0 AND 2;
SELECT id FROM cars_data WHERE weight = (1 BETWEEN 0 AND 2);

# title: = then IN reads left to right in SQLite
# expect: error
# kind: ambiguous_precedence
SELECT id FROM cars_data WHERE weight = weight IN (2);
SELECT id FROM cars_data WHERE weight = (weight IN (2));

# title: < binds tighter than LIKE in SQLite
# expect: error
# kind: ambiguous_precedence
# note: SQLite reads (weight < year) LIKE '1'; sqlglot nests LIKE under <.
SELECT id FROM cars_data WHERE weight < year LIKE '1';
SELECT id FROM cars_data WHERE weight < (year LIKE '1');

# title: the two readings of = LIKE, parenthesized, differ on SQLite
# expect: not_equivalent
SELECT id FROM cars_data WHERE (weight = year) LIKE '1%';
SELECT id FROM cars_data WHERE weight = (year LIKE '1%');

# title: < then = needs no parentheses: both engines read (weight < year) = 1
# expect: equivalent
SELECT id FROM cars_data WHERE weight < year = 1;
SELECT id FROM cars_data WHERE (weight < year) = 1;

# title: IN on a subquery of integers is the semi-join, proved on SQLite too
# expect: equivalent
# method: normalized
# note: both sides of the IN are INTEGER columns, so SQLite converts nothing, and a WHERE conjunct IN is the EXISTS with the equality (in_to_exists; the floor benchmark's s022 shape)
SELECT maker FROM car_makers WHERE id IN (SELECT maker_id FROM cars_data);
SELECT m.maker FROM car_makers m WHERE EXISTS (SELECT * FROM cars_data c WHERE c.maker_id = m.id);

# title: NOT IN on a subquery with NULLs is not the anti-join
# expect: not_equivalent
# note: near miss of the proof above: a car with no maker makes NOT IN unknown for every maker
SELECT maker FROM car_makers WHERE id NOT IN (SELECT maker_id FROM cars_data);
SELECT m.maker FROM car_makers m WHERE NOT EXISTS (SELECT * FROM cars_data c WHERE c.maker_id = m.id);

# title: NOT IN on a subquery that keeps no NULL is the anti-join
# expect: equivalent
# method: normalized
# note: the floor benchmark's s024 shape: the key is never NULL and the subquery drops its NULLs, so NOT IN is never unknown
SELECT maker FROM car_makers WHERE id NOT IN (SELECT maker_id FROM cars_data WHERE maker_id IS NOT NULL);
SELECT m.maker FROM car_makers m WHERE NOT EXISTS (SELECT * FROM cars_data c WHERE c.maker_id = m.id);

# title: a TEXT column IN a subquery of integers compares as SQLite's affinity says
# expect: not_equivalent
# note: near miss: the sides of the IN are of two classes, so no proof is attempted; '0100' is not 100 as text but is after the cast
SELECT maker FROM car_makers WHERE country IN (SELECT weight FROM cars_data);
SELECT m.maker FROM car_makers m WHERE EXISTS (SELECT * FROM cars_data c WHERE c.weight = CAST(m.country AS INTEGER));

# title: makers in France against makers in 'france', across a TEXT to INTEGER join
# schema: spider_mixed
# expect: not_equivalent
# cause: same_keys_different_values
# note: Spider's car_1 joins car_makers.country TEXT to countries.countryid INTEGER: country 1 'France' and a maker of country '1' meet ('1' = 1 on SQLite), 1 against 0
SELECT COUNT(*) FROM car_makers m JOIN countries c ON m.country = c.countryid WHERE c.countryname = 'France';
SELECT COUNT(*) FROM car_makers m JOIN countries c ON m.country = c.countryid WHERE c.countryname = 'france';

# title: visitors who bought more than 3 tickets against 3 or more, across a TEXT to INTEGER join
# schema: spider_mixed
# expect: not_equivalent
# note: visitor 1 and a visit by '1' of 3 tickets: only numeric-looking text meets the INTEGER id
SELECT DISTINCT v.name FROM visitor v JOIN visit t ON t.visitor_id = v.id WHERE t.num_of_ticket > 3;
SELECT DISTINCT v.name FROM visitor v JOIN visit t ON t.visitor_id = v.id WHERE t.num_of_ticket >= 3;

# title: the makers of each country, the TEXT to INTEGER join written from either side
# schema: spider_mixed
# expect: equivalent
# method: normalized
# note: the same inner join with its sides and its equality swapped: '1' = 1 either way round
SELECT m.maker, c.countryname FROM car_makers m JOIN countries c ON m.country = c.countryid;
SELECT m.maker, c.countryname FROM countries c JOIN car_makers m ON c.countryid = m.country;

# title: strftime over a date kept as text reaches the days of the year it names
# schema: flights
# expect: not_equivalent
# note: a flight booked in 2019 with no price: COUNT(price) skips it (the search must write a 2019 date into the TEXT column, which sqlglot reads through TsOrDsToTimestamp)
SELECT COUNT(*) FROM flights WHERE STRFTIME('%Y', booked_on) = '2019';
SELECT COUNT(price) FROM flights WHERE STRFTIME('%Y', booked_on) = '2019';

# title: strftime over a text date, counted by its key
# schema: flights
# expect: equivalent
# method: symbolic
# note: STRFTIME is an opaque call on both sides: whatever SQLite computes, COUNT(*) and COUNT of the key count the same rows
SELECT COUNT(*) FROM flights WHERE STRFTIME('%Y', booked_on) = '2019';
SELECT COUNT(flight_id) FROM flights WHERE STRFTIME('%Y', booked_on) = '2019';

# title: the month of a text date read by substr
# schema: flights
# expect: not_equivalent
# note: a flight booked in December on the first side only; the search must spell a date whose characters 6-7 are '12'
SELECT flight_id FROM flights WHERE SUBSTR(booked_on, 6, 2) = '12';
SELECT flight_id FROM flights WHERE SUBSTR(booked_on, 6, 2) = '11';

# title: the month of a text date read by substr, the same on both sides
# schema: flights
# expect: equivalent
SELECT flight_id FROM flights WHERE SUBSTR(booked_on, 6, 2) = '12';
SELECT f.flight_id FROM flights AS f WHERE SUBSTR(f.booked_on, 6, 2) = '12';

# title: the year of a text date by substr against strftime, on a malformed date
# schema: flights
# expect: not_equivalent
# note: '2019-13-01' matches the LIKE and its SUBSTR is '2019', but SQLite's STRFTIME reads it as NULL
SELECT flight_id FROM flights WHERE SUBSTR(booked_on, 1, 4) = '2019' AND booked_on LIKE '____-__-__';
SELECT flight_id FROM flights WHERE STRFTIME('%Y', booked_on) = '2019' AND booked_on LIKE '____-__-__';

# title: months named in a list against months named by OR
# schema: flights
# expect: not_equivalent
# note: a flight booked in July: the search must read the months '06' and '07' through STRFTIME('%m')
SELECT flight_id FROM flights WHERE STRFTIME('%m', booked_on) IN ('06', '07');
SELECT flight_id FROM flights WHERE STRFTIME('%m', booked_on) = '06' OR STRFTIME('%m', booked_on) = '08';

# title: airlines with a flight booked in a year, by a join and by IN, the year read by strftime
# schema: flights
# expect: equivalent
# method: normalized
# note: the join to airlines is dropped through the NOT NULL foreign key and the distinct airline ids are the airlines with such a flight (foreign_key_joins), which is what IN says; STRFTIME is the same expression on both sides
SELECT DISTINCT a.uid FROM airlines a JOIN flights f ON f.airline = a.uid WHERE STRFTIME('%Y', f.booked_on) = '2019';
SELECT uid FROM airlines WHERE uid IN (SELECT airline FROM flights WHERE STRFTIME('%Y', booked_on) = '2019');

# title: airlines with a flight booked in a year, the year read by strftime on one side and substr on the other
# schema: flights
# expect: not_equivalent
# note: near miss: two SQLite expressions are two opaque functions, and a malformed date '2019-13-01' tells them apart
SELECT DISTINCT a.uid FROM airlines a JOIN flights f ON f.airline = a.uid WHERE STRFTIME('%Y', f.booked_on) = '2019';
SELECT uid FROM airlines WHERE uid IN (SELECT airline FROM flights WHERE SUBSTR(booked_on, 1, 4) = '2019');

# title: a label joined with || on a derived table and on the table itself
# schema: flights
# expect: equivalent
# method: normalized
# note: the same || on both sides; NOT flight_no >= 100 and flight_no < 100 keep the same rows in three-valued logic
SELECT x.airline_no FROM (SELECT abbreviation || '-' || country AS airline_no, uid FROM airlines) x JOIN flights f ON f.airline = x.uid WHERE f.flight_no < 100;
SELECT a.abbreviation || '-' || a.country FROM flights f JOIN airlines a ON a.uid = f.airline WHERE NOT f.flight_no >= 100;

# title: makers in France by a TEXT to INTEGER join and by IN
# schema: spider_mixed
# expect: equivalent
# method: symbolic
# note: the text country meets countryid through SQLite's numeric affinity ('1', '01', '1.0' meet 1) in the join and in the IN alike; countryid is a key, so the join repeats no maker
SELECT m.maker FROM car_makers m JOIN countries c ON m.country = c.countryid WHERE c.countryname = 'France';
SELECT maker FROM car_makers WHERE country IN (SELECT countryid FROM countries WHERE countryname = 'France');

# title: makers in France by a TEXT to INTEGER join and by an IN list of the ids
# schema: spider_mixed
# expect: not_equivalent
# note: near miss: an IN list gives its numbers the TEXT column's affinity ('01' IN (1) is false), the join the INTEGER column's ('01' = 1 is true)
SELECT m.maker FROM car_makers m JOIN countries c ON m.country = c.countryid WHERE c.countryid = 1;
SELECT maker FROM car_makers WHERE country IN (1);

# title: BIRD's percentage spelled with a REAL literal and with a CAST to REAL
# schema: spider_cars
# expect: equivalent
# method: normalized
# note: 100.0 * n and CAST(n AS REAL) * 100 are the same double in SQLite
SELECT 100.0 * SUM(CASE WHEN year > 1980 THEN 1 ELSE 0 END) / COUNT(*) FROM cars_data;
SELECT CAST(SUM(CASE WHEN year > 1980 THEN 1 ELSE 0 END) AS REAL) * 100 / COUNT(*) FROM cars_data;

# title: a product by 1.0 has no affinity where a CAST to REAL has one
# schema: spider_cars
# expect: not_equivalent
# note: weight 1: CAST(weight AS REAL) = '1' converts '1' to 1.0; weight * 1.0 = '1' compares a REAL with a text
SELECT id FROM cars_data WHERE weight * 1.0 = '1';
SELECT id FROM cars_data WHERE CAST(weight AS REAL) = '1';

# title: a CASE has no affinity where its column has one
# schema: spider_cars
# expect: not_equivalent
# note: weight 1: weight = '1' converts '1' to the column's INTEGER affinity; the CASE compares 1 with '1'
SELECT id FROM cars_data WHERE CASE WHEN TRUE THEN weight END = '1';
SELECT id FROM cars_data WHERE weight = '1';
