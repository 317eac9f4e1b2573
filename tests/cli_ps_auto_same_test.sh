#!/bin/sh
# cli_ps_auto_same_test.sh - solve's default search (auto: A* and BFS in
# turns, where a PuzzleScript level's heuristic is no proven bound) gives
# byte for byte the same records on every run: its turns are counted in
# generated states, not seconds.  The same levels are solved on the wall
# clock, on the CPU clock (LEVELKIT_CLOCK=cpu), with two jobs, and beside a
# busy loop that slows the wall clock down; the answers, solutions, which
# search answered and the states counted (everything but the measured
# time and memory) must agree, where both searches take part (Lime Rick 5
# and 8 and Zen Puzzle Garden 1: A* answers; Kettle 10: BFS answers, or
# under a bound of states, neither: "unknown", limit states).
#
# usage: cli_ps_auto_same_test.sh SOLVE FILTER PUZZLESCRIPT_DIR
set -eu

SOLVE=$1
FILTER=$2
PS=$3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/levelkit-autosame.XXXXXX")
busy=
cleanup() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
failures=0

{
	"$FILTER" 'level == 5 || level == 8' "$PS/limerick.txt"
	"$FILTER" 'level == 1' "$PS/zenpuzzlegarden.txt"
} > "$TMP/pack.txt"
"$FILTER" 'level == 10' "$PS/kettle.txt" > "$TMP/kettle.txt"
fields=title,solvable,moves,optimal,states,solution,generated,stored,search,limit

# solve NAME CLOCK JOBS: the pack's records, and Kettle's under a bound
# of states, into NAME.tsv
solve() {
	LEVELKIT_CLOCK=$2 "$SOLVE" -j "$3" -t 0 --stats -f tsv --fields "$fields" \
		"$TMP/pack.txt" > "$TMP/$1.tsv"
	LEVELKIT_CLOCK=$2 "$SOLVE" -j "$3" -t 0 --max-states 20000 --stats -f tsv \
		--fields "$fields" "$TMP/kettle.txt" | tail -n +2 >> "$TMP/$1.tsv"
}

solve wall wall 1
solve cpu cpu 1
solve jobs wall 2
sh -c 'while :; do :; done' &
busy=$!
solve busy wall 1
kill "$busy"
busy=

# the runs are the same test only if auto ran both searches on every level
# and the figures are there
if [ "$(grep -c 'astar and bfs: ' "$TMP/wall.tsv")" -ne 4 ]; then
	echo "FAIL: auto did not run A* and BFS on the four levels:" >&2
	cat "$TMP/wall.tsv" >&2
	failures=$((failures + 1))
fi
if ! grep -q 'unknown.*	states$' "$TMP/wall.tsv"; then
	echo "FAIL: Kettle 10 under 20000 states is not unknown, limit states" >&2
	failures=$((failures + 1))
fi
for run in cpu jobs busy; do
	if ! cmp -s "$TMP/wall.tsv" "$TMP/$run.tsv"; then
		echo "FAIL: the $run run differs from the first:" >&2
		diff "$TMP/wall.tsv" "$TMP/$run.tsv" >&2 || true
		failures=$((failures + 1))
	fi
done
[ "$failures" -eq 0 ] || exit 1
echo "auto: the same records on the wall clock, the CPU clock, with 2 jobs and under load"
