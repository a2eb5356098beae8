#!/usr/bin/env bash
# The matches against the champions of docs/strength.md, as issues 32 and 33 define them: the
# default engine against MoHex 2.0 on hex:11 and hex:9 and against Rapfi (classical evaluation)
# on gomoku freestyle, standard (exactly five) and renju; 2 s a move, one thread each, no
# first-move grace, 100 games: 50 openings drawn at random with a stated seed (Hex: two plies
# uniformly at random on the whole board; gomoku: 3 or 4 stones within the central 7x7
# square), each played with both colours. Build Rapfi and MoHex as docs/champions.md says.
# Run it again after an interruption: a match whose record exists is resumed (a finished one
# returns at once).
#
#   contrib/strength/champions.sh RAPFI MOHEX [BINARY] [RECORD_DIR] [MATCH...]
#
# RAPFI and MOHEX are the two programs (pbrain-rapfi, mohex), BINARY defaults to
# target/release/zerosum, RECORD_DIR to zerosum-runs/champions; MATCH names the matches to play
# (mohex-hex11 mohex-hex9 rapfi-gomoku rapfi-standard rapfi-renju; default all). Each match
# writes NAME.openings.txt, NAME.jsonl, NAME.ranking.txt and NAME.log there. GAMES (default 100)
# and CONCURRENCY (default 2: each game has one engine thinking at a time) may be set in the
# environment.
#
# MoHex is told its time by `param_mohex max_time` (it refuses `time_settings`); it spends
# some of each move outside that time (up to 2 s more on a busy machine), hence its margin.
# Hex games are adjudicated as soon as our exact solver proves the result within 200,000 nodes:
# MoHex fails in some positions its fill-in decides, by a crash where it has lost ("Opponent
# has won") and sometimes by an invalid answer where it has won; adjudication scores most such
# games by their true result before MoHex is asked (docs/strength.md examines the rest, and
# counts a game won by the opponent's failure apart).
set -euo pipefail
cd "$(dirname "$0")/../.."
rapfi=$(realpath "$1")
mohex=$(realpath "$2")
bin=$(realpath "${3:-target/release/zerosum}")
dir=${4:-zerosum-runs/champions}
shift $(($# < 4 ? $# : 4))
wanted=("$@")
games=${GAMES:-100}
concurrency=${CONCURRENCY:-2}
mkdir -p "$dir"
dir=$(realpath "$dir")

mohex_init='param_mohex max_time 1.6;param_mohex perform_pre_search 0;param_mohex extend_unstable_search 0;param_mohex num_threads 1;param_mohex use_parallel_solver 0'
mohex_player="cmd=$mohex,proto=gtp,name=mohex,init=\"$mohex_init\",margin=3000"
rapfi_player="cmd=$rapfi,proto=gomocup,name=rapfi,init=INFO thread_num 1,margin=300"

# name, spec, champion, seed, the openings' drawing options..., --, the match's extra options...
run() {
  local name=$1 spec=$2 champion=$3 seed=$4
  shift 4
  if ((${#wanted[@]})) && [[ " ${wanted[*]} " != *" $name "* ]]; then
    return
  fi
  local drawing=()
  while [[ $1 != -- ]]; do
    drawing+=("$1")
    shift
  done
  shift
  local record=$dir/$name.jsonl openings=$dir/$name.openings.txt
  # In the record folder: MoHex writes its default.log into the working directory.
  if [[ -f $record ]]; then
    (cd "$dir" && "$bin" match --resume "$record" --concurrency "$concurrency" >>"$name.log" 2>&1)
  else
    "$bin" openings "$spec" --count $((games / 2)) --seed "$seed" "${drawing[@]}" >"$openings"
    (cd "$dir" && "$bin" match "$spec" "$champion" engine --games "$games" --st 2 \
      --openings "$openings" --order sequential --concurrency "$concurrency" --seed "$seed" \
      --record "$record" "$@" >>"$name.log" 2>&1)
  fi
  grep " vs engine:" "$dir/$name.log" | tail -n 1 || true
}

for size in 11 9; do
  run "mohex-hex$size" "hex:$size" "$mohex_player" "32$size" --plies 2 --square "$size" -- \
    --adjudicate-nodes 200000
done
run rapfi-gomoku gomoku "$rapfi_player" 330 --plies 3-4 --square 7 --
run rapfi-standard gomoku:standard "$rapfi_player" 331 --plies 3-4 --square 7 --
run rapfi-renju renju "$rapfi_player" 332 --plies 3-4 --square 7 --
