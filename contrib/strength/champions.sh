#!/usr/bin/env bash
# The matches against the champions of docs/strength.md (issue 19): the default engine against
# Rapfi on gomoku and against MoHex 2.0 on hex:11 and hex:9, 2 s a move, one thread each,
# 100 games (50 openings of a balanced suite, each played with both colours), two at a time.
# Build Rapfi and MoHex as docs/champions.md says. Run it again after an
# interruption: a match whose record exists is resumed (a finished one returns at once).
#
#   contrib/strength/champions.sh RAPFI MOHEX [BINARY] [RECORD_DIR]
#
# RAPFI and MOHEX are the two programs (pbrain-rapfi, mohex), BINARY defaults to
# target/release/zerosum, RECORD_DIR to zerosum-runs/champions; each match writes NAME.jsonl,
# NAME.ranking.txt and NAME.log there.
#
# MoHex is told its time by `param_mohex max_time` (it refuses `time_settings`); it spends
# some of each move outside that time (up to 2 s more on a busy machine), hence its margin.
# Games are adjudicated as soon as our exact solver proves the result within 200,000 nodes:
# MoHex fails in some positions its fill-in decides, by a crash where it has lost ("Opponent
# has won") and sometimes by an invalid answer where it has won; adjudication scores most such
# games by their true result before MoHex is asked (docs/strength.md examines the rest).
set -euo pipefail
cd "$(dirname "$0")/../.."
rapfi=$(realpath "$1")
mohex=$(realpath "$2")
bin=$(realpath "${3:-target/release/zerosum}")
dir=${4:-zerosum-runs/champions}
mkdir -p "$dir"
dir=$(realpath "$dir")
root=$PWD

mohex_init='param_mohex max_time 1.6;param_mohex perform_pre_search 0;param_mohex extend_unstable_search 0;param_mohex num_threads 1;param_mohex use_parallel_solver 0'

# name, spec, champion, suite, seed, extra options
run() {
  local name=$1 spec=$2 champion=$3 suite=$4 seed=$5
  shift 5
  local record=$dir/$name.jsonl
  # In the record folder: MoHex writes its default.log into the working directory.
  if [[ -f $record ]]; then
    (cd "$dir" && "$bin" match --resume "$record" --concurrency 2 >>"$name.log" 2>&1)
  else
    (cd "$dir" && "$bin" match "$spec" "$champion" engine --games 100 --st 2 \
      --openings "$root/$suite" --concurrency 2 --seed "$seed" --record "$record" "$@" \
      >>"$name.log" 2>&1)
  fi
  grep " vs engine:" "$dir/$name.log" | tail -n 1 || true
}

for size in 11 9; do
  run "mohex-hex$size" "hex:$size" \
    "cmd=$mohex,proto=gtp,name=mohex,init=\"$mohex_init\",margin=3000" \
    "openings/hex$size.txt" "5$size" --first-move-grace 5 --adjudicate-nodes 200000
done
run rapfi-gomoku gomoku "cmd=$rapfi,proto=gomocup,name=rapfi,init=INFO thread_num 1,margin=300" \
  openings/gomoku-selfplay.txt 51
