-- A DuckDB table whose text key compares under NOCASE: 'a' and 'A' are one value here,
-- so sqlequiv, which compares DuckDB text byte by byte, refuses the schema.
CREATE TABLE tags (
    id INTEGER PRIMARY KEY,
    name VARCHAR COLLATE NOCASE UNIQUE
);
