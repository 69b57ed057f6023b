# Refutations that must hold whatever order the engine reads rows in (issue 40): each
# construct that leaves a row to the engine's choice, as real BIRD predictions use it.
# The first case of each pair differs on a database where no choice matters; its near
# miss differs only through the choice (one physical order of the rows), and must never
# be refuted: the grader would fail a right answer with a counterexample that another
# engine, or the same one after a VACUUM, does not reproduce.
# schema: bird_choices
# dialect: sqlite

# title: a scalar subquery over a shared birthday against every patient born that day
# expect: not_equivalent
# cause: missing_rows
# note: two patients born on 1959-03-01: SQLite's scalar subquery keeps one of them (whichever it reads first), the reference both; one row against two in every order
SELECT sex FROM patient WHERE id = (SELECT id FROM patient WHERE birthday = '1959-03-01');
SELECT sex FROM patient WHERE birthday = '1959-03-01';

# title: a scalar subquery over a shared birthday against the smallest id born that day
# expect: equivalent
# note: with two patients born that day the candidate's lab results are those of the patient SQLite reads first, the reference's those of the smaller id: read in the other order they agree; with one patient, or none, they agree anyway
SELECT got FROM laboratory WHERE id = (SELECT id FROM patient WHERE birthday = '1959-03-01');
SELECT got FROM laboratory WHERE id = (SELECT MIN(id) FROM patient WHERE birthday = '1959-03-01');

# title: total wins with bare driver names and no GROUP BY, against one row per driver
# expect: not_equivalent
# note: two drivers: one row (of an arbitrary driver's name) against two, in every order
SELECT SUM(ds.wins), d.forename, d.surname FROM driverstandings ds JOIN drivers d ON ds.driverid = d.driverid;
SELECT SUM(ds.wins), d.forename, d.surname FROM driverstandings ds JOIN drivers d ON ds.driverid = d.driverid GROUP BY d.driverid, d.forename, d.surname;

# title: total wins of the Hamiltons with a bare forename, against the largest forename
# expect: equivalent
# note: SQLite takes the bare forename from an arbitrary row of the one group; with two Hamiltons of different forenames, one order of the rows gives the reference's MAX
SELECT SUM(ds.wins), d.forename FROM driverstandings ds JOIN drivers d ON ds.driverid = d.driverid WHERE d.surname = 'Hamilton';
SELECT SUM(ds.wins), MAX(d.forename) FROM driverstandings ds JOIN drivers d ON ds.driverid = d.driverid WHERE d.surname = 'Hamilton';

# title: the accounts of the second district by a15 against those of the first
# expect: not_equivalent
# note: two districts with a15 values 2 and 1, an account in each: OFFSET 1 picks the second whatever the order
SELECT account_id FROM account WHERE district_id = (SELECT district_id FROM district ORDER BY a15 DESC LIMIT 1 OFFSET 1);
SELECT account_id FROM account WHERE district_id = (SELECT district_id FROM district ORDER BY a15 DESC LIMIT 1);

# title: the accounts of the district with the largest a15, a tie-break by id added to the reference
# expect: equivalent
# note: two districts tied on a15: the candidate's LIMIT 1 keeps either, the reference the smaller id; the candidate may keep that one too
SELECT account_id FROM account WHERE district_id = (SELECT district_id FROM district ORDER BY a15 DESC LIMIT 1);
SELECT account_id FROM account WHERE district_id = (SELECT district_id FROM district ORDER BY a15 DESC, district_id LIMIT 1);

# title: GROUP_CONCAT of forenames against GROUP_CONCAT of surnames
# expect: not_equivalent
# note: one driver whose forename is not their surname: different strings in every order
SELECT GROUP_CONCAT(forename) FROM drivers;
SELECT GROUP_CONCAT(surname) FROM drivers;

# title: GROUP_CONCAT of forenames in no order, against the forenames sorted first
# expect: equivalent
# note: two drivers: the candidate concatenates in the order SQLite reads them, the reference (in practice) sorted; read in sorted order they agree
SELECT GROUP_CONCAT(forename) FROM drivers;
SELECT GROUP_CONCAT(forename) FROM (SELECT forename FROM drivers ORDER BY forename);

# title: the top driver by wins with ROW_NUMBER, against a tie-break by the standing's id
# expect: equivalent
# note: two standings tied on wins: ROW_NUMBER numbers them in either order, and one of those orders is the reference's
SELECT driverid FROM (SELECT driverid, ROW_NUMBER() OVER (ORDER BY wins DESC) AS rn FROM driverstandings) WHERE rn = 1;
SELECT driverid FROM (SELECT driverid, ROW_NUMBER() OVER (ORDER BY wins DESC, driverstandingsid) AS rn FROM driverstandings) WHERE rn = 1;

# title: the top driver by wins with ROW_NUMBER, against the second
# expect: not_equivalent
# note: two standings with 2 and 1 wins of different drivers: the first and the second differ in every order
SELECT driverid FROM (SELECT driverid, ROW_NUMBER() OVER (ORDER BY wins DESC) AS rn FROM driverstandings) WHERE rn = 1;
SELECT driverid FROM (SELECT driverid, ROW_NUMBER() OVER (ORDER BY wins DESC) AS rn FROM driverstandings) WHERE rn = 2;

# title: DuckDB's any_value of a driver's wins against their fewest wins
# dialect: duckdb
# expect: equivalent
# note: a driver with 1 and 2 wins: any_value gives the value DuckDB reads first, and read in one order that is the MIN
SELECT driverid, any_value(wins) FROM driverstandings GROUP BY driverid;
SELECT driverid, MIN(wins) FROM driverstandings GROUP BY driverid;

# title: DuckDB's first() of a driver's wins against their total
# dialect: duckdb
# expect: not_equivalent
# note: a driver with 1 and 2 wins: 3 in total, and first() is 1 or 2 whatever the order
SELECT driverid, first(wins) FROM driverstandings GROUP BY driverid;
SELECT driverid, SUM(wins) FROM driverstandings GROUP BY driverid;
