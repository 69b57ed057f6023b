"""How much work sqlglot's parser would do on a token stream, measured before parsing it.

sqlglot parses almost all SQL in one pass, with one exception that untrusted input can
exploit: ``Parser._parse_join`` backtracks. After a JOIN with neither ON nor USING (and not
CROSS or NATURAL), it tries to read the joins that follow as a nested join
(``a JOIN b JOIN c ON x ON y``), gives up when no second ON comes, and reads the same joins
again. Every such join doubles the work on everything after it in its FROM clause (upstream
issues tobymao/sqlglot#3898 and #5514): fifteen of them take seconds, a hundred never finish,
and a parse cannot be interrupted. The tokenizer is linear, so the callers tokenize, ask
:func:`parse_cost` how many tokens the parse would visit again, and refuse the text with
``too_complex`` instead of parsing it when that is more than :data:`MAX_REPARSED_TOKENS`.

The estimate follows the parser's recursion: a token is read ``2 ** k`` times, where ``k``
counts the ON-less joins before it in its own FROM clause and in the FROM clauses of the
brackets around it. It errs on the side of counting too much (a nested join that does
close with a second ON is counted as if it backtracked); what it must never do is count
too little.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlglot import Token, TokenType
from sqlglot.parser import Parser

__all__ = ["MAX_REPARSED_TOKENS", "ParseCost", "parse_cost"]

#: Tokens a parse may read more than once before the text is refused. Measured: a token
#: costs sqlglot (pure Python) 20-40 us, so this is about half a second of backtracking
#: (ten ON-less joins in a row stay under it, eleven reach it; fifteen took 5 s
#: before this check); thirty joins with ON read nothing twice.
MAX_REPARSED_TOKENS = 20_000

_OPEN = frozenset({TokenType.L_PAREN, TokenType.L_BRACKET, TokenType.L_BRACE})
_CLOSE = frozenset({TokenType.R_PAREN, TokenType.R_BRACKET, TokenType.R_BRACE})
# STRAIGHT_JOIN is MySQL's JOIN keyword and a join kind at once.
_JOIN = frozenset({TokenType.JOIN, TokenType.STRAIGHT_JOIN})
_CONDITION = frozenset({TokenType.ON, TokenType.USING})
# Words that may stand between a previous table and JOIN (NATURAL LEFT OUTER JOIN, ...).
_JOIN_PARTS = frozenset(Parser.JOIN_METHODS | Parser.JOIN_SIDES | Parser.JOIN_KINDS)
# Joins sqlglot never tries to read as a nested join: they take no ON.
_NEVER_NESTED = frozenset({TokenType.CROSS, TokenType.NATURAL})
# At one bracket depth, each of these ends the FROM clause before it (the joins after it,
# if any, are another FROM clause's).
_CLAUSE_START = frozenset(
    {
        TokenType.WHERE,
        TokenType.HAVING,
        TokenType.ORDER_BY,
        TokenType.UNION,
        TokenType.INTERSECT,
    }
)
# sqlglot takes many keywords for names (``AS on``, ``t.where``, ``@union``), so a keyword
# above only counts as one after a token that ends a name, a literal or a bracket. A word
# that is not recognised errs towards counting too much, never too little.
_VALUE_END = frozenset(
    {
        TokenType.VAR,
        TokenType.IDENTIFIER,
        TokenType.NUMBER,
        TokenType.STRING,
        TokenType.NATIONAL_STRING,
        TokenType.TRUE,
        TokenType.FALSE,
        TokenType.NULL,
        TokenType.STAR,
    }
    | _CLOSE
)
# Exponents past this add more than any limit anyone would set; capping them keeps the
# arithmetic on machine-sized integers.
_MAX_EXPONENT = 62


@dataclass(frozen=True)
class ParseCost:
    """The estimate for one token stream.

    Attributes:
        reparsed_tokens: How many token reads the parse would spend on backtracking (a
            lower bound of the true estimate once it is past ``limit``).
        unconditioned_joins: The most joins without ON or USING that one token of the text
            sits behind: the parse time doubles with each of them.
        limit: The most reparsed tokens accepted.
    """

    reparsed_tokens: int
    unconditioned_joins: int
    limit: int = MAX_REPARSED_TOKENS

    @property
    def too_costly(self) -> bool:
        """Whether parsing the tokens would take too long.

        Example:
            >>> from sqlglot.dialects.dialect import Dialect
            >>> tokenize = Dialect.get_or_raise("duckdb").tokenize
            >>> chained = "SELECT 1 FROM a " + "JOIN b ON TRUE " * 200
            >>> parse_cost(tokenize(chained)).too_costly
            False
            >>> bare = "SELECT 1 FROM a " + "JOIN b " * 30
            >>> cost = parse_cost(tokenize(bare))
            >>> cost.too_costly, cost.unconditioned_joins
            (True, 29)
        """
        return self.reparsed_tokens > self.limit

    def message(self) -> str:
        """Why the text is refused, for a ``too_complex`` error."""
        return (
            f"{self.unconditioned_joins} JOINs without ON or USING in one FROM clause: "
            "the SQL parser's work doubles with each of them, and this text would take it "
            "too long; give each join its ON condition, or write CROSS JOIN"
        )


def parse_cost(tokens: Sequence[Token], limit: int = MAX_REPARSED_TOKENS) -> ParseCost:
    """How many tokens sqlglot's parser would read again while backtracking over ``tokens``.

    Linear in the number of tokens; brackets that do not balance are tolerated (the parse
    itself will refuse them).
    """
    # Per bracket depth: ON-less joins so far in the current FROM clause, and whether the
    # last JOIN there has not met its ON or USING yet.
    counts = [0]
    waiting = [False]
    exponent = worst = reparsed = 0
    for i, token in enumerate(tokens):
        kind = token.token_type
        if kind in _OPEN:
            counts.append(0)
            waiting.append(False)
        elif kind in _CLOSE:
            if len(counts) > 1:
                exponent -= counts.pop()
                waiting.pop()
        elif kind in _JOIN:
            if waiting[-1]:
                # The previous join took no condition: sqlglot reads everything from here
                # on twice (once as its nested join, once for real).
                counts[-1] += 1
                exponent += 1
                worst = max(worst, exponent)
            waiting[-1] = not _never_nested(tokens, i)
        elif kind in _CONDITION and _after_value(tokens, i) and not _is_sample(tokens, i):
            waiting[-1] = False
        elif kind in _CLAUSE_START and _after_value(tokens, i):
            exponent -= counts[-1]
            counts[-1] = 0
            waiting[-1] = False
        if reparsed <= limit:
            reparsed += (1 << min(exponent, _MAX_EXPONENT)) - 1
    return ParseCost(reparsed, worst, limit)


def _after_value(tokens: Sequence[Token], index: int) -> bool:
    """Whether the token before ``index`` ends a name, a literal or a bracketed group."""
    return index > 0 and tokens[index - 1].token_type in _VALUE_END


def _never_nested(tokens: Sequence[Token], join: int) -> bool:
    """Whether the JOIN at ``join`` is a CROSS or NATURAL join (which takes no ON)."""
    start = join
    while start > 0 and tokens[start - 1].token_type in _JOIN_PARTS:
        start -= 1
    # "a AS natural JOIN b", "s.cross JOIN b": a word after anything but a table is a name.
    if start < join and not _after_value(tokens, start):
        start += 1
    return any(tokens[j].token_type in _NEVER_NESTED for j in range(start, join))


def _is_sample(tokens: Sequence[Token], using: int) -> bool:
    """DuckDB's ``USING SAMPLE``: part of a table, not a join condition."""
    following = tokens[using + 1] if using + 1 < len(tokens) else None
    return (
        tokens[using].token_type == TokenType.USING
        and following is not None
        and following.text.upper() == "SAMPLE"
    )
