"""Python players in the arena: they play through the referee with its clocks and records; one
that raises, hangs or answers an illegal move forfeits with the reason and the run goes on."""

import json
import time

import pytest

import zerosum


def first_legal(game):
    return game.legal_moves()[0]


def test_a_python_player_plays_a_match_against_the_engine():
    results = zerosum.match("tictactoe", [first_legal, "engine:depth=9"], games=4, time=1.0)
    assert len(results.games) == 4
    names = {line["name"] for line in results.standings}
    assert names == {"first_legal", "engine:depth=9"}
    engine = next(s for s in results.standings if s["name"] == "engine:depth=9")
    assert engine["rank"] == 1 and engine["as_first"]["losses"] == 0
    for game in results.games:
        assert game["termination"] != "forfeit" or "first_legal" not in game["reason"]
    assert "Rank" in results.table and "first_legal" in str(results)


def test_players_as_objects_actions_and_a_round_robin():
    class Column:
        name = "column"

        def choose(self, game):
            return game.legal_actions()[-1]  # an action id

    results = zerosum.tournament(
        ["connectx:5x4x4"], [Column(), zerosum.RandomPlayer(3), "quasi"], rounds=1, time=1.0
    )
    assert len(results.games) == 6
    assert sorted(s["name"] for s in results.standings) == ["RandomPlayer", "column", "quasi"]
    assert all(g["termination"] != "forfeit" for g in results.games), results.games


def forfeits_of(results, name):
    return [g for g in results.games if g["termination"] == "forfeit" and name in g["reason"]]


def test_a_player_that_raises_forfeits_with_the_reason_and_the_run_goes_on():
    def broken(game):
        raise RuntimeError("no idea")

    results = zerosum.match("tictactoe", [broken, "random"], games=2, time=1.0)
    assert len(results.games) == 2
    for game in results.games:
        assert "broken" in game["reason"] and "RuntimeError: no idea" in game["reason"]
    assert next(s for s in results.standings if s["name"] == "broken")["points"] == 0


def test_a_player_that_answers_an_illegal_move_forfeits():
    def cheat(game):
        return game.history[0] if game.history else "b2"

    def nonsense(game):
        return 3.5

    results = zerosum.match("tictactoe", [cheat, "random"], games=2, time=1.0)
    losses = [g for g in results.games if "cheat" in g["reason"]]
    assert losses and all("illegal" in g["reason"] for g in losses), results.games
    results = zerosum.match("tictactoe", [nonsense, "random"], games=2, time=1.0)
    assert all("returned 3.5, not a move" in g["reason"] for g in results.games), results.games
    results = zerosum.match("tictactoe", [lambda g: 99, "random"], games=2, time=1.0)
    assert all("action 99" in g["reason"] for g in results.games), results.games


def test_a_player_that_hangs_forfeits_on_time_and_the_run_goes_on():
    def sleeper(game):
        time.sleep(3)
        return game.legal_moves()[0]

    started = time.monotonic()
    results = zerosum.match("tictactoe", [sleeper, "random"], games=2, time=0.2)
    assert time.monotonic() - started < 60
    assert len(results.games) == 2
    for game in results.games:
        assert "sleeper" in game["reason"] and "did not answer" in game["reason"], game["reason"]


def test_a_match_writes_its_record_and_stops_by_sprt(tmp_path):
    record = tmp_path / "match.jsonl"
    results = zerosum.match(
        "tictactoe",
        ["engine:depth=9", "random"],
        games=200,
        time=1.0,
        sprt="elo0=0,elo1=200,alpha=0.05,beta=0.05",
        record=str(record),
    )
    assert results.sprt is not None and results.verdict.startswith("SPRT verdict")
    assert len(results.games) < 200
    lines = record.read_text().splitlines()
    assert len([json.loads(line) for line in lines if '"moves"' in line]) == len(results.games)
    assert results.record == str(record)


def test_bad_settings_raise():
    with pytest.raises(zerosum.ZerosumError, match="unknown player"):
        zerosum.match("tictactoe", ["nobody", "random"])
    with pytest.raises(zerosum.ZerosumError, match="unknown game"):
        zerosum.match("nogame", ["random", "random"])
    with pytest.raises(ValueError, match="a player is a spec"):
        zerosum.match("tictactoe", [42, "random"])
    with pytest.raises(ValueError, match="time must be a positive number"):
        zerosum.match("tictactoe", ["random", "random"], time=0)
    with pytest.raises(ValueError, match="tc: bad time control: `soon`"):
        zerosum.match("tictactoe", ["random", "random"], tc="soon")
    with pytest.raises(ValueError, match="unknown opening order"):
        zerosum.match("tictactoe", ["random", "random"], openings=__file__, order="best")


def test_a_game_clock_runs_out_for_a_slow_python_player():
    def slow(game):
        time.sleep(0.3)
        return game.legal_moves()[0]

    results = zerosum.match("tictactoe", [slow, "random"], games=2, tc="0.5+0")
    for game in results.games:
        # The second move finds 0.2 s left on the clock.
        assert game["termination"] == "timeout", game
        assert "(slow) timed out" in game["reason"] and "limit 0.20 s" in game["reason"], game
        slow_moves = game["moves"][0 if game["first_name"] == "slow" else 1 :: 2]
        assert len(slow_moves) == 1, game
    # The same player under 1 s a move plays every game to its end.
    results = zerosum.match("tictactoe", [slow, "random"], games=2, time=1.0)
    assert all(game["termination"] != "forfeit" for game in results.games)


def test_a_match_from_an_opening_suite(tmp_path):
    suite = tmp_path / "suite.txt"
    suite.write_text("# two openings\na1 b2\nc3 b2\n")
    results = zerosum.match(
        "tictactoe", ["engine:depth=9", "random"], games=4, openings=str(suite), order="sequential"
    )
    starts = [game["moves"][:2] for game in results.games]
    assert starts == [["a1", "b2"], ["a1", "b2"], ["c3", "b2"], ["c3", "b2"]]
    with pytest.raises(zerosum.ZerosumError, match="suite.txt"):
        suite.write_text("a1 a1\n")
        zerosum.match("tictactoe", ["random", "random"], openings=str(suite))
