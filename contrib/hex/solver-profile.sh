#!/usr/bin/env bash
# Where our Hex solver spends positions that MoHex's does not: each move of a position solved
# by both, side by side. Usage:
#
#   contrib/hex/solver-profile.sh MOHEX SIZE MOVES [ZEROSUM]
#
# MOHEX: the mohex binary (docs/champions.md builds it); SIZE: the board (7 for 7x7); MOVES:
# the position as `zerosum solve --moves` reads it (e.g. f1,e2); ZEROSUM: our binary (default
# target/release/zerosum). For every empty cell, the position after that move is solved by a
# fresh process of `zerosum solve hex:SIZE` and of MoHex 2.0's `dfpn-solve-state` (default
# settings), both under `nice -n 19`. Prints per move: our value (of the side to move after
# it), positions and processor seconds, then MoHex's value, VC builds (its positions) and
# processor seconds (start-up not taken off), the moves our solver needs most positions for
# first. A value is `win` or `loss`, `?` when unproved.
set -euo pipefail

mohex=${1:?usage: solver-profile.sh MOHEX SIZE MOVES [ZEROSUM]}
size=${2:?usage: solver-profile.sh MOHEX SIZE MOVES [ZEROSUM]}
moves=${3:?usage: solver-profile.sh MOHEX SIZE MOVES [ZEROSUM]}
zerosum=$(realpath "${4:-target/release/zerosum}")
mohex=$(realpath "$mohex")
# shellcheck source=contrib/hex/mohex-dfpn.sh
. "$(dirname "${BASH_SOURCE[0]}")/mohex-dfpn.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"


# Our positions count as printed (e.g. 35.8k) in plain numbers, for sorting.
plain() {
    awk '{ n = $1; if (n ~ /k$/) n = substr(n, 1, length(n) - 1) * 1000;
           else if (n ~ /M$/) n = substr(n, 1, length(n) - 1) * 1000000; printf "%d", n }'
}

columns="abcdefghijklmnopqrstuvwxyz"
played=" ${moves//,/ } "
{
    for ((row = 1; row <= size; row++)); do
        for ((column = 0; column < size; column++)); do
            move="${columns:column:1}$row"
            [[ "$played" == *" $move "* ]] && continue
            line="$moves,$move"
            ours_cpu=$(cpu nice -n 19 "$zerosum" solve "hex:$size" --moves "$line")
            ours=$(awk '$1 == "score" { print $2 }' "$work/out")
            positions=$(sed -n 's/.*proof-number search: \([0-9.]*[kM]*\) nodes.*/\1/p' "$work/out")
            mohex_cpu=$(mohex_dfpn_commands "$size" "$line" | cpu nice -n 19 "$mohex")
            builds=$(awk '$1 == "VC" && $2 == "builds" { print $3 }' "$work/out")
            theirs=$(mohex_value "$line")
            printf '%s %-6s %-6s %8s %8s %-6s %8s %8s\n' "$(echo "${positions:-0}" | plain)" \
                "$move" "${ours:-?}" "${positions:-?}" "$ours_cpu" "$theirs" "${builds:-?}" \
                "$mohex_cpu"
        done
    done
} | sort -k1,1nr | cut -d' ' -f2- >"$work/rows"
printf '%-6s %-6s %8s %8s %-6s %8s %8s\n' move ours positions cpu mohex builds cpu
cat "$work/rows"
