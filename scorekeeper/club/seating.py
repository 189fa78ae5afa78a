"""Seating for a club night: tables of three drawn for each round, so that the
players meet as many different people as possible.

Pure code (no Flask, no SQL). A round seats ``len(players) // 3`` tables; the one or
two players left over sit out, by turns (the ones who have sat out least sit out
next, so nobody sits out twice before everybody has once). Within a table the seat
order is drawn: the first seat deals first, the others follow clockwise.

Nobody should share a table with the same player twice while that can be avoided.
Where the number of players is 9, 15, 21 or 27 (a Kirkman triple system exists:
any order 3 mod 6), the rounds are the parallel classes of one, so the whole
schedule of (N-1)/2 rounds meets every pair exactly once. Otherwise the rounds are
drawn one by one, each improved by swapping players between its tables while that
lowers the repeated meetings, and the whole schedule is then improved again by the
same swaps in every round. ``docs/seating.md`` gives the lower bound and what this
reaches for 4 to 30 players.
"""

from __future__ import annotations

import itertools
import random
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

MIN_PLAYERS = 4
MAX_PLAYERS = 60
MAX_ROUNDS = 30


class SeatingError(ValueError):
    """Players or rounds that cannot be seated; the message says why, for a person."""


@dataclass(frozen=True)
class Table:
    """Three players in seat order: ``seats[0]`` deals the first hand."""

    seats: tuple[str, str, str]


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    def players(self) -> list[str]:
        return [name for table in self.tables for name in table.seats]


@dataclass(frozen=True)
class Schedule:
    rounds: tuple[Round, ...]

    @property
    def byes(self) -> list[tuple[str, ...]]:
        return [r.byes for r in self.rounds]

    def meetings(self) -> Counter:
        return meetings(self.rounds)

    @property
    def repeats(self) -> int:
        """Meetings beyond the first, summed over every pair of players."""
        return _repeats(self.meetings())

    def as_json(self) -> dict:
        return {
            "rounds": [[list(t.seats) for t in r.tables] for r in self.rounds],
            "byes": [list(r.byes) for r in self.rounds],
            "repeats": self.repeats,
        }


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def meetings(rounds: Iterable[Round]) -> Counter:
    """How often each pair of players has shared a table."""
    return tables_met(table.seats for r in rounds for table in r.tables)


def tables_met(tables: Iterable[Sequence[str]]) -> Counter:
    met: Counter = Counter()
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[pair(a, b)] += 1
    return met


def name_key(name: str) -> str:
    """Two names are one player when they differ only in case, composition or spaces."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def check_players(players: Sequence[str]) -> list[str]:
    """The players' names, trimmed; ``SeatingError`` for too few, too many or a name twice."""
    names = [unicodedata.normalize("NFC", p.strip()) for p in players]
    if any(not n for n in names):
        raise SeatingError("players: a name is empty")
    if len(names) < MIN_PLAYERS:
        raise SeatingError(
            f"players: a club night needs at least {MIN_PLAYERS} players, not {len(names)} "
            "(three play as one ordinary table)"
        )
    if len(names) > MAX_PLAYERS:
        raise SeatingError(f"players: a club night seats at most {MAX_PLAYERS} players, not {len(names)}")
    seen: dict[str, str] = {}
    for n in names:
        if name_key(n) in seen:
            raise SeatingError(
                f"players: {n!r} is named twice"
                if seen[name_key(n)] == n
                else f"players: {seen[name_key(n)]!r} and {n!r} are the same name"
            )
        seen[name_key(n)] = n
    return names


# ------------------------------------------------------------------ Kirkman triple systems


