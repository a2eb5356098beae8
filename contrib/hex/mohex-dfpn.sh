# Shared by solver-vs-mohex.sh and solver-profile.sh (sourced, not run): processor time of a
# command and MoHex 2.0's df-pn value of a position. The caller sets `work` (a scratch folder).

# Processor seconds (user + system) of a command, its output (both streams) in $work/out.
cpu() {
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" >"$work/out" 2>&1 || true
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

# The side to move (black or white) after MOVES (comma-separated, Black first).
side_to_move() {
    local list
    IFS=, read -ra list <<<"$1"
    if ((${#list[@]} % 2 == 0)); then echo black; else echo white; fi
}

# The GTP commands that play MOVES alternately black and white on a SIZE x SIZE board, then ask
# MoHex's df-pn (`dfpn-solve-state`, default settings) for the winner, then quit.
mohex_dfpn_commands() {
    local size=$1 moves=$2 colour=b move
    printf 'boardsize %s %s\n' "$size" "$size"
    for move in ${moves//,/ }; do
        printf 'play %s %s\n' "$colour" "$move"
        colour=$([ "$colour" = b ] && echo w || echo b)
    done
    printf '1 dfpn-solve-state %s\nquit\n' "$(side_to_move "$moves")"
}

# MoHex's value for the side to move after MOVES (win, loss, or ? when unproved), read from
# its answer in $work/out.
mohex_value() {
    local to_move winner
    to_move=$(side_to_move "$1")
    winner=$(awk '$1 == "=1" { print $2 }' "$work/out")
    case "$winner" in
        "$to_move") echo win ;;
        black | white) echo loss ;;
        *) echo '?' ;;
    esac
}
