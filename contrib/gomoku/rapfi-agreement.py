#!/usr/bin/env python3
"""A proxy for gomoku strength: how often an engine picks Rapfi's move.

A cheap screen for search ideas, not a measurement of strength (a match is): a fixed set of
middle-game positions, Rapfi's move for each at 2 s a move (cached beside this script), and
for a candidate engine at a fixed depth or time how often its move is Rapfi's, and how often
it is a move Rapfi's own 2 s search scores within a margin of its best (the position after
the move searched by Rapfi for 2 s, its value negated; cached too). Positions Rapfi finds
lost for the side to move are left out (every move is as bad); in those it finds won (a mate
value), the move must keep a win Rapfi proves.

Both engines are Gomocup (pbrain) engines, one process per question, one thread:

    positions  --record FILE --count N --seed S   draw the positions from a match record
    reference  --rapfi PATH                       Rapfi's move and value for each position
    score      --rapfi PATH --engine CMD          the candidate's agreement with Rapfi, on the
                                                  first 150 positions Rapfi does not find lost
                                                  for the side to move

Files (beside this script): positions.txt (one move list a line, zerosum's cell names),
rapfi-2s.txt (position, Rapfi's move, its value), rapfi-2s-moves.txt (position, a move,
Rapfi's value of the move). Values are Rapfi's evaluation for the side to move; a mate in n
is 20000 - n (+M*: 19000). See docs/strength.md for the commands that made them.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POSITIONS = os.path.join(HERE, "positions.txt")
REFERENCE = os.path.join(HERE, "rapfi-2s.txt")
MOVE_VALUES = os.path.join(HERE, "rapfi-2s-moves.txt")
SIZE = 15
RAPFI_MS = 2000


def cell_xy(move):
    """The Gomocup X,Y of a zerosum cell name such as `h8` (column letter, row from 1)."""
    m = re.fullmatch(r"([a-z])(\d+)", move)
    if not m:
        sys.exit(f"`{move}` is not a cell")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def xy_cell(x, y):
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_value(text):
    """Rapfi's printed value: an integer, or +M<n> / -M<n> / +M* / -M* for mates."""
    m = re.fullmatch(r"([+-])M(\d+|\*)", text)
    if m:
        mate = 19000 if m.group(2) == "*" else 20000 - int(m.group(2))
        return mate if m.group(1) == "+" else -mate
    return int(text)


