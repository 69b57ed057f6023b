"""JUnit XML: the test report every CI system reads (GitHub, GitLab, Jenkins, Azure).

The document follows the common JUnit schema (the one Jenkins and pytest's
``--junit-xml`` produce)::

    <testsuites name tests failures errors skipped time>
      <testsuite name tests failures errors skipped time timestamp>   (one per classname)
        <testcase name classname time [file line]>
          <failure message type>report</failure>   refuted: the counterexample
          <error message type>report</error>       the input could not be checked
          <skipped message/>                       unknown, or nothing to check
          <system-out>report</system-out>          a pass: how it was proved

``unknown`` is ``<skipped message="unknown: ...">`` with the evidence in the case's
``<system-out>``, or, with ``unknown_fails``, ``<failure type="unknown">``: never a
silent pass.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from sqlequiv.ci_output.cases import Case, counts

#: Characters XML 1.0 does not allow, even escaped (control characters but tab and
#: newlines, lone surrogates, U+FFFE/U+FFFF): a query or a value may hold them.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML cannot hold written as ``\\xNN`` / ``\\uNNNN``.

    Example:
        >>> xml_text("a\\x00b\\tc")
        'a\\\\x00b\\tc'
    """
    return _NOT_XML.sub(lambda m: repr(m.group())[1:-1], text)


def render_junit(
    cases: Sequence[Case],
    *,
    name: str = "sqlequiv",
    unknown_fails: bool = False,
    timestamp: str | None = None,
) -> str:
    """The JUnit XML document of ``cases``: one ``<testsuite>`` per classname, in order.

    ``timestamp`` (ISO 8601) is written on every ``<testsuite>`` when given; leaving it
    out keeps the document the same from run to run.

    Example:
        >>> xml = render_junit([Case("q1", "suite", "failed", "not equivalent", "rows")])
        >>> print(xml.splitlines()[1])
        <testsuites name="sqlequiv" tests="1" failures="1" errors="0" skipped="0" time="0.000">
    """
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(case.classname, []).append(case)
    if not groups:
        groups[name] = []
    root = ET.Element("testsuites", _totals(name, list(cases), unknown_fails))
    for classname, members in groups.items():
        suite = ET.SubElement(root, "testsuite", _totals(classname, members, unknown_fails))
        if timestamp is not None:
            suite.set("timestamp", timestamp)
        for case in members:
            _testcase(suite, case, unknown_fails)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def _totals(name: str, cases: list[Case], unknown_fails: bool) -> dict[str, str]:
    n = counts(cases)
    failures = n["failed"] + (n["unknown"] if unknown_fails else 0)
    skipped = n["skipped"] + (0 if unknown_fails else n["unknown"])
    return {
        "name": xml_text(name),
        "tests": str(len(cases)),
        "failures": str(failures),
        "errors": str(n["error"]),
        "skipped": str(skipped),
        "time": f"{sum(c.seconds for c in cases):.3f}",
    }


def _testcase(suite: ET.Element, case: Case, unknown_fails: bool) -> None:
    attributes = {
        "name": xml_text(case.name),
        "classname": xml_text(case.classname),
        "time": f"{case.seconds:.3f}",
    }
    if case.file is not None:
        attributes["file"] = xml_text(case.file)
    if case.line is not None:
        attributes["line"] = str(case.line)
    element = ET.SubElement(suite, "testcase", attributes)
    message = xml_text(case.message)
    details = xml_text(case.details)
    if case.status == "failed" or (case.status == "unknown" and unknown_fails):
        kind = "not_equivalent" if case.status == "failed" else "unknown"
        ET.SubElement(element, "failure", {"message": message, "type": kind}).text = details
    elif case.status == "error":
        ET.SubElement(element, "error", {"message": message, "type": "error"}).text = details
    elif case.status in ("unknown", "skipped"):
        ET.SubElement(element, "skipped", {"message": message})
        if details:
            ET.SubElement(element, "system-out").text = details
    elif details:
        ET.SubElement(element, "system-out").text = details
