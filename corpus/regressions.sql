# schema: misc

# title: a constant the column type cannot hold does not crash the search
# expect: not_equivalent
# note: 10000 is out of range for TINYINT; the value pool must drop it (found on Calcite pairs)
SELECT id FROM flags WHERE level < 10000 AND score > 1;
SELECT id FROM flags WHERE score > 1;

# title: NATURAL JOIN columns sqlglot cannot qualify still run on DuckDB
# expect: not_equivalent
# note: an unqualified column of a NATURAL JOIN was rejected as unknown_column (VeriEQL literature pairs)
SELECT name FROM people NATURAL JOIN depts GROUP BY name HAVING COUNT(dname) > 1;
SELECT name FROM people NATURAL JOIN depts GROUP BY name HAVING COUNT(dname) >= 1;

# title: queries that read no table are decided by one execution
# expect: equivalent
# method: constant
SELECT x + y FROM (VALUES (1, 2), (3, 4)) AS t(x, y) WHERE x > 10;
SELECT * FROM (VALUES (NULL)) AS t(z) WHERE 1 = 0;

# title: queries that read no table and differ
# expect: not_equivalent
SELECT 1 AS a;
SELECT 2 AS a;

# title: HAVING COUNT above the default table size needs bigger groups
# expect: not_equivalent
# note: COUNT(*) > 5 vs > 6 only differs on a group of 6 rows; the COUNT threshold sizes the tables (VeriEQL literature pairs)
SELECT dept FROM people GROUP BY dept HAVING COUNT(*) > 5;
SELECT dept FROM people GROUP BY dept HAVING COUNT(*) > 6;

# title: comparison over IS TRUE under Trino is refused as ambiguous
# dialect: trino
# expect: error
# kind: ambiguous_precedence
# note: sqlglot's Trino parser reads level = NULL IS TRUE as level = (NULL IS TRUE); standard SQL and Calcite mean (level = NULL) IS TRUE. Two Calcite pairs (verieql_calcite_106, _259) were refuted under the Trino reading.
SELECT id, level FROM flags WHERE level IS NULL OR level = NULL IS TRUE;
SELECT id, CAST(NULL AS TINYINT) AS level FROM flags WHERE level IS NULL OR level = NULL IS TRUE;

# title: comparison over IS TRUE with standard precedence
# expect: equivalent
# note: (level = NULL) IS TRUE is never true, so only rows with a NULL level remain
SELECT id, level FROM flags WHERE level IS NULL OR level = NULL IS TRUE;
SELECT id, CAST(NULL AS TINYINT) AS level FROM flags WHERE level IS NULL OR level = NULL IS TRUE;
