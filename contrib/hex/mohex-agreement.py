#!/usr/bin/env python3
"""How often our engine's move on middle-game positions of Hex games is MoHex 2.0's move: a
cheap proxy of strength that needs no long match (a proxy only: a move MoHex would not play
may be as good). Usage:

    contrib/hex/mohex-agreement.py RECORD MOHEX ZEROSUM PLIES LIMIT EVALS NODES [ANSWERS]

RECORD: a `zerosum match` record (JSON lines) of hex:11 games; MOHEX: the mohex binary
(docs/champions.md builds it); ZEROSUM: our binary; PLIES: the plies of each game whose
position is taken (e.g. 12,22,32; a game must last six plies more, and have no swap); LIMIT:
at most this many positions; EVALS: our evaluations (`--eval`, e.g. potential,patterns);
NODES: our playouts a move (`--nodes`; 1 gives the top prior). MoHex answers `genmove` on
each position with 1.6 s and one thread (the settings of docs/strength.md), in a scratch
folder (its log), both under `nice -n 19`. Prints, per evaluation: how often our best move is MoHex's, and how often the
sign of our score (the mover's) is the game's winner. ANSWERS (optional): a file of MoHex's
moves, one a line in the order of the positions: read if it exists (and MoHex not run), else
written, so that several runs of ours (other builds, settings in the environment) are compared
with one run of MoHex's.
"""
import json
import os
import subprocess
import sys
import tempfile

INIT = ['param_mohex max_time 1.6', 'param_mohex perform_pre_search 0',
        'param_mohex extend_unstable_search 0', 'param_mohex num_threads 1',
        'param_mohex use_parallel_solver 0']


def positions(record, plies, limit):
    """(moves, whether the mover won) of the games of `record`, at `plies`."""
    found = []
    for line in open(record):
        game = json.loads(line)
        if 'moves' not in game or game.get('termination') != 'normal':
            continue
        moves = game['moves']
        for ply in plies:
            if ply + 6 <= len(moves) and 'swap' not in moves[:ply]:
                mover_first = ply % 2 == 0
                found.append((moves[:ply], (game['outcome'] == 'first') == mover_first))
    return found[:limit]


def mohex_moves(mohex, found):
    """MoHex's move on each position."""
    # MoHex writes its log, default.log, where it runs.
    scratch = tempfile.TemporaryDirectory(prefix='mohex-agreement-')
    process = subprocess.Popen(['nice', '-n', '19', mohex], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               cwd=scratch.name)

    def command(text):
        process.stdin.write(text + '\n')
        process.stdin.flush()
        reply = []
        while True:
            line = process.stdout.readline()
            if not line:
                sys.exit(f'mohex exited on `{text}`')
            if line.strip():
                reply.append(line.strip())
            elif reply:
                break
        reply = ' '.join(reply)
        if not reply.startswith('='):
            sys.exit(f'mohex refused `{text}`: {reply}')
        return reply[1:].strip().lower()

    command('boardsize 11 11')
    for text in INIT:
        command(text)
    answers = []
    for moves, _ in found:
        command('clear_board')
        for i, move in enumerate(moves):
            command(f"play {'bw'[i % 2]} {move}")
        answers.append(command(f"genmove {'bw'[len(moves) % 2]}"))
    process.stdin.close()
    process.wait()
    scratch.cleanup()
    return answers


def ours(zerosum, evaluation, nodes, moves):
    """Our best move and score's sign (1, -1, or 0) on `moves`."""
    out = subprocess.run(['nice', '-n', '19', zerosum, 'search', 'hex:11', '--algo', 'mcts',
                          '--eval', evaluation, '--moves', ','.join(moves), '--nodes', nodes],
                         capture_output=True, text=True, check=True).stdout
    words = [line for line in out.splitlines() if line.startswith('bestmove')][-1].split()
    score = words[3]
    sign = 0 if score.lstrip('+-') in ('0', '') else (-1 if score.startswith('-') else 1)
    return words[1], sign


def main():
    if len(sys.argv) not in (8, 9):
        sys.exit(__doc__.split('\n\n')[1])
    record, mohex, zerosum, plies, limit, evaluations, nodes = sys.argv[1:8]
    saved = sys.argv[8] if len(sys.argv) == 9 else None
    found = positions(record, [int(p) for p in plies.split(',')], int(limit))
    if saved and os.path.exists(saved):
        answers = open(saved).read().split()
        if len(answers) != len(found):
            sys.exit(f'{saved} has {len(answers)} answers for {len(found)} positions')
    else:
        answers = mohex_moves(mohex, found)
        if saved:
            with open(saved, 'w') as out:
                out.write('\n'.join(answers) + '\n')
    for evaluation in evaluations.split(','):
        agree = right = signed = 0
        for (moves, mover_won), answer in zip(found, answers):
            best, sign = ours(zerosum, evaluation, nodes, moves)
            agree += best == answer
            if sign:
                signed += 1
                right += (sign > 0) == mover_won
        print(f'{evaluation} nodes={nodes}: MoHex\'s move {agree}/{len(found)} '
              f'({100 * agree / max(len(found), 1):.1f}%), score\'s sign the winner '
              f'{right}/{signed} ({100 * right / max(signed, 1):.1f}%)', flush=True)


if __name__ == '__main__':
    main()
