#!/usr/bin/env bash
# Our Hex solver against MoHex's (Benzene's) df-pn on the same positions, processor time side
# by side. Usage:
#
#   contrib/hex/solver-vs-mohex.sh MOHEX SIZE FILE [ZEROSUM]
#
# MOHEX: the mohex binary (docs/champions.md builds it); SIZE: the board (7 for 7x7); FILE:
# one position a line, `moves [expected]` as `zerosum solve --stdin` reads them (e.g.
# contrib/hex/7x7-first-moves.txt); ZEROSUM: our binary (default target/release/zerosum).
# Each position is solved by a fresh process of each program (no table kept), both under
# `nice -n 19`. Prints per position: the moves, our value and processor seconds, MoHex's value
# and processor seconds (its start-up, measured once and printed first, taken off), then the
# totals and their ratio (ours / MoHex's). A value is that of the side to move (win or loss),
# `?` when unproved; MoHex's values are checked against ours and the file's.
set -euo pipefail

mohex=${1:?usage: solver-vs-mohex.sh MOHEX SIZE FILE [ZEROSUM]}
size=${2:?usage: solver-vs-mohex.sh MOHEX SIZE FILE [ZEROSUM]}
file=${3:?usage: solver-vs-mohex.sh MOHEX SIZE FILE [ZEROSUM]}
zerosum=$(realpath "${4:-target/release/zerosum}")
mohex=$(realpath "$mohex")
file=$(realpath "$file")
# shellcheck source=contrib/hex/mohex-dfpn.sh
. "$(dirname "${BASH_SOURCE[0]}")/mohex-dfpn.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"


startup=$(printf 'boardsize %s %s\nquit\n' "$size" "$size" | cpu nice -n 19 "$mohex")
echo "MoHex start-up: $startup s (taken off each of its times)"
printf '%-16s %-6s %8s %-6s %8s\n' position ours cpu mohex cpu
total_ours=0
total_mohex=0
mismatches=0
while read -r moves expected _; do
    [ -n "$moves" ] || continue
    ours_cpu=$(cpu nice -n 19 "$zerosum" solve "hex:$size" --moves "$moves")
    ours=$(awk '$1 == "score" { print $2 }' "$work/out")
    ours=${ours:-?}
    mohex_cpu=$(mohex_dfpn_commands "$size" "$moves" | cpu nice -n 19 "$mohex")
    mohex_cpu=$(awk -v t="$mohex_cpu" -v s="$startup" 'BEGIN { t -= s; printf "%.2f", t < 0 ? 0 : t }')
    theirs=$(mohex_value "$moves")
    if [ "$theirs" != "$ours" ] || { [ -n "${expected:-}" ] && [ "$expected" != "$ours" ]; }; then
        mismatches=$((mismatches + 1))
    fi
    printf '%-16s %-6s %8s %-6s %8s\n' "$moves" "$ours" "$ours_cpu" "$theirs" "$mohex_cpu"
    total_ours=$(awk -v a="$total_ours" -v b="$ours_cpu" 'BEGIN { printf "%.2f", a + b }')
    total_mohex=$(awk -v a="$total_mohex" -v b="$mohex_cpu" 'BEGIN { printf "%.2f", a + b }')
done <"$file"
ratio=$(awk -v a="$total_ours" -v b="$total_mohex" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
echo "total: ours $total_ours s, MoHex $total_mohex s, ratio $ratio; values that differ: $mismatches"
