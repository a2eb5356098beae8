#!/usr/bin/env bash
# The MCTS-against-PVS rows of docs/strength.md (issue 15): on each board, engine:algo=mcts
# against engine:algo=pvs, 200 games over the board's balanced suite, two at a time, one after
# another. Hours of machine time in all; run it again after an interruption: a board whose
# record exists is resumed (a finished one returns at once).
#
#   contrib/strength/mcts-vs-pvs.sh [BINARY] [RECORD_DIR]
#
# BINARY defaults to target/release/zerosum, RECORD_DIR to zerosum-runs/mcts-vs-pvs; each board
# writes NAME.jsonl (the record), NAME.ranking.txt and NAME.log there.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-target/release/zerosum}")
dir=${2:-zerosum-runs/mcts-vs-pvs}
mkdir -p "$dir"
sprt=(--sprt elo0=0,elo1=20,alpha=0.05,beta=0.05)

# name, spec, suite, seed, seconds a move, extra options
run() {
  local name=$1 spec=$2 suite=$3 seed=$4 st=$5
  shift 5
  local record=$dir/$name.jsonl
  if [[ -f $record ]]; then
    "$bin" match --resume "$record" --concurrency 2 >>"$dir/$name.log" 2>&1
  else
    "$bin" match "$spec" engine:algo=mcts,name=mcts engine:algo=pvs,name=pvs --games 200 \
      --st "$st" --openings "$suite" --concurrency 2 --seed "$seed" --record "$record" "$@" \
      >>"$dir/$name.log" 2>&1
  fi
  grep "mcts vs pvs:" "$dir/$name.log" | tail -n 1 || true
}

run hex11-1s hex:11 openings/hex11.txt 41 1
run atoll-1s atoll:standard openings/atoll-standard.txt 42 1
run unstable-1s unstable openings/unstable.txt 43 1
run gomoku-0.2s gomoku openings/gomoku-selfplay.txt 47 0.2 "${sprt[@]}"
run connect4-0.2s connect4 openings/connect4.txt 48 0.2 "${sprt[@]}"
run hex13-1s hex:13 openings/hex13.txt 44 1
# The huge boards: games of 900 to 1,750 plies, 8 to 35 hours each on a 2-core machine.
run mnk70-1s mnk:70x70x10 openings/mnk-70x70x10.txt 45 1
run cx50-1s connectx:50x50x15 openings/connectx-50x50x15.txt 46 1
