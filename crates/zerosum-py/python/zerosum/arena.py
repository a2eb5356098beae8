"""Matches and tournaments from Python: the arena's referee, clocks, forfeits, records,
standings, Elo and SPRT, with Python players beside the built-in ones and external engines.

A player is a spec (`"engine:time=0.05"`, `"quasi"`, `"random"`, `"cmd=./mybot,proto=gtp"`,
as `zerosum match` reads them), a function of the position (a `zerosum.Game`) that returns a
move (text or action id), or an object with such a `choose` method (`zerosum.RandomPlayer`).
A Python player is named by its `name` attribute, else its `__name__`.
"""

import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

from zerosum._zerosum import _run_tournament


@dataclass(frozen=True)
class Results:
    """What a match or a tournament played."""

    standings: List[Dict[str, Any]]
    """One dict per player in ranking order: `rank`, `name`, `points`, `games`, `as_first` and
    `as_second` (`wins`, `draws`, `losses`), `forfeits` by cause, `score_percent`, and `elo`
    (`elo`, `error`: the difference against the field with its 95% error bar; None before a
    colour-swapped pair is complete)."""
    crosstable: Dict[str, Any]
    """`names` in ranking order, `cells[row][column]` (`points`, `games`) and `totals`."""
    games: List[Dict[str, Any]]
    """Every game as its record holds it: `spec`, `first_name`, `second_name`, `moves`,
    `move_ms`, `outcome` (`first`, `second` or `draw`), `termination`, `reason`, `seed`..."""
    sprt: Optional[Dict[str, Any]]
    """Under an SPRT: `llr`, `lower_bound`, `upper_bound`, `decision`, `pairs`."""
    verdict: Optional[str]
    """Under an SPRT, the verdict line `zerosum match` prints."""
    table: str
    """The standings as `zerosum tournament` prints them."""
    record: Optional[str]
    """The record file, when one was asked for."""

    def __str__(self):
        return self.table if self.verdict is None else f"{self.table}\n{self.verdict}"


def _results(text):
    data = json.loads(text)
    return Results(
        standings=data["standings"]["players"],
        crosstable=data["standings"]["crosstable"],
        games=data["games"],
        sprt=data["sprt"],
        verdict=data["verdict"],
        table=data["table"],
        record=data["record"],
    )


def match(
    spec: str,
    players: Sequence[Any],
    *,
    games: int = 2,
    time: Optional[float] = None,
    tc: Optional[str] = None,
    seed: int = 0,
    max_moves: Optional[int] = None,
    sprt: Optional[str] = None,
    scoring: str = "cx",
    record: Optional[str] = None,
    concurrency: int = 1,
    openings: Optional[str] = None,
    order: str = "random",
    plies: Optional[int] = None,
) -> Results:
    """A match of two players on `spec`: `games` games, colours alternating, `time` seconds a
    move and/or the game clock `tc` (`"60+0.6"`, `"1:00+1"`, `"40/60"`, as `--tc` reads it;
    0.1 s a move when neither is given); under `sprt` (`"elo0=0,elo1=5,alpha=0.05,beta=0.05"`)
    it stops once the test decides. `openings` names an opening suite (each pair of games
    starts from one opening, colours swapped), taken in `order` (`random` or `sequential`) and
    cut to `plies` moves. `record` names a record file to write (JSON lines, `zerosum report`
    reads it)."""
    return _results(
        _run_tournament(
            list(players), [spec], "match", games, time, tc, seed, max_moves, sprt, scoring,
            record, concurrency, openings, order, plies,
        )
    )


def tournament(
    specs: Sequence[str],
    players: Sequence[Any],
    *,
    rounds: int = 1,
    gauntlet: bool = False,
    time: Optional[float] = None,
    tc: Optional[str] = None,
    seed: int = 0,
    max_moves: Optional[int] = None,
    scoring: str = "cx",
    record: Optional[str] = None,
    concurrency: int = 1,
    openings: Optional[str] = None,
    order: str = "random",
    plies: Optional[int] = None,
) -> Results:
    """A round robin of `players` over the game specs `specs` (every pair, both colours,
    `rounds` times), or a gauntlet (the first player against each other one); the other
    options as `match` takes them (`openings` only for one game spec)."""
    if isinstance(specs, str):
        specs = [specs]
    return _results(
        _run_tournament(
            list(players), list(specs), "gauntlet" if gauntlet else "round-robin", rounds,
            time, tc, seed, max_moves, None, scoring, record, concurrency, openings, order,
            plies,
        )
    )
