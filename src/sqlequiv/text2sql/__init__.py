"""Grading text-to-SQL benchmark predictions (Spider, BIRD) with sqlequiv.

Each item gets the benchmark evaluator's execution match on the shipped
SQLite database *and* sqlequiv's verdict on the pair (proved / refuted with a
counterexample / unknown), and a category saying where the two agree:

* :mod:`~sqlequiv.text2sql.formats` reads the evaluators' files;
* :mod:`~sqlequiv.text2sql.execmatch` replicates their execution match;
* :mod:`~sqlequiv.text2sql.item` grades one item;
* :mod:`~sqlequiv.text2sql.pool` runs items on worker processes;
* :mod:`~sqlequiv.text2sql.run` runs a whole prediction file, resumably;
* :mod:`~sqlequiv.text2sql.summary` summarises a run.
"""

from sqlequiv.text2sql.execmatch import (
    ExecMatch,
    bird_result_eq,
    execution_match,
    spider_result_eq,
)
from sqlequiv.text2sql.formats import (
    BenchmarkInputError,
    BenchmarkItem,
    read_bird,
    read_spider,
)
from sqlequiv.text2sql.item import CATEGORIES, BenchmarkSettings, ItemGrader, agreement
from sqlequiv.text2sql.run import BenchmarkRun, grade_benchmark, load_items
from sqlequiv.text2sql.summary import render_benchmark_summary, summarize_benchmark

__all__ = [
    "CATEGORIES",
    "BenchmarkInputError",
    "BenchmarkItem",
    "BenchmarkRun",
    "BenchmarkSettings",
    "ExecMatch",
    "ItemGrader",
    "agreement",
    "bird_result_eq",
    "execution_match",
    "grade_benchmark",
    "load_items",
    "read_bird",
    "read_spider",
    "render_benchmark_summary",
    "spider_result_eq",
    "summarize_benchmark",
]
