#!/bin/sh
# cli_ps_auto_same_test.sh - solve's default search (auto: A* and BFS in
# turns, where a PuzzleScript level's heuristic is no proven bound) gives
# byte for byte the same records on every run: its turns are counted in
# generated states, not seconds.  The same levels are solved on the wall
# clock, on the CPU clock (LEVELKIT_CLOCK=cpu), with two jobs, and beside a
# busy loop that slows the wall clock down; the answers, solutions, which
# search answered and the states counted (everything but the measured
# time and memory) must agree, on levels where both searches take part
# (Lime Rick 1, 5 and 9: A* answers; Kettle 8 and 9, By Your Side 9 and
# 10: BFS answers; under a bound of states, Lime Rick 3 and Kettle 10:
# neither, "unknown", limit states).  Small levels, for the sanitizers.
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
	"$FILTER" 'level == 1 || level == 5 || level == 9' "$PS/limerick.txt"
	"$FILTER" 'level == 8 || level == 9' "$PS/kettle.txt"
	"$FILTER" 'level == 9 || level == 10' "$PS/byyourside.txt"
} > "$TMP/pack.txt"
{
	"$FILTER" 'level == 3' "$PS/limerick.txt"
	"$FILTER" 'level == 10' "$PS/kettle.txt"
} > "$TMP/bounded.txt"
fields=title,solvable,moves,optimal,states,solution,generated,stored,search,limit

# solve NAME CLOCK JOBS: the pack's records, and the bounded ones', into NAME.tsv
solve() {
	LEVELKIT_CLOCK=$2 "$SOLVE" -j "$3" -t 0 --stats -f tsv --fields "$fields" \
		"$TMP/pack.txt" > "$TMP/$1.tsv"
	LEVELKIT_CLOCK=$2 "$SOLVE" -j "$3" -t 0 --max-states 20000 --stats -f tsv \
		--fields "$fields" "$TMP/bounded.txt" | tail -n +2 >> "$TMP/$1.tsv"
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
if [ "$(grep -c 'astar and bfs: astar answered' "$TMP/wall.tsv")" -ne 3 ] ||
	[ "$(grep -c 'astar and bfs: bfs answered' "$TMP/wall.tsv")" -ne 4 ]; then
	echo "FAIL: auto did not run A* and BFS, A* answering 3 levels and BFS 4:" >&2
	cat "$TMP/wall.tsv" >&2
	failures=$((failures + 1))
fi
if [ "$(grep -c 'unknown.*astar and bfs: neither answered	states$' "$TMP/wall.tsv")" -ne 2 ]; then
	echo "FAIL: Lime Rick 3 and Kettle 10 under 20000 states are not unknown, limit states" >&2
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
