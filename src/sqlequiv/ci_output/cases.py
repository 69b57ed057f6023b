"""What a CI report is made of: one :class:`Case` per checked pair, record or query.

A case is what both renderers need and nothing more: a name, a group, a status, a
one-line message, the long report (the counterexample tables and both result sets, as
``sqlequiv check`` prints them), where the query is (file and line) and how long it took.
The functions here build cases from the three things the commands produce: a
:class:`~sqlequiv.verdict.Verdict` (``check``, ``diff``), a ``grade`` record and a
``spider``/``bird`` record, and the cases of a ``diff`` (:func:`cases_from_diff`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlequiv.ci_output.gitdiff import DiffResult
from sqlequiv.render import counterexample_lines, render, verdict_message
from sqlequiv.verdict import Counterexample, Verdict

#: ``passed``: equivalent (or a grade's pass); ``failed``: refuted, a counterexample in
#: ``details``; ``error``: the input could not be checked; ``unknown``: neither proved
#: nor refuted; ``skipped``: nothing to check (a new or deleted file).
CaseStatus = Literal["passed", "failed", "error", "unknown", "skipped"]
CASE_STATUSES: tuple[CaseStatus, ...] = ("passed", "failed", "error", "unknown", "skipped")

_VERDICT_STATUS: dict[str, CaseStatus] = {
    "equivalent": "passed",
    "not_equivalent": "failed",
    "error": "error",
    "unknown": "unknown",
}

_GRADE_STATUS: dict[str, CaseStatus] = {
    "pass": "passed",
    "fail": "failed",
    "unknown": "unknown",
    "error": "error",
    "anomaly": "error",
}


@dataclass(frozen=True)
class Case:
    """One test case of a CI report.

    Example:
        >>> Case("q1[0]", "suite", "failed", "not equivalent").title
        'sqlequiv: not equivalent'
    """

    #: What the case is: ``q1[0]``, ``queries/report.sql query 2``.
    name: str
    #: The group it belongs to (a JUnit ``classname``; one ``<testsuite>`` per group).
    classname: str
    status: CaseStatus
    #: One line: the verdict and why.
    message: str
    #: The long report (counterexample, evidence); may span lines.
    details: str = ""
    #: The file holding the query the case is about, and its 1-based line, when known.
    file: str | None = None
    line: int | None = None
    seconds: float = 0.0

    @property
    def title(self) -> str:
        """A short title for an annotation: ``sqlequiv: not equivalent``."""
        words = {
            "passed": "equivalent",
            "failed": "not equivalent",
            "error": "error",
            "unknown": "unknown",
            "skipped": "not checked",
        }
        return f"sqlequiv: {words[self.status]}"


def counts(cases: Iterable[Case]) -> Counter[CaseStatus]:
    """How many cases have each status.

    Example:
        >>> counts([Case("a", "s", "passed", ""), Case("b", "s", "passed", "")])["passed"]
        2
    """
    return Counter(case.status for case in cases)


def case_from_verdict(
    verdict: Verdict,
    *,
    name: str,
    classname: str,
    file: str | None = None,
    line: int | None = None,
    preamble: str = "",
) -> Case:
    """The case of one check: its one-line message (:func:`~sqlequiv.render.verdict_message`)
    and the text report.

    ``preamble`` goes before the report (what was compared with what). An error located
    in the query moves ``line`` to the error's line, counted from ``line``.

    Example:
        >>> case = case_from_verdict(Verdict("unknown"), name="q", classname="check")
        >>> case.status, case.message
        ('unknown', 'unknown: neither proved nor refuted')
    """
    err = verdict.error
    if err is not None and err.side == "candidate" and err.line is not None and line is not None:
        line += err.line - 1
    report = render(verdict)
    return Case(
        name=name,
        classname=classname,
        status=_VERDICT_STATUS[verdict.verdict],
        message=verdict_message(verdict),
        details=f"{preamble}\n{report}" if preamble else report,
        file=file,
        line=line,
        seconds=sum(verdict.timings.values()) / 1000,
    )


def case_from_grade_record(
    record: Mapping[str, Any],
    *,
    classname: str = "sqlequiv grade",
    file: str | None = None,
    line: int | None = None,
) -> Case:
    """The case of one ``sqlequiv grade`` record (a line of its results file).

    ``pass`` is passed (proved or not: the message says which), ``fail`` failed with the
    counterexample, ``unknown`` unknown, ``error`` and ``anomaly`` (a broken item) error.

    Example:
        >>> r = {"item_id": "q1", "sample": 0, "status": "fail", "cause": "missing_rows",
        ...      "detail": "1 row missing"}
        >>> case = case_from_grade_record(r)
        >>> case.name, case.status, case.message
        ('q1[0]', 'failed', 'not equivalent (missing_rows): 1 row missing')
    """
    status = _GRADE_STATUS.get(str(record.get("status")), "error")
    detail = record.get("detail") or ""
    kind = record.get("status")
    if kind == "pass":
        how = record.get("method") or "no counterexample found"
        proved = "proved" if record.get("proved") else "not proved"
        message = f"passed ({proved}: {how})"
    elif kind == "fail":
        cause = record.get("cause")
        message = f"not equivalent ({cause}): {detail}" if cause else f"failed: {detail}"
    elif kind == "unknown":
        message = f"unknown: {detail or 'neither proved nor refuted'}"
    elif kind == "anomaly":
        anomaly = record.get("anomaly") or {}
        message = f"anomaly (the item is broken): {anomaly.get('kind')}: {anomaly.get('detail')}"
    else:
        error = record.get("error") or {}
        message = f"error: {error.get('kind')}: {error.get('message')}"
    lines = [message]
    ce = record.get("counterexample")
    if isinstance(ce, Mapping):
        lines.extend(_counterexample_text(ce))
    if record.get("matched_reference"):
        lines.append(f"matched reference: {record.get('matched_reference')}")
    if record.get("candidate_sql") is not None:
        lines.extend(["", "candidate:", str(record.get("candidate_sql"))])
    timings = record.get("timings") or {}
    return Case(
        name=f"{record.get('item_id')}[{record.get('sample')}]",
        classname=classname,
        status=status,
        message=message,
        details="\n".join(lines),
        file=file,
        line=line,
        seconds=_seconds(timings.get("total_ms")),
    )


def case_from_benchmark_record(
    record: Mapping[str, Any],
    *,
    file: str | None = None,
    line: int | None = None,
) -> Case:
    """The case of one ``sqlequiv spider``/``bird`` record: sqlequiv's verdict on the
    prediction against the gold query (the status), with the evaluator's execution
    match and the agreement category in the message.

    Example:
        >>> r = {"benchmark": "spider", "index": 3, "db_id": "concert_singer",
        ...      "verdict": "not_equivalent", "cause": "extra_rows", "detail": "1 extra row",
        ...      "exec_match": True, "category": "false_pass"}
        >>> case = case_from_benchmark_record(r)
        >>> case.name, case.classname, case.status
        ('spider #3', 'spider.concert_singer', 'failed')
        >>> case.message
        'not equivalent (extra_rows): 1 extra row [execution match: pass; false_pass]'
    """
    verdict = str(record.get("verdict"))
    status = _VERDICT_STATUS.get(verdict, "error")
    detail = record.get("detail") or ""
    if verdict == "equivalent":
        message = f"equivalent (proved by {record.get('method')})"
    elif verdict == "not_equivalent":
        message = f"not equivalent ({record.get('cause')}): {detail}"
    elif verdict == "unknown":
        message = f"unknown: {detail or 'neither proved nor refuted'}"
    else:
        error = record.get("error") or {}
        message = f"error: {error.get('kind')}: {error.get('message')}"
    match = record.get("exec_match")
    match_word = "no score" if match is None else ("pass" if match else "fail")
    message += f" [execution match: {match_word}; {record.get('category')}]"
    lines = [message]
    ce = record.get("counterexample")
    if isinstance(ce, Mapping):
        lines.extend(_counterexample_text(ce))
    lines.extend(["", "predicted:", str(record.get("pred")), "", "gold:", str(record.get("gold"))])
    timings = record.get("timings") or {}
    benchmark = record.get("benchmark")
    return Case(
        name=f"{benchmark} #{record.get('index')}",
        classname=f"{benchmark}.{record.get('db_id')}",
        status=status,
        message=message,
        details="\n".join(lines),
        file=file,
        line=line,
        seconds=_seconds(timings.get("exec_ms"), timings.get("check_ms")),
    )


_FILE_STATUS: dict[str, CaseStatus] = {
    "added": "skipped",
    "deleted": "skipped",
    "unpaired": "unknown",
    "unreadable": "error",
}


def cases_from_diff(result: DiffResult) -> list[Case]:
    """The cases of a ``sqlequiv diff``: one per changed query (its file is the group, the
    annotation goes on the query's first line), one per file that was not checked (new,
    deleted: skipped; queries that cannot be paired: unknown; unreadable: error)."""
    preamble = f"candidate: {result.new_side}; reference: {result.rev} ({result.commit})" + (
        f"\n{result.schema_note}" if result.schema_note else ""
    )
    cases = []
    for change in result.files:
        if change.status != "checked":
            cases.append(
                Case(
                    name=change.path,
                    classname=change.path,
                    status=_FILE_STATUS[change.status],
                    message=change.note,
                    file=change.path,
                    line=None if change.status == "deleted" else 1,
                )
            )
        for query in change.queries:
            name = f"{change.path} query {query.index}"
            if query.verdict is None:
                cases.append(
                    Case(name, change.path, "passed", "unchanged", file=change.path,
                         line=query.line)
                )  # fmt: skip
                continue
            cases.append(
                case_from_verdict(
                    query.verdict,
                    name=name,
                    classname=change.path,
                    file=change.path,
                    line=query.line,
                    preamble=preamble,
                )
            )
    return cases


_CE_FIELDS = tuple(f.name for f in dataclasses.fields(Counterexample) if f.name != "database")


def _counterexample_text(ce: Mapping[str, Any]) -> list[str]:
    """The text report of a counterexample read back from a record's JSON."""
    try:
        value = Counterexample(**{k: ce[k] for k in _CE_FIELDS if k in ce})
        return counterexample_lines(value)
    except (TypeError, KeyError, AttributeError, ValueError, IndexError):
        # A record written by hand or by an older version: show what it holds.
        return ["", f"counterexample: {dict(ce)!r}"]


def _seconds(*milliseconds: Any) -> float:
    total = sum(float(ms) for ms in milliseconds if isinstance(ms, int | float))
    return total / 1000
