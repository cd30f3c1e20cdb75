#!/usr/bin/env bash
# Three players of the lockstep example over loopback (renet on UDP, one process each): the host,
# a guest from the start that marks a third of its boids, and a guest that joins once the host
# has passed a third of the game. Prints each player's summary (ticks per second, bytes sent per
# tick), the snapshot's size and the time to save and to restore it, and whether the players'
# last hashes agree.
#
# Usage: tools/lockstep_bench.sh BOIDS TICKS [PORT]
# Builds nothing: run `cargo build --release --example lockstep` first (same CARGO_TARGET_DIR).
set -euo pipefail
boids=$1
ticks=$2
port=${3:-47700}
lockstep="${CARGO_TARGET_DIR:-$HOME/.cache/bevy_flock-target}/release/examples/lockstep"
logs=$(mktemp -d)
game=(--headless --ticks "$ticks" --random-inputs)
"$lockstep" --server "127.0.0.1:$port" --boids "$boids" --players 2 --max-players 3 "${game[@]}" \
    >"$logs/host.log" 2>&1 &
host=$!
sleep 0.5
"$lockstep" --client "127.0.0.1:$port" --mark-thirds "${game[@]}" >"$logs/marked.log" 2>&1 &
marked=$!
join_after=$((ticks / 3))
until grep -qE "player 0: tick [0-9]+" "$logs/host.log" &&
    (($(grep -oE 'player 0: tick [0-9]+' "$logs/host.log" | tail -n 1 | grep -oE '[0-9]+$') >= join_after)); do
    sleep 0.2
    kill -0 "$host" 2>/dev/null || break
done
"$lockstep" --client "127.0.0.1:$port" "${game[@]}" >"$logs/late.log" 2>&1 || true
wait "$marked" || true
wait "$host" || true
echo "$boids boids, $ticks ticks (logs in $logs):"
sed 's/\x1b\[[0-9;]*m//g' "$logs"/*.log | grep -oE '(player [0-9]: done.*|sent player .*|joined as player .*|DESYNC.*|game over.*)'
echo "distinct last hashes: $(grep -ho 'the last [0-9a-f]*' "$logs"/*.log | sort -u | wc -l)"
