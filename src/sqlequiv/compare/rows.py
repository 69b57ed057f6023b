"""Result comparison: do two result sets hold the same rows?

This is the "same rows" of the design brief, made exact. Defaults follow the
grading rubric (see :class:`~sqlequiv.options.Options`):

* **Bags.** Duplicates count; ``bag_semantics=False`` compares sets.
* **Columns are value vectors.** Names never matter. With
  ``ignore_column_order`` the candidate's columns may come in any order; the
  matching is found without trying every permutation (see below).
* **Canonical values.** NULL equals NULL, NaN equals NaN, ``-0.0`` equals
  ``0.0``, ``DECIMAL '3.00'`` equals ``3`` equals ``3.0``; timestamps with a
  time zone compare as instants. Other types stay distinct (a DATE never
  equals a TIMESTAMP, TRUE never equals 1). Whenever a float is involved the
  two numbers compare as floats (a DECIMAL against a DOUBLE compares as a
  DOUBLE, as in SQL) within the relative tolerance ``float_tolerance``
  (absolute below magnitude 1); integers and DECIMALs against each other
  compare exactly.
* **Order** matters only when the reference sorts its output
  (:func:`order_keys_of`): the candidate's sort-key sequence must then equal
  the reference's, so rows tied on the keys may come in any order.

Soundness is the contract. ``equal=False`` with ``ambiguous=False`` is a
*proof* that no column matching makes the results equal, because it becomes a
reported counterexample. Every pruning step below is therefore a necessary
condition of equality, and when the search budget runs out the answer is
``ambiguous`` rather than a guess.

How columns are matched:

1. The identity matching is tried first (the common case costs one pass).
2. Columns that are identical vectors on one side are interchangeable, so each
   such group collapses to one representative with a multiplicity.
3. Colour refinement (1-dimensional Weisfeiler-Leman on the bipartite graph of
   rows and columns, edges labelled by values) gives every column a colour
   that any valid matching preserves. It starts from the column's multiset of
   values and repeatedly adds the multiset of (value, colour of the row), a
   row's colour being the multiset of (column colour, value) over its cells.
4. Where colours still tie, one column pair is individualised and refinement
   re-run, backtracking over the pairs of the tie group. Each refinement is one
   trial; after :data:`MAX_TRIALS` trials or :data:`MAX_REFINE_CELLS` cells of
   refinement work the answer is ``ambiguous``. Budgets count work, not time,
   so the outcome is deterministic.
5. Float tolerance cannot be hashed (rounding puts nearly equal floats either
   side of a bucket edge), so when floats are present and the exact search
   finds nothing, a second search runs. Columns are paired only when their
   sorted values agree within tolerance; in every group of columns connected
   by such pairs and holding a float, numbers are blanked before refinement;
   each complete matching is verified with a tolerance-aware bipartite row
   matching (Kuhn's augmenting paths, since closeness is not transitive).

When the results differ, the reported ``column_map`` is the alignment that
leaves the fewest rows unexplained (found heuristically; it explains, it does
not decide), and ``missing``/``extra`` are the bag differences under it.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, TypeAlias

from sqlglot import exp

from sqlequiv.options import Options
from sqlequiv.results import Comparison, OrderKey, ResultSet, output_column

__all__ = [
    "MAX_REFINE_CELLS",
    "MAX_TRIALS",
    "Comparison",
    "JsonValue",
    "OrderKey",
    "ResultSet",
    "canonical_value",
    "compare_results",
    "order_keys_of",
    "to_json_value",
]

#: Budget of the column-matching search, in refinement (or backtracking) steps.
MAX_TRIALS = 5000

#: Budget of the column-matching search in cells visited by colour refinement:
#: on a wide result one refinement costs many cells, and the trial cap alone
#: would let a 26-column search run for a minute. Counting work rather than
#: time keeps the outcome deterministic.
MAX_REFINE_CELLS = 5_000_000

#: Work spent improving the alignment that explains a difference, in cells.
_MAX_ALIGN_CELLS = 2_000_000

#: Most closeness checks spent pairing the rows left over by the exact pass
#: within one group of look-alike rows; past it the comparison is undecided.
_MAX_PAIR_WORK = 250_000

Row: TypeAlias = tuple[Any, ...]
Perm: TypeAlias = tuple[int, ...]
JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
_Accept: TypeAlias = Literal["ok", "order", "no", "undecided"]


# -- canonical values ------------------------------------------------------------------


class _NaN:
    """The one canonical NaN: unlike ``float('nan')`` it equals itself."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NaN"

    def __reduce__(self) -> str:
        return "_NAN"


_NAN = _NaN()


@dataclass(frozen=True)
class _Tagged:
    """A canonical value whose Python form would collide with another type's.

    ``True == 1`` in Python but not in SQL, and a list must be hashable.
    """

    tag: str
    value: Hashable