def ask(cmd, moves, init=(), timeout_ms=None, wall=120):
    """Sends the position `moves` (zerosum cell names) to a Gomocup engine started by `cmd`;
    returns its move (a cell name) and the value of its last `Eval` message (or None)."""
    lines = [f"START {SIZE}"] + list(init)
    if timeout_ms is not None:
        lines += [
            f"INFO timeout_turn {timeout_ms}",
            "INFO timeout_match 100000000",
            "INFO time_left 100000000",
        ]
    lines.append("BOARD")
    # Gomocup's BOARD: 1 for the side to move's stones, 2 for the other's.
    to_move = len(moves) % 2
    for i, mv in enumerate(moves):
        x, y = cell_xy(mv)
        lines.append(f"{x},{y},{1 if i % 2 == to_move else 2}")
    lines.append("DONE")
    proc = subprocess.Popen(
        cmd,
        shell=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    value, answer = None, None
    try:
        for line in proc.stdout:
            line = line.strip()
            m = re.search(r"Eval (\S+)", line)
            if m:
                value = parse_value(m.group(1))
            if re.fullmatch(r"\d+,\d+", line):
                x, y = map(int, line.split(","))
                answer = xy_cell(x, y)
                break
    finally:
        try:
            proc.stdin.write("END\n")
            proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            proc.wait(timeout=wall)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if answer is None:
        sys.exit(f"no move from `{cmd}` on {','.join(moves)}")
    return answer, value


def rapfi_cmd(path):
    return path


RAPFI_INIT = ["INFO thread_num 1"]


def read_table(path, key_width):
    """The rows of a cache file, by their first `key_width` fields (the last row wins)."""
    table = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.split()
                table[tuple(fields[:key_width])] = fields[key_width:]
    return table


def read_positions():
    with open(POSITIONS) as f:
        return [line.split()[0] for line in f if line.strip() and not line.startswith("#")]


def positions(args):
    games = {}
    with open(args.record) as f:
        for line in f:
            entry = json.loads(line)
            if "moves" in entry and entry.get("spec", "").startswith("mnk:15x15x5"):
                games.setdefault(",".join(entry["moves"]), entry["moves"])
    rng = random.Random(args.seed)
    candidates = []
    for moves in games.values():
        # Middle game: after the opening and a few moves, at least `before_end` plies before
        # the end, at most `last` plies, and at most `per_game` positions of one game.
        plies = list(range(args.first, min(len(moves) - args.before_end, args.last) + 1))
        rng.shuffle(plies)
        candidates += [",".join(moves[:ply]) for ply in plies[: args.per_game]]
    rng.shuffle(candidates)
    candidates = list(dict.fromkeys(candidates))[: args.count]
    with open(POSITIONS, "w") as out:
        out.write(
            f"# {len(candidates)} positions from {len(games)} distinct games of {args.record}, "
            f"plies {args.first} to min(end-{args.before_end}, {args.last}), at most {args.per_game} a game, "
            f"drawn with seed {args.seed}\n"
        )
        for c in candidates:
            out.write(c + "\n")
    print(f"{len(candidates)} positions from {len(games)} games")


def reference(args):
    done = read_table(REFERENCE, 1)
    new = not os.path.exists(REFERENCE)
    with open(REFERENCE, "a") as out:
        if new:
            out.write(f"# position rapfi-move rapfi-value: {os.path.basename(args.rapfi)}, {RAPFI_MS} ms, one thread\n")
        for pos in read_positions():
            if (pos,) in done:
                continue
            move, value = ask(rapfi_cmd(args.rapfi), pos.split(","), RAPFI_INIT, RAPFI_MS)
            out.write(f"{pos} {move} {value}\n")
            out.flush()
            print(pos, move, value, flush=True)


def score(args):
    reference = read_table(REFERENCE, 1)
    values = read_table(MOVE_VALUES, 2)
    new = not os.path.exists(MOVE_VALUES)
    out = open(MOVE_VALUES, "a")
    if new:
        out.write(
            f"# position move rapfi-value-of-move: {os.path.basename(args.rapfi)}, {RAPFI_MS} ms after the move, negated\n"
        )
    margins = [int(m) for m in args.margins.split(",")]
    # Per kind of position (open: no mate value; won: Rapfi proves the mover wins).
    stats = {kind: {"total": 0, "same": 0, "within": {m: 0 for m in margins}} for kind in ("open", "won")}
    for pos in read_positions():
        if (pos,) not in reference:
            sys.exit(f"no Rapfi reference for {pos}: run `reference` first")
        best, best_value = reference[(pos,)]
        best_value = int(best_value)
        if best_value <= -19000:
            # Lost for the mover by Rapfi's search: every move is as bad.
            continue
        if sum(k["total"] for k in stats.values()) == args.count:
            break
        kind = "won" if best_value >= 19000 else "open"
        moves = pos.split(",")
        move, _ = ask(args.engine, moves, (), args.time_ms)
        stat = stats[kind]
        stat["total"] += 1
        if move == best:
            stat["same"] += 1
            value = best_value
        else:
            key = (pos, move)
            if key not in values:
                _, after = ask(rapfi_cmd(args.rapfi), moves + [move], RAPFI_INIT, RAPFI_MS)
                values[key] = [str(-after if after is not None else -20000)]
                out.write(f"{pos} {move} {values[key][0]}\n")
                out.flush()
            value = int(values[key][0])
        for m in margins:
            # A won position: the move must keep a win Rapfi proves (its length aside).
            stat["within"][m] += value >= 19000 if kind == "won" else best_value - value <= m
        if args.verbose:
            print(kind, pos, move, best, best_value, value, flush=True)
    out.close()
    o, w = stats["open"], stats["won"]
    total = o["total"] + w["total"]
    same = o["same"] + w["same"]
    pct = lambda a, b: f"{a}/{b} ({100 * a / max(b, 1):.1f}%)"
    print(
        f"{args.engine}: {total} positions, Rapfi's move {pct(same, total)}; "
        f"{o['total']} open: Rapfi's move {pct(o['same'], o['total'])}, "
        + ", ".join(f"within {m}: {pct(o['within'][m], o['total'])}" for m in margins)
        + f"; {w['total']} won: Rapfi's move {pct(w['same'], w['total'])}, "
        f"win kept {pct(w['within'][margins[0]], w['total'])}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--record", required=True)
    p.add_argument("--count", type=int, default=240)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--first", type=int, default=5)
    p.add_argument("--before-end", type=int, default=8)
    p.add_argument("--last", type=int, default=40)
    p.add_argument("--per-game", type=int, default=4)
    r = sub.add_parser("reference")
    r.add_argument("--rapfi", required=True)
    s = sub.add_parser("score")
    s.add_argument("--rapfi", required=True)
    s.add_argument("--engine", required=True, help="a Gomocup engine command line")
    s.add_argument(
        "--time-ms",
        type=int,
        default=None,
        help="the engine's time a move (INFO timeout_turn); none for a depth-limited engine",
    )
    s.add_argument("--margins", default="25,50,100")
    s.add_argument(
        "--count", type=int, default=150, help="the first N positions Rapfi does not find lost"
    )
    s.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    {"positions": positions, "reference": reference, "score": score}[args.command](args)


if __name__ == "__main__":
    main()
