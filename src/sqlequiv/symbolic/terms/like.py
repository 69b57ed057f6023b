"""LIKE and ILIKE patterns as z3 regular expressions.

DuckDB's LIKE has no default escape character (unlike Postgres): ``\\`` is an
ordinary character unless ``ESCAPE`` names it. ``_`` matches one character
(a code point) and ``%`` any sequence. ILIKE folds case; only ASCII case
folding is modelled (DuckDB folds Unicode too, e.g. the Kelvin sign matches
``k``), so callers must make sure the subject is ASCII (``variable`` keeps
column text ASCII) and the pattern here must be ASCII.
"""

from __future__ import annotations

import z3

from sqlequiv.symbolic.terms.sqlvalue import Unsupported, text_value

__all__ = ["like_regex"]

_RE_SORT = z3.ReSort(z3.StringSort())


def like_regex(pattern: str, *, escape: str | None = None, fold: bool = False) -> z3.ReRef:
    """The z3 regular expression of a LIKE pattern.

    Args:
        pattern: The pattern text (a literal).
        escape: The ESCAPE character, if any (empty string means none).
        fold: ILIKE: match ASCII letters in either case.

    Raises:
        Unsupported: a pattern ending in the escape character (a DuckDB
            error), a multi-character escape, or ILIKE with non-ASCII text.

    Example:
        >>> r = like_regex("a_%")
        >>> z3.simplify(z3.InRe(z3.StringVal("abc"), r)), z3.simplify(z3.InRe(z3.StringVal("a"), r))
        (True, False)
    """
    if escape is not None and len(escape) > 1:
        raise Unsupported(f"LIKE ... ESCAPE {escape!r} (more than one character)")
    if fold and not pattern.isascii():
        raise Unsupported("ILIKE with a non-ASCII pattern (Unicode case folding)")
    parts: list[z3.ReRef] = []
    literal: list[str] = []

    def flush() -> None:
        if literal:
            parts.append(_literal("".join(literal), fold))
            literal.clear()

    chars = iter(pattern)
    for char in chars:
        if escape and char == escape:
            following = next(chars, None)
            if following is None:
                raise Unsupported("a LIKE pattern ending in its escape character (a DuckDB error)")
            literal.append(following)
        elif char == "%":
            flush()
            # Consecutive %s mean the same as one; keeping one keeps the regex small.
            if not parts or not _is_star(parts[-1]):
                parts.append(z3.Star(z3.AllChar(_RE_SORT)))
        elif char == "_":
            flush()
            parts.append(z3.AllChar(_RE_SORT))
        else:
            literal.append(char)
    flush()
    if not parts:
        return z3.Re(text_value(""))
    return parts[0] if len(parts) == 1 else z3.Concat(*parts)


def _is_star(r: z3.ReRef) -> bool:
    return bool(r.decl().kind() == z3.Z3_OP_RE_STAR)


def _literal(text: str, fold: bool) -> z3.ReRef:
    if not fold or not any(c.isalpha() for c in text):
        return z3.Re(text_value(text))
    pieces = []
    for char in text:
        if char.isalpha():
            pieces.append(
                z3.Union(z3.Re(text_value(char.lower())), z3.Re(text_value(char.upper())))
            )
        else:
            pieces.append(z3.Re(text_value(char)))
    return pieces[0] if len(pieces) == 1 else z3.Concat(*pieces)