#: Stands for any finite number in a row's *skeleton*, the blocking key that
#: rows equal within tolerance always share.
_NUMBER = _Tagged("number", None)


def canonical_value(value: Any, float_tolerance: float = 0.0) -> Hashable:
    """The canonical, hashable form of one value; equal forms mean equal values.

    The form is exact: ``float_tolerance`` never changes it, because rounding
    floats to a grid would put two values within tolerance of each other on
    either side of a grid line. :func:`compare_results` applies the tolerance
    in a separate matching pass; the parameter is accepted so that callers can
    pass the options in force.

    Example:
        >>> from decimal import Decimal
        >>> canonical_value(Decimal("3.00")) == canonical_value(3) == canonical_value(3.0)
        True
        >>> canonical_value(float("nan")) == canonical_value(float("nan"))
        True
        >>> canonical_value(-0.0) == canonical_value(0.0)
        True
        >>> canonical_value(True) == canonical_value(1)
        False
    """
    del float_tolerance  # documented above: hashed forms are exact
    return _canon(value)


def _canon(value: Any) -> Hashable:
    if value is None or (isinstance(value, str | int) and not isinstance(value, bool)):
        return value
    if isinstance(value, bool):
        return _Tagged("bool", value)
    if isinstance(value, float):
        if math.isnan(value):
            return _NAN
        # -0.0 == 0.0 and hashes alike already; normalising only tidies the repr.
        return 0.0 if value == 0.0 else value
    if isinstance(value, Decimal):
        if value.is_nan():
            return _NAN
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        # Python compares Decimal, int and float exactly and hashes equal numbers alike.
        return value.normalize()
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            return _Tagged("timestamptz", value.astimezone(dt.timezone.utc))
        return value
    if isinstance(value, dt.date | dt.time | dt.timedelta | uuid.UUID):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return _Tagged("bytes", bytes(value))
    if isinstance(value, list | tuple):
        return _Tagged("list", tuple(_canon(v) for v in value))
    if isinstance(value, dict):
        items = [(_canon(k), _canon(v)) for k, v in value.items()]
        # STRUCT fields and MAP entries compare as sets of pairs, like Python dicts.
        return _Tagged("struct", tuple(sorted(items, key=repr)))
    try:
        hash(value)
    except TypeError:
        return _Tagged(type(value).__name__, repr(value))
    hashable: Hashable = value
    return hashable


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _is_finite_number(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Decimal):
        return value.is_finite()
    return isinstance(value, int) and not isinstance(value, bool)