def _primitive_root(q: int) -> int:
    """The least primitive root of the prime ``q``."""
    factors = {p for p in range(2, q) if (q - 1) % p == 0 and all(p % d for d in range(2, p))}
    return next(g for g in range(2, q) if all(pow(g, (q - 1) // p, q) != 1 for p in factors))


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


def _kts_affine_plane() -> list[list[tuple[int, int, int]]]:
    """KTS(9): the lines of the affine plane over Z_3, one parallel class per direction."""
    point = {(x, y): 3 * x + y for x in range(3) for y in range(3)}
    classes = []
    for dx, dy in ((0, 1), (1, 0), (1, 1), (1, 2)):
        starts = [(0, y) for y in range(3)] if dx else [(x, 0) for x in range(3)]
        classes.append([tuple(point[((x + k * dx) % 3, (y + k * dy) % 3)] for k in range(3)) for x, y in starts])
    return classes


def _kts_2q_plus_1(q: int) -> list[list[tuple]]:
    """KTS(2q+1) for a prime q = 6t+1 (Ray-Chaudhuri and Wilson): the points are
    Z_q x {1, 2} and one more; a first parallel class, translated by every element
    of Z_q, gives the q classes."""
    t, a = (q - 1) // 6, _primitive_root(q)
    half = pow(2, -1, q)
    m = next(e for e in range(q - 1) if pow(a, e, q) == (pow(a, t, q) + 1) * half % q)
    power = lambda e: pow(a, e, q)  # noqa: E731
    first = [((0, 1), (0, 2), "inf")]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        first.append(((power(i), 1), (power(t + i), 1), (power(m + i), 2)))
    for i in range(t):
        first.append(((power(m + t + i), 2), (power(m + 3 * t + i), 2), (power(m + 5 * t + i), 2)))

    def moved(point, by):
        return point if point == "inf" else ((point[0] + by) % q, point[1])

    return [[tuple(moved(p, by) for p in triple) for triple in first] for by in range(q)]


def _kts_3q(q: int) -> list[list[tuple]]:
    """KTS(3q) for a prime q = 6t+1 (Ray-Chaudhuri and Wilson): the points are
    Z_q x {0, 1, 2}; a base class translated by Z_q gives q classes, and 3t of the
    mixed triples, each with all its translates, give the other 3t."""
    t, a = (q - 1) // 6, _primitive_root(q)
    power = lambda e: pow(a, e % (q - 1), q)  # noqa: E731
    within = [((power(i), j), (power(i + 2 * t), j), (power(i + 4 * t), j)) for j in range(3) for i in range(t)]
    across = [((power(i), 0), (power(i + 2 * t), 1), (power(i + 4 * t), 2)) for i in range(6 * t)]
    base = [((0, 0), (0, 1), (0, 2)), *within, *across[t : 2 * t], *across[3 * t : 4 * t], *across[5 * t : 6 * t]]

    def moved(triple, by):
        return tuple(((x + by) % q, j) for x, j in triple)

    classes = [[moved(triple, by) for triple in base] for by in range(q)]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        classes.append([moved(across[i], by) for by in range(q)])
    return classes


def kirkman_classes(n: int) -> list[list[tuple[int, int, int]]] | None:
    """The (n-1)/2 parallel classes of a Kirkman triple system on 0..n-1 (each class
    seats every point once; every pair of points shares exactly one triple), for the
    orders this module can build: 3, 9 and 2q+1 or 3q for a prime q = 1 mod 6
    (15, 21, 27, 39, 45, 51, 57 among them). None for other orders."""
    if n == 3:
        return [[(0, 1, 2)]]
    if n == 9:
        return _kts_affine_plane()
    q = (n - 1) // 2
    if n % 2 and _is_prime(q) and q % 6 == 1:
        classes = _kts_2q_plus_1(q)
    elif n % 3 == 0 and _is_prime(n // 3) and (n // 3) % 6 == 1:
        classes = _kts_3q(n // 3)
    else:
        return None
    points = sorted({p for triple in classes[0] for p in triple}, key=repr)
    number = {p: i for i, p in enumerate(points)}
    return [[tuple(number[p] for p in triple) for triple in c] for c in classes]


# ------------------------------------------------------------------ drawing rounds


def _seat(table: Sequence[str], rng: random.Random) -> Table:
    seats = list(table)
    rng.shuffle(seats)
    return Table(tuple(seats))


def _cost(met: Counter, table: Sequence[str]) -> int:
    """What seating these three together adds to the repeats (a pair met twice
    already costs more than one met once, so repeats spread over many pairs)."""
    return sum(met[pair(a, b)] * (met[pair(a, b)] + 1) // 2 for a, b in itertools.combinations(table, 2))


def _improve(tables: list[list[str]], met: Counter, rng: random.Random, passes: int = 40) -> None:
    """Swap players between tables while a swap lowers the cost (``met`` holds the
    meetings of every other round); random order, a few passes."""
    for _ in range(passes):
        better = False
        order = [(i, j) for i in range(len(tables)) for j in range(i + 1, len(tables))]
        rng.shuffle(order)
        for i, j in order:
            now = _cost(met, tables[i]) + _cost(met, tables[j])
            if not now:
                continue
            for x, y in itertools.product(range(3), range(3)):
                a, b = tables[i][x], tables[j][y]
                tables[i][x], tables[j][y] = b, a
                if _cost(met, tables[i]) + _cost(met, tables[j]) < now:
                    better = True
                    break
                tables[i][x], tables[j][y] = a, b
        if not better:
            return


@dataclass
class _Draft:
    """A round being drawn: its tables (lists of three, in no seat order yet) and byes."""

    tables: list[list[str]]
    byes: list[str]


def _byes_for(players: list[str], count: int, sat_out: Counter, rng: random.Random) -> list[str]:
    """Who sits out: those who have sat out least, drawn among equals."""
    order = sorted(players, key=lambda p: (sat_out[p], rng.random()))
    return order[:count]


def _draw_round(players: list[str], met: Counter, sat_out: Counter, rng: random.Random) -> _Draft:
    byes = _byes_for(players, len(players) % 3, sat_out, rng)
    playing = [p for p in players if p not in byes]
    best_cost, best = None, []
    for _ in range(6):  # a few starts: the swaps find a local best
        rng.shuffle(playing)
        tables = [playing[k : k + 3] for k in range(0, len(playing), 3)]
        _improve(tables, met, rng)
        cost = sum(_cost(met, t) for t in tables)
        if best_cost is None or cost < best_cost:
            best_cost, best = cost, [list(t) for t in tables]
        if cost == 0:
            break
    return _Draft(best, byes)


def _improve_schedule(drafts: list[_Draft], kept: Counter, rng: random.Random) -> None:
    """Swaps within each drawn round against the meetings of all the others."""
    for _ in range(3):
        for draft in drafts:
            others = tables_met(t for other in drafts if other is not draft for t in other.tables)
            _improve(draft.tables, kept + others, rng)


def _kirkman_drafts(names: list[str], rounds: int, rng: random.Random) -> list[_Draft] | None:
    """``rounds`` parallel classes of a Kirkman triple system on the players (in a
    drawn order), where one exists for their number and has that many classes."""
    classes = kirkman_classes(len(names))
    if not classes or rounds > len(classes):
        return None
    order = list(names)
    rng.shuffle(order)
    return [_Draft([[order[p] for p in triple] for triple in c], []) for c in rng.sample(classes, rounds)]


def _attempts(players: int, rounds: int) -> int:
    """How many whole draws to try, keeping the best: more for small nights, where a
    lucky start matters most and a draw takes a millisecond."""
    return max(1, min(12, 1500 // (players * rounds)))


def _repeats(met: Counter) -> int:
    return sum(count - 1 for count in met.values() if count > 1)


def _greedy_drafts(
    names: list[str], rounds: int, played: Sequence[Round], kept: Counter, rng: random.Random
) -> list[_Draft]:
    """Rounds drawn one by one against the meetings so far, then improved together."""
    sat_out = Counter(name for r in played for name in r.byes)
    drafts: list[_Draft] = []
    for _ in range(rounds):
        met = kept + tables_met(t for d in drafts for t in d.tables)
        draft = _draw_round(names, met, sat_out, rng)
        sat_out.update(draft.byes)
        drafts.append(draft)
    _improve_schedule(drafts, kept, rng)
    return drafts


def draw(players: Sequence[str], rounds: int, seed: int | None = None, played: Sequence[Round] = ()) -> Schedule:
    """Draw ``rounds`` more rounds for ``players`` after the rounds already ``played``
    (kept as they were: who has met and who has sat out counts for what is drawn).
    ``seed`` makes the draw repeatable."""
    names = check_players(players)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SeatingError(f"rounds: between 1 and {MAX_ROUNDS}, not {rounds}")
    rng = random.Random(seed)
    kept = meetings(played)
    drafts = None if played else _kirkman_drafts(names, rounds, rng)
    if drafts is None:
        best = None
        for _ in range(_attempts(len(names), rounds)):
            drafts = _greedy_drafts(names, rounds, played, kept, rng)
            repeats = _repeats(kept + tables_met(t for d in drafts for t in d.tables))
            if best is None or repeats < best[0]:
                best = (repeats, drafts)
            if repeats <= lower_bound(len(names), rounds + len(played)):
                break
        drafts = best[1]
    return Schedule(tuple(played) + tuple(Round(tuple(_seat(t, rng) for t in d.tables), tuple(d.byes)) for d in drafts))


def schedule_lines(schedule: Schedule) -> list[str]:
    """The schedule as a club writes it on paper: each round, each table in seat order
    (the first named deals first), who sits out, and how many meetings repeat."""
    lines = []
    for number, r in enumerate(schedule.rounds, 1):
        lines.append(f"Round {number}")
        for table_number, table in enumerate(r.tables, 1):
            first, *others = table.seats
            lines.append(f"  Table {table_number}: {first} (deals first), {', '.join(others)}")
        if r.byes:
            lines.append(f"  Sitting out: {', '.join(r.byes)}")
    repeats = schedule.repeats
    lines.append(
        "Nobody meets anybody twice."
        if not repeats
        else f"Pairs meeting again: {repeats} meeting{'s' if repeats != 1 else ''} beyond the first."
    )
    return lines


def seat_by_standings(ranked: Sequence[str], sat_out: Counter | None = None) -> Round:
    """A round with the leaders together: the players in standings order, three to a
    table from the top; those left over (one or two) sit out, chosen among the
    lowest-placed who have sat out least. The leader of each table deals first."""
    names = list(ranked)
    sat_out = sat_out or Counter()
    spare = len(names) % 3
    byes: list[str] = []
    if spare:
        candidates = sorted(reversed(names), key=lambda p: sat_out[p])  # stable: lowest placed first
        byes = candidates[:spare]
    playing = [p for p in names if p not in byes]
    return Round(tuple(Table(tuple(playing[k : k + 3])) for k in range(0, len(playing), 3)), tuple(byes))


def lower_bound(players: int, rounds: int) -> int:
    """No schedule of ``rounds`` rounds for ``players`` players has fewer repeats:
    each round makes 3 meetings a table, and there are only so many pairs; each
    player who plays r rounds meets 2r times, among players - 1 others."""
    tables = players // 3
    by_pairs = 3 * tables * rounds - players * (players - 1) // 2
    byes = (players % 3) * rounds
    # the fewest rounds anyone plays is when the byes are spread evenly
    plays = [rounds - byes // players - (1 if k < byes % players else 0) for k in range(players)]
    by_player = sum(max(0, 2 * r - (players - 1)) for r in plays)
    return max(0, by_pairs, -(-by_player // 2))
