-- TPC-H: the columns and types of sqlglot's tests/helpers.py (TPCH_SCHEMA; dates are
-- strings there, as its optimized queries assume), with the keys of the TPC-H
-- specification (dbgen's dss.ddl / dss.ri: every column NOT NULL).

CREATE TABLE region (
  r_regionkey BIGINT NOT NULL,
  r_name VARCHAR NOT NULL,
  r_comment VARCHAR NOT NULL,
  PRIMARY KEY (r_regionkey)
);

CREATE TABLE nation (
  n_nationkey BIGINT NOT NULL,
  n_name VARCHAR NOT NULL,
  n_regionkey BIGINT NOT NULL,
  n_comment VARCHAR NOT NULL,
  PRIMARY KEY (n_nationkey),
  FOREIGN KEY (n_regionkey) REFERENCES region (r_regionkey)
);

CREATE TABLE supplier (
  s_suppkey BIGINT NOT NULL,
  s_name VARCHAR NOT NULL,
  s_address VARCHAR NOT NULL,
  s_nationkey BIGINT NOT NULL,
  s_phone VARCHAR NOT NULL,
  s_acctbal DOUBLE NOT NULL,
  s_comment VARCHAR NOT NULL,
  PRIMARY KEY (s_suppkey),
  FOREIGN KEY (s_nationkey) REFERENCES nation (n_nationkey)
);

CREATE TABLE customer (
  c_custkey BIGINT NOT NULL,
  c_name VARCHAR NOT NULL,
  c_address VARCHAR NOT NULL,
  c_nationkey BIGINT NOT NULL,
  c_phone VARCHAR NOT NULL,
  c_acctbal DOUBLE NOT NULL,
  c_mktsegment VARCHAR NOT NULL,
  c_comment VARCHAR NOT NULL,
  PRIMARY KEY (c_custkey),
  FOREIGN KEY (c_nationkey) REFERENCES nation (n_nationkey)
);

CREATE TABLE part (
  p_partkey BIGINT NOT NULL,
  p_name VARCHAR NOT NULL,
  p_mfgr VARCHAR NOT NULL,
  p_brand VARCHAR NOT NULL,
  p_type VARCHAR NOT NULL,
  p_size INTEGER NOT NULL,
  p_container VARCHAR NOT NULL,
  p_retailprice DOUBLE NOT NULL,
  p_comment VARCHAR NOT NULL,
  PRIMARY KEY (p_partkey)
);

CREATE TABLE partsupp (
  ps_partkey BIGINT NOT NULL,
  ps_suppkey BIGINT NOT NULL,
  ps_availqty INTEGER NOT NULL,
  ps_supplycost DOUBLE NOT NULL,
  ps_comment VARCHAR NOT NULL,
  PRIMARY KEY (ps_partkey, ps_suppkey),
  FOREIGN KEY (ps_partkey) REFERENCES part (p_partkey),
  FOREIGN KEY (ps_suppkey) REFERENCES supplier (s_suppkey)
);

CREATE TABLE orders (
  o_orderkey BIGINT NOT NULL,
  o_custkey BIGINT NOT NULL,
  o_orderstatus VARCHAR NOT NULL,
  o_totalprice DOUBLE NOT NULL,
  o_orderdate VARCHAR NOT NULL,
  o_orderpriority VARCHAR NOT NULL,
  o_clerk VARCHAR NOT NULL,
  o_shippriority INTEGER NOT NULL,
  o_comment VARCHAR NOT NULL,
  PRIMARY KEY (o_orderkey),
  FOREIGN KEY (o_custkey) REFERENCES customer (c_custkey)
);

CREATE TABLE lineitem (
  l_orderkey BIGINT NOT NULL,
  l_partkey BIGINT NOT NULL,
  l_suppkey BIGINT NOT NULL,
  l_linenumber BIGINT NOT NULL,
  l_quantity DOUBLE NOT NULL,
  l_extendedprice DOUBLE NOT NULL,
  l_discount DOUBLE NOT NULL,
  l_tax DOUBLE NOT NULL,
  l_returnflag VARCHAR NOT NULL,
  l_linestatus VARCHAR NOT NULL,
  l_shipdate VARCHAR NOT NULL,
  l_commitdate VARCHAR NOT NULL,
  l_receiptdate VARCHAR NOT NULL,
  l_shipinstruct VARCHAR NOT NULL,
  l_shipmode VARCHAR NOT NULL,
  l_comment VARCHAR NOT NULL,
  PRIMARY KEY (l_orderkey, l_linenumber),
  FOREIGN KEY (l_orderkey) REFERENCES orders (o_orderkey),
  FOREIGN KEY (l_partkey, l_suppkey) REFERENCES partsupp (ps_partkey, ps_suppkey)
);