def _has_float(value: Hashable) -> bool:
    """True if tolerance can matter for ``value`` (a finite float, possibly nested)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, _Tagged) and isinstance(value.value, tuple):
        return any(_has_float(v) for v in value.value)
    if isinstance(value, tuple):
        return any(_has_float(v) for v in value)
    return False


def _has_number(value: Hashable) -> bool:
    """True if ``value`` holds a finite number below the top level (in a list or struct)."""
    if isinstance(value, _Tagged) and isinstance(value.value, tuple):
        return any(_is_finite_number(v) or _has_number(v) for v in value.value)
    if isinstance(value, tuple):
        return any(_is_finite_number(v) or _has_number(v) for v in value)
    return False


def _skeleton(value: Hashable) -> Hashable:
    """``value`` with every finite number blanked: equal within tolerance => equal skeletons."""
    if _is_finite_number(value):
        return _NUMBER
    if isinstance(value, _Tagged) and isinstance(value.value, tuple):
        return _Tagged(value.tag, _skeleton(value.value))
    if isinstance(value, tuple):
        return tuple(_skeleton(v) for v in value)
    return value


def _as_float(value: int | float | Decimal) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.copysign(math.inf, value)


def _within(a: float, b: float, tol: float) -> bool:
    if a == b:
        return True
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    # Relative tolerance, absolute below magnitude 1: one formula for both.
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def _close(a: Hashable, b: Hashable, tol: float) -> bool:
    """Equality of canonical values with float tolerance (exact for int and DECIMAL pairs)."""
    if a == b:
        return True
    if _is_number(a) and _is_number(b):
        if not (isinstance(a, float) or isinstance(b, float)):
            return False
        return _within(_as_float(a), _as_float(b), tol)  # type: ignore[arg-type]
    if isinstance(a, _Tagged) and isinstance(b, _Tagged):
        return a.tag == b.tag and _close(a.value, b.value, tol)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b, strict=True))
    return False


def _rows_close(a: Row, b: Row, tol: float) -> bool:
    return all(_close(x, y, tol) for x, y in zip(a, b, strict=True))


# -- JSON ------------------------------------------------------------------------------


def to_json_value(value: Any) -> JsonValue:
    """A JSON-ready form of one result value that loses no information.

    Dates, times and timestamps become ISO-8601 strings and intervals ISO-8601
    durations; a DECIMAL becomes an int when it is integral and otherwise its
    exact decimal string; non-finite floats become ``"NaN"``, ``"Infinity"``
    and ``"-Infinity"`` (JSON has no such numbers); bytes become hex, UUIDs
    strings, and lists and structs are converted recursively.

    Example:
        >>> import datetime as dt
        >>> from decimal import Decimal
        >>> [to_json_value(v) for v in (Decimal("3.00"), Decimal("0.10"), float("-inf"))]
        [3, '0.10', '-Infinity']
        >>> to_json_value(dt.datetime(2026, 9, 30, 23, 59, 59, 999999))
        '2026-09-30T23:59:59.999999'
        >>> to_json_value(dt.timedelta(days=1, hours=2, microseconds=500000))
        'P1DT2H0.5S'
        >>> to_json_value({"tags": [b"\\x01", None]})
        {'tags': ['01', None]}
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, Decimal):
        if value.is_nan():
            return "NaN"
        if value.is_infinite():
            return "Infinity" if value > 0 else "-Infinity"
        if value == value.to_integral_value():
            return int(value)
        return str(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return _iso_duration(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, list | tuple):
        return [to_json_value(v) for v in value]
    if isinstance(value, dict):
        return {
            k if isinstance(k, str) else str(to_json_value(k)): to_json_value(v)
            for k, v in value.items()
        }
    return str(value)


def _iso_duration(delta: dt.timedelta) -> str:
    micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    sign = "-" if micros < 0 else ""
    micros = abs(micros)
    days, micros = divmod(micros, 86_400_000_000)
    hours, micros = divmod(micros, 3_600_000_000)
    minutes, micros = divmod(micros, 60_000_000)
    seconds, micros = divmod(micros, 1_000_000)
    time_part = ""
    if hours:
        time_part += f"{hours}H"
    if minutes:
        time_part += f"{minutes}M"
    if seconds or micros:
        frac = f".{micros:06d}".rstrip("0") if micros else ""
        time_part += f"{seconds}{frac}S"
    if not days and not time_part:
        return "PT0S"
    return f"{sign}P{f'{days}D' if days else ''}{'T' + time_part if time_part else ''}"


# -- prepared results ------------------------------------------------------------------


@dataclass(frozen=True)
class _Mode:
    """How rows are compared: tolerance, bags or sets, and whether tolerance can matter."""

    tol: float
    bag: bool
    #: Some value is a float: the exact (hashed) pass may not decide alone.
    fuzzy: bool


@dataclass
class _Side:
    """One result, canonicalised once: rows (deduplicated for set semantics) and columns."""

    canon: list[Row]
    orig: list[Row]
    width: int
    floats: bool = field(init=False)
    columns: list[tuple[Hashable, ...]] = field(init=False)

    def __post_init__(self) -> None:
        self.floats = any(_has_float(v) for row in self.canon for v in row)
        self.columns = [tuple(row[c] for row in self.canon) for c in range(self.width)]


def _prepare(result: ResultSet, bag: bool) -> _Side:
    canon: list[Row] = []
    orig: list[Row] = []
    seen: set[Row] = set()
    for row in result.rows:
        key = tuple(_canon(v) for v in row)
        if not bag:
            if key in seen:
                continue
            seen.add(key)
        canon.append(key)
        orig.append(tuple(row))
    return _Side(canon, orig, len(result.columns))


def _permute(rows: Iterable[Row], perm: Perm) -> list[Row]:
    return [tuple(row[j] for j in perm) for row in rows]


# -- tolerant row matching -------------------------------------------------------------


def _max_matching(left: list[Row], right: list[Row], tol: float) -> list[tuple[int, int]] | None:
    """A maximum matching of rows equal within tolerance; None if too costly to compute.

    Rows are first blocked by skeleton (only rows with equal skeletons can be
    close), then each block is matched with Kuhn's augmenting paths. A greedy
    pairing would be unsound: closeness is not transitive, so the first
    partner found may be the only partner of another row.
    """
    blocks: dict[Hashable, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for i, row in enumerate(left):
        blocks[_skeleton(row)][0].append(i)
    for j, row in enumerate(right):
        blocks[_skeleton(row)][1].append(j)
    pairs: list[tuple[int, int]] = []
    for ls, rs in blocks.values():
        if not ls or not rs:
            continue
        if len(ls) * len(rs) > _MAX_PAIR_WORK:
            return None
        adjacency = [[j for j in rs if _rows_close(left[i], right[j], tol)] for i in ls]
        owner: dict[int, int] = {}
        for li in range(len(ls)):
            _augment(li, adjacency, owner, set())
        pairs.extend((ls[li], j) for j, li in owner.items())
    return pairs


def _augment(li: int, adjacency: list[list[int]], owner: dict[int, int], seen: set[int]) -> bool:
    for j in adjacency[li]:
        if j in seen:
            continue
        seen.add(j)
        if j not in owner or _augment(owner[j], adjacency, owner, seen):
            owner[j] = li
            return True
    return False


def _rows_equal(ref: list[Row], cand: list[Row], tol: float, bag: bool, fuzzy: bool) -> bool | None:
    """Whether two row lists are equal as bags (or sets); None if undecidable within budget."""
    if bag:
        if len(ref) != len(cand):
            return False
        diff_ref = Counter(ref)
        diff_ref.subtract(Counter(cand))
        if not any(diff_ref.values()):
            return True
        if not fuzzy:
            return False
        left = [r for r, n in diff_ref.items() for _ in range(max(n, 0))]
        right = [r for r, n in diff_ref.items() for _ in range(max(-n, 0))]
        pairs = _max_matching(left, right, tol)
        return None if pairs is None else len(pairs) == len(left)
    ref_set, cand_set = set(ref), set(cand)
    if ref_set == cand_set:
        return True
    if not fuzzy:
        return False
    # Sets within tolerance: every row needs a close partner on the other side.
    for lone, other in ((ref_set - cand_set, cand), (cand_set - ref_set, ref)):
        by_skeleton: dict[Hashable, list[Row]] = defaultdict(list)
        for row in other:
            by_skeleton[_skeleton(row)].append(row)
        for row in lone:
            if not any(_rows_close(row, o, tol) for o in by_skeleton.get(_skeleton(row), ())):
                return False
    return True


def _difference(
    ref: _Side, cand: _Side, perm: Perm | None, mode: _Mode
) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """Reference rows absent from the candidate and vice versa (original values)."""
    tol, bag, fuzzy = mode.tol, mode.bag, mode.fuzzy
    if perm is None:
        return tuple(ref.orig), tuple(cand.orig)
    cand_canon = _permute(cand.canon, perm)
    cand_orig = _permute(cand.orig, perm)
    missing: list[int] = []
    extra: list[int] = []
    if bag:
        ref_at: dict[Row, list[int]] = defaultdict(list)
        cand_at: dict[Row, list[int]] = defaultdict(list)
        for i, row in enumerate(ref.canon):
            ref_at[row].append(i)
        for i, row in enumerate(cand_canon):
            cand_at[row].append(i)
        for row, idx in ref_at.items():
            missing.extend(idx[len(cand_at.get(row, ())) :])
        for row, idx in cand_at.items():
            extra.extend(idx[len(ref_at.get(row, ())) :])
        missing.sort()
        extra.sort()
        if fuzzy and missing and extra:
            pairs = _max_matching(
                [ref.canon[i] for i in missing], [cand_canon[i] for i in extra], tol
            )
            if pairs:
                gone_m = {missing[a] for a, _ in pairs}
                gone_e = {extra[b] for _, b in pairs}
                missing = [i for i in missing if i not in gone_m]
                extra = [i for i in extra if i not in gone_e]
    else:
        ref_set, cand_set = set(ref.canon), set(cand_canon)
        missing = [
            i
            for i, row in enumerate(ref.canon)
            if row not in cand_set
            and not (fuzzy and any(_rows_close(row, c, tol) for c in cand_canon))
        ]
        extra = [
            i
            for i, row in enumerate(cand_canon)
            if row not in ref_set
            and not (fuzzy and any(_rows_close(row, r, tol) for r in ref.canon))
        ]
    return tuple(ref.orig[i] for i in missing), tuple(cand_orig[i] for i in extra)


# -- order -----------------------------------------------------------------------------


def _order_ok(ref: _Side, cand: _Side, perm: Perm, keys: Sequence[OrderKey], tol: float) -> bool:
    """The candidate's sequence of sort keys equals the reference's (ties in any order)."""
    if not keys or len(ref.canon) != len(cand.canon):
        # Set semantics within tolerance can pair rows of unequal lists; order is then moot.
        return True
    cols = [k.column for k in keys]
    for r, c in zip(ref.canon, cand.canon, strict=True):
        for col in cols:
            if not _close(r[col], c[perm[col]], tol):
                return False
    return True


# -- column matching -------------------------------------------------------------------


class _BudgetExceededError(Exception):
    """The matching search spent its trials."""


@dataclass
class _Search:
    """Shared state of one matching search."""

    accept: Callable[[Perm], _Accept]
    trials: int = 0
    cells: int = 0
    found: Perm | None = None
    #: A matching that makes the bags equal but puts rows in a wrong order.
    order_only: Perm | None = None
    undecided: bool = False

    def spend(self) -> None:
        self.trials += 1
        if self.trials > MAX_TRIALS:
            raise _BudgetExceededError

    def spend_cells(self, cells: int) -> None:
        self.cells += cells
        if self.cells > MAX_REFINE_CELLS:
            raise _BudgetExceededError

    def offer(self, perm: Perm) -> bool:
        """Record the outcome of a complete matching; True to stop searching."""
        outcome = self.accept(perm)
        if outcome == "ok":
            self.found = perm
            return True
        if outcome == "order" and self.order_only is None:
            self.order_only = perm
        if outcome == "undecided":
            self.undecided = True
        return False


def _collapse(
    columns: list[tuple[Hashable, ...]], coarse: frozenset[int]
) -> tuple[list[int], list[list[int]]]:
    """Group identical column vectors: (representatives, members of each).

    Coarsened columns stay alone: two columns whose floats merely agree within
    tolerance are not interchangeable.
    """
    groups: dict[Hashable, list[int]] = {}
    for c, vector in enumerate(columns):
        groups.setdefault(("alone", c) if c in coarse else vector, []).append(c)
    members = list(groups.values())
    return [m[0] for m in members], members


def _refine(
    rrows: list[Row], crows: list[Row], rcol: list[int], ccol: list[int], search: _Search
) -> tuple[list[int], list[int]] | None:
    """Colour refinement to a stable partition; None once the two sides' colours disagree.

    Colours are numbered in one palette per round, shared by both sides, so a
    colour means the same thing on each side.
    """
    classes = len(set(rcol) | set(ccol))
    while True:
        search.spend_cells(2 * len(rrows) * len(rcol))
        palette: dict[Hashable, int] = {}
        rrow = _row_colours(rrows, rcol, palette)
        crow = _row_colours(crows, ccol, palette)
        if Counter(rrow) != Counter(crow):
            return None
        rcol = _column_colours(rrows, rcol, rrow, palette)
        ccol = _column_colours(crows, ccol, crow, palette)
        if Counter(rcol) != Counter(ccol):
            return None
        # Each colour extends the previous one, so an unchanged count means a stable partition.
        now = len(set(rcol) | set(ccol))
        if now == classes:
            return rcol, ccol
        classes = now


def _row_colours(rows: list[Row], colours: list[int], palette: dict[Hashable, int]) -> list[int]:
    """A row's colour: the multiset of (column colour, value) over its cells."""
    keys = [frozenset(Counter(zip(colours, row, strict=True)).items()) for row in rows]
    return [palette.setdefault(key, len(palette)) for key in keys]


def _column_colours(
    rows: list[Row], colours: list[int], row_colours: list[int], palette: dict[Hashable, int]
) -> list[int]:
    """A column's colour: its previous colour and the multiset of (value, row colour)."""
    new = []
    for c, colour in enumerate(colours):
        cells = Counter((row[c], k) for row, k in zip(rows, row_colours, strict=True))
        new.append(palette.setdefault((colour, frozenset(cells.items())), len(palette)))
    return new


def _search_refined(
    ref: _Side,
    cand: _Side,
    search: _Search,
    coarse: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset()),
    classes: tuple[list[int], list[int]] | None = None,
) -> None:
    """Individualisation-refinement; complete matchings are verified by ``search.offer``.

    ``coarse`` names, per side, the columns whose numbers are blanked (to
    their skeleton) before refinement, so that values equal only within
    tolerance still get equal colours. The caller must coarsen consistently:
    a column and every column it could be matched with are coarsened alike.
    ``classes`` optionally gives each column a class that any matching keeps.
    """
    rcoarse, ccoarse = coarse
    rclass, cclass = classes or ([0] * ref.width, [0] * cand.width)
    rreps, rmembers = _collapse(ref.columns, rcoarse)
    creps, cmembers = _collapse(cand.columns, ccoarse)
    if len(rreps) != len(creps):
        return

    def cells(side: _Side, reps: list[int], blanked: frozenset[int]) -> list[Row]:
        return [
            tuple(_skeleton(row[c]) if c in blanked else row[c] for c in reps) for row in side.canon
        ]

    rrows = cells(ref, rreps, rcoarse)
    crows = cells(cand, creps, ccoarse)
    palette: dict[Hashable, int] = {}

    def initial(rows: list[Row], members: list[list[int]], klass: list[int]) -> list[int]:
        return [
            palette.setdefault(
                (klass[m[0]], len(m), frozenset(Counter(row[a] for row in rows).items())),
                len(palette),
            )
            for a, m in enumerate(members)
        ]

    rcol = initial(rrows, rmembers, rclass)
    ccol = initial(crows, cmembers, cclass)

    def leaf(rcol: list[int], ccol: list[int]) -> Perm:
        cand_of = {colour: x for x, colour in enumerate(ccol)}
        perm = [0] * ref.width
        for a, colour in enumerate(rcol):
            for r, c in zip(rmembers[a], cmembers[cand_of[colour]], strict=True):
                perm[r] = c
        return tuple(perm)

    def visit(rcol: list[int], ccol: list[int]) -> bool:
        search.spend()
        refined = _refine(rrows, crows, rcol, ccol, search)
        if refined is None:
            return False
        rcol, ccol = refined
        by_colour: dict[int, list[int]] = defaultdict(list)
        for a, colour in enumerate(rcol):
            by_colour[colour].append(a)
        ties = [group for group in by_colour.values() if len(group) > 1]
        if not ties:
            return search.offer(leaf(rcol, ccol))
        group = min(ties, key=lambda g: (len(g), g[0]))
        a = group[0]
        options = [x for x, colour in enumerate(ccol) if colour == rcol[a]]
        # Try the same position first: candidates usually keep the reference's column order.
        options.sort(key=lambda x: (creps[x] != rreps[a], x))
        fresh = max(*rcol, *ccol) + 1
        for x in options:
            r2, c2 = list(rcol), list(ccol)
            r2[a] = c2[x] = fresh
            if visit(r2, c2):
                return True
        return False

    if Counter(rcol) == Counter(ccol):
        visit(rcol, ccol)


def _loosely_equal_columns(
    a: tuple[Hashable, ...], b: tuple[Hashable, ...], tol: float, bag: bool
) -> bool:
    """A necessary condition for two columns to be equal within tolerance.

    Exact values must agree exactly; numbers are compared as sorted float
    sequences, pairing the i-th smallest with the i-th smallest. For an
    "within tolerance" relation whose neighbourhoods are intervals with
    monotone ends (ours is), that pairing succeeds whenever any pairing does.
    """
    parts = []
    for column in (a, b):
        numbers: list[float] = []
        fuzzy: list[Hashable] = []
        exact: list[Hashable] = []
        for v in column:
            if _is_finite_number(v):
                numbers.append(_as_float(v))  # type: ignore[arg-type]
            elif _has_number(v):
                # Its partner may hold a float where this holds an exact number.
                fuzzy.append(_skeleton(v))
            else:
                exact.append(v)
        parts.append((sorted(numbers), fuzzy, exact))
    (na, fa, ea), (nb, fb, eb) = parts
    if bag:
        return (
            Counter(ea) == Counter(eb)
            and Counter(fa) == Counter(fb)
            and len(na) == len(nb)
            and all(_within(x, y, tol) for x, y in zip(na, nb, strict=True))
        )
    if set(ea) != set(eb) or set(fa) != set(fb) or bool(na) != bool(nb):
        return False
    return _covered(na, nb, tol) and _covered(nb, na, tol)


def _covered(xs: list[float], ys: list[float], tol: float) -> bool:
    """Every x has some y within tolerance (both sorted)."""
    for x in xs:
        i = bisect.bisect_left(ys, x)
        if not any(_within(x, ys[j], tol) for j in (i - 1, i) if 0 <= j < len(ys)):
            return False
    return True


def _search_tolerant(ref: _Side, cand: _Side, tol: float, bag: bool, search: _Search) -> None:
    """Search for a matching under float tolerance.

    Column pairs whose sorted values agree within tolerance are "compatible";
    a matching may only use compatible pairs. For bags, colour refinement
    still applies once numbers are blanked in every column connected (through
    compatible pairs) to a column holding floats; everywhere else values
    compare exactly. Set semantics within tolerance pair rows many-to-many,
    which refinement cannot follow, so sets fall back to plain backtracking.
    """
    width = ref.width
    compatible = [
        [
            j
            for j in range(width)
            if _loosely_equal_columns(ref.columns[i], cand.columns[j], tol, bag)
        ]
        for i in range(width)
    ]
    if not all(compatible):
        return
    if bag:
        rclass, cclass = _components(compatible, width)
        floaty = {rclass[i] for i in range(width) if any(map(_has_float, ref.columns[i]))}
        floaty |= {cclass[j] for j in range(width) if any(map(_has_float, cand.columns[j]))}
        coarse = (
            frozenset(i for i in range(width) if rclass[i] in floaty),
            frozenset(j for j in range(width) if cclass[j] in floaty),
        )
        _search_refined(ref, cand, search, coarse, (rclass, cclass))
        return
    for i, options in enumerate(compatible):
        # Same position first: candidates usually keep the reference's column order.
        options.sort(key=lambda j, i=i: (j != i, j))  # type: ignore[misc]
    order = sorted(range(width), key=lambda i: (len(compatible[i]), i))
    perm = [-1] * width
    used = [False] * width

    def visit(depth: int) -> bool:
        search.spend()
        if depth == width:
            return search.offer(tuple(perm))
        i = order[depth]
        for j in compatible[i]:
            if used[j]:
                continue
            perm[i], used[j] = j, True
            if visit(depth + 1):
                return True
            used[j] = False
        return False

    visit(0)


def _components(compatible: list[list[int]], width: int) -> tuple[list[int], list[int]]:
    """Connected components of the compatibility graph, as class ids per side."""
    parent = list(range(2 * width))  # reference columns, then candidate columns

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, options in enumerate(compatible):
        for j in options:
            parent[root(width + j)] = root(i)
    return [root(i) for i in range(width)], [root(width + j) for j in range(width)]


# -- explaining alignment --------------------------------------------------------------


def _family(value: Hashable) -> str | None:
    if value is None:
        return None
    if _is_number(value) or value is _NAN:
        return "number"
    if isinstance(value, _Tagged):
        return value.tag
    if isinstance(value, dt.datetime):
        return "timestamp"
    return type(value).__name__


def _best_alignment(
    ref: _Side,
    cand: _Side,
    ref_names: Sequence[str],
    cand_names: Sequence[str],
    mode: _Mode,
) -> Perm | None:
    """The column alignment that best explains a difference (not a proof of anything).

    Two starting points: the identity, and an assignment that pairs columns
    sharing the most values (then the same position, then the same name),
    completed by augmenting paths. The better of the two, counted in rows
    left unexplained, is then improved by swapping pairs of candidate columns
    while that explains more rows, within :data:`_MAX_ALIGN_CELLS`. Columns
    are only paired when their values are of compatible types; None if that
    is impossible.
    """
    width = ref.width
    families_r = [{f for v in col if (f := _family(v))} for col in ref.columns]
    families_c = [{f for v in col if (f := _family(v))} for col in cand.columns]

    def fits(i: int, j: int) -> bool:
        return not (families_r[i] and families_c[j]) or bool(families_r[i] & families_c[j])

    counts_c = [Counter(col) for col in cand.columns]
    prefs: list[list[int]] = []
    best: list[tuple[int, ...]] = []
    for i in range(width):
        counts_r = Counter(ref.columns[i])
        scored = []
        for j in range(width):
            if not fits(i, j):
                continue
            overlap = sum((counts_r & counts_c[j]).values())
            same_name = ref_names[i].lower() == cand_names[j].lower()
            scored.append(((-overlap, j != i, not same_name, j), j))
        scored.sort()
        prefs.append([j for _, j in scored])
        best.append(scored[0][0] if scored else (0,))
    owner: dict[int, int] = {}
    for i in sorted(range(width), key=lambda i: (best[i], i)):
        if not _augment(i, prefs, owner, set()):
            return None
    greedy = [0] * width
    for j, i in owner.items():
        greedy[i] = j

    def unexplained(perm: Perm) -> int:
        missing, extra = _difference(ref, cand, perm, mode)
        return len(missing) + len(extra)

    starts = [tuple(greedy)]
    if all(fits(i, i) for i in range(width)):
        starts.insert(0, tuple(range(width)))  # first, so that it wins ties
    scored_starts = [(unexplained(p), p) for p in starts]
    cost, perm = min(scored_starts, key=lambda pair: pair[0])
    evaluations = _MAX_ALIGN_CELLS // max(1, (len(ref.canon) + len(cand.canon)) * width)
    improved = True
    while improved and evaluations > 0:
        improved = False
        for a in range(width):
            for b in range(a + 1, width):
                if evaluations <= 0 or not (fits(a, perm[b]) and fits(b, perm[a])):
                    continue
                evaluations -= 1
                swapped = list(perm)
                swapped[a], swapped[b] = perm[b], perm[a]
                trial = unexplained(tuple(swapped))
                # At equal cost, prefer columns in their own position: the explanation
                # then pairs columns the way the queries list them.
                tidier = (swapped[a] == a) + (swapped[b] == b) > (perm[a] == a) + (perm[b] == b)
                if trial < cost or (trial == cost and tidier):
                    cost, perm, improved = trial, tuple(swapped), True
    return perm


# -- the comparison --------------------------------------------------------------------


def compare_results(
    candidate: ResultSet,
    reference: ResultSet,
    options: Options,
    order_keys: Sequence[OrderKey] | None = None,
) -> Comparison:
    """Compare a candidate's result with the reference's under ``options``.

    ``order_keys`` (from :func:`order_keys_of`) makes row order count when
    ``options.check_order`` is set.

    Example:
        >>> ref = ResultSet(("id", "n"), ((1, 0), (2, 3)))
        >>> compare_results(ResultSet(("n", "id"), ((3, 2), (0, 1))), ref, Options())
        Comparison(equal=True, reason='', column_map=(1, 0), missing=(), extra=(), ambiguous=False)
        >>> c = compare_results(ResultSet(("id", "n"), ((1, 1), (2, 3))), ref, Options())
        >>> c.reason, c.missing, c.extra
        ('values', ((1, 0),), ((1, 1),))
        >>> by_n_desc = ResultSet(("id", "n"), ((2, 3), (1, 0)))
        >>> keys = [OrderKey(1, descending=True, nulls_first=False)]
        >>> compare_results(ref, by_n_desc, Options(), keys).reason
        'order'
    """
    bag = options.bag_semantics
    tol = options.float_tolerance
    ref = _prepare(reference, bag)
    cand = _prepare(candidate, bag)
    width = ref.width
    if cand.width != width:
        return Comparison(False, "column_count", None, tuple(ref.orig), tuple(cand.orig))
    # Also at zero tolerance: a DECIMAL and a DOUBLE then compare as DOUBLEs, as in SQL.
    fuzzy = ref.floats or cand.floats
    mode = _Mode(tol, bag, fuzzy)
    keys = [k for k in (order_keys or ()) if 0 <= k.column < width] if options.check_order else []

    def accept(perm: Perm) -> _Accept:
        equal = _rows_equal(ref.canon, _permute(cand.canon, perm), tol, bag, fuzzy)
        if equal is None:
            return "undecided"
        if not equal:
            return "no"
        return "ok" if _order_ok(ref, cand, perm, keys, tol) else "order"

    def unequal(reason: str) -> Comparison:
        perm = _best_alignment(ref, cand, reference.columns, candidate.columns, mode)
        missing, extra = _difference(ref, cand, perm, mode)
        return Comparison(False, reason, perm, missing, extra)

    # A column matching never changes how many rows (or distinct rows) there are.
    if len(ref.canon) != len(cand.canon) and (bag or not fuzzy):
        return unequal("row_count")

    search = _Search(accept)
    identity = tuple(range(width))
    try:
        if not search.offer(identity) and options.ignore_column_order and width > 1:
            _search_refined(ref, cand, search)
            if search.found is None and fuzzy:
                _search_tolerant(ref, cand, tol, bag, search)
    except _BudgetExceededError:
        search.undecided = True
    if search.found is not None:
        return Comparison(True, "", search.found, (), ())
    if search.order_only is not None and not search.undecided:
        return Comparison(False, "order", search.order_only, (), ())
    if search.undecided:
        return Comparison(False, "values", None, (), (), ambiguous=True)
    return unequal("row_count" if len(ref.canon) != len(cand.canon) else "values")


# -- ORDER BY of the reference ---------------------------------------------------------


def order_keys_of(reference_ast: exp.Expr) -> list[OrderKey] | None:
    """The reference's top-level ORDER BY keys, as indexes into its output columns.

    A key counts when it is an ordinal (``ORDER BY 2``), an output column's
    name (``ORDER BY total``), or an expression identical to a projection
    (``ORDER BY t.a + 1`` for ``SELECT t.a + 1 AS y``). Keys are kept up to
    the first one that is not an output column: a result sorted by ``(a, b)``
    is also sorted by ``a``, so checking that prefix is still sound. Returns
    None when there is no ORDER BY or its first key is not an output column.

    An ``Ordered`` node's ``nulls_first`` is set by sqlglot's parser from the
    source dialect, and the DuckDB SQL generated from the tree spells out
    whatever differs from DuckDB's default. When it is absent the query runs
    with DuckDB's default, which (checked on DuckDB 2.0.1) is NULLS LAST for
    ascending *and* descending keys, unlike Postgres (NULLS FIRST for DESC).

    Example:
        >>> import sqlglot
        >>> sql = "SELECT a, b AS total FROM t ORDER BY total DESC, 1"
        >>> ast = sqlglot.parse_one(sql, read="duckdb")
        >>> [(k.column, k.descending, k.nulls_first) for k in order_keys_of(ast) or ()]
        [(1, True, False), (0, False, False)]
        >>> order_keys_of(sqlglot.parse_one("SELECT a FROM t ORDER BY b")) is None
        True
    """
    query = reference_ast
    while isinstance(query, exp.Subquery) and query.args.get("order") is None:
        query = query.this
    order = query.args.get("order")
    if not isinstance(order, exp.Order) or not isinstance(query, exp.Query):
        return None
    selects = query.selects
    keys: list[OrderKey] = []
    for ordered in order.expressions:
        if not isinstance(ordered, exp.Ordered):
            break
        column = output_column(ordered.this, selects, is_select=isinstance(query, exp.Select))
        if column is None:
            break
        keys.append(
            OrderKey(
                column,
                descending=bool(ordered.args.get("desc")),
                # Absent means DuckDB's default, NULLS LAST in both directions.
                nulls_first=bool(ordered.args.get("nulls_first")),
            )
        )
    return keys or None
