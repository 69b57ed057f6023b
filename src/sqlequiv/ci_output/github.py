"""GitHub Actions workflow commands: annotations on the query's file and line.

A workflow step that prints ``::error file=q.sql,line=3,title=...::message`` gets an
annotation on that line of the pull request's diff. The format and its escaping are
GitHub's (``toolkit/packages/core/src/command.ts``): in the message ``%``, ``\\r`` and
``\\n`` are written ``%25``, ``%0D``, ``%0A``; in a property (``file``, ``title``) also
``:`` and ``,`` (``%3A``, ``%2C``).

A refuted case is an ``::error`` whose message carries the counterexample, an input that
cannot be checked an ``::error``, an ``unknown`` a ``::warning`` (an ``::error`` with
``unknown_fails``), a case with nothing to check a ``::notice``; a pass prints nothing.
The last line, plain text, counts the cases. GitHub shows at most 10 errors and 10
warnings per step: the JUnit report holds them all.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlequiv.ci_output.cases import Case, counts

#: Longest message written: GitHub cuts an annotation's text at about 64 KiB.
MAX_MESSAGE = 16_000


def escape_data(text: str) -> str:
    """``text`` escaped as a workflow command's message.

    Example:
        >>> escape_data("100% of rows\\r\\nmissing")
        '100%25 of rows%0D%0Amissing'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """``text`` escaped as a workflow command's property value (``file=``, ``title=``).

    Example:
        >>> escape_property("sqlequiv: a.sql, query 2")
        'sqlequiv%3A a.sql%2C query 2'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(case: Case, *, unknown_fails: bool = False) -> str | None:
    """The workflow command of one case, or None for a pass.

    Example:
        >>> print(annotation(Case("q", "s", "unknown", "unknown: not proved", file="a.sql",
        ...                       line=2)))
        ::warning file=a.sql,line=2,title=sqlequiv%3A unknown::q: unknown: not proved
    """
    if case.status == "passed":
        return None
    if case.status == "skipped":
        command = "notice"
    elif case.status == "unknown" and not unknown_fails:
        command = "warning"
    else:
        command = "error"
    properties = []
    if case.file is not None:
        properties.append(f"file={escape_property(case.file)}")
        if case.line is not None:
            properties.append(f"line={case.line}")
    properties.append(f"title={escape_property(case.title)}")
    text = f"{case.name}: {case.message}"
    if case.details and case.details.strip() != case.message.strip():
        text += "\n" + case.details
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "\n... (cut; the JUnit report or --format text has it all)"
    # The message's own ':' need no escape: the first '::' after the properties ends them.
    return f"::{command} {','.join(properties)}::{escape_data(text)}"


def render_github(cases: Sequence[Case], *, unknown_fails: bool = False) -> str:
    """Every annotation of ``cases``, then a plain summary line.

    Example:
        >>> print(render_github([Case("q", "s", "passed", "equivalent")]))
        sqlequiv: 1 checked: 1 equivalent, 0 not equivalent, 0 unknown, 0 error, 0 not checked
    """
    lines = [a for c in cases if (a := annotation(c, unknown_fails=unknown_fails)) is not None]
    n = counts(cases)
    lines.append(
        f"sqlequiv: {len(cases)} checked: {n['passed']} equivalent, {n['failed']} not "
        f"equivalent, {n['unknown']} unknown, {n['error']} error, {n['skipped']} not checked"
    )
    return "\n".join(lines)
