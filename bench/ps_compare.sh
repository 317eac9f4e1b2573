#!/usr/bin/env bash
# bench/ps_compare.sh - levelkit's PuzzleScript engine against the reference
# JavaScript engine, level by level, side by side in one run: the same plain
# breadth-first search (bench/ps_ref_bfs.js on the reference, bench/ps_bfs.c on
# levelkit) with the same bound.  The reference runs first for SECONDS of CPU
# time; levelkit then runs exactly the turns the reference ran (--max-generated),
# so both search the same states: the states stored, turns run and the win
# must agree (a fidelity check on every level), and the ratio of their rates
# is the speed-up.  levelkit's search is repeated for at least 0.3 s of CPU.
#
# Usage: bench/ps_compare.sh LIST [SECONDS] [BUILD_DIR] > result.tsv
#   LIST: lines "set<TAB>script<TAB>level<TAB>seed" (level 0-based, messages
#         included, as the reference's loadLevel counts; seed "-" for "0")
#   The reference: PS_REF, its src/ directory (or the repository holding it);
#   bench/ps_ref_fetch.sh puts a pinned copy in BUILD_DIR/bench/PuzzleScript.
# Prints per level: set, script, level, the reference's states, generated,
# won, CPU s and rate, levelkit's the same, the ratio of the rates, and
# "agree" or what differs.
set -uo pipefail
cd "$(dirname "$0")/.."
list=$1
secs=${2:-2}
build=${3:-build/release}
ref=${PS_REF:-$build/bench/PuzzleScript}
[ -f "$ref/js/engine.js" ] || ref=$ref/src
[ -f "$ref/js/engine.js" ] || { echo "ps_compare: no reference engine at $ref (run bench/ps_ref_fetch.sh or set PS_REF)" >&2; exit 2; }
[ -x "$build/ps_bfs" ] || { echo "ps_compare: build first" >&2; exit 2; }
printf 'set\tscript\tlevel\tref states\tref generated\tref won\tref s\tref rate\tlk states\tlk generated\tlk won\tlk s\tlk rate\tratio\tcheck\tkey bytes\tbytes/state\n'
while IFS=$'\t' read -r set script level seed; do
	[ -n "$script" ] || continue
	sd=${seed:--}
	[ "$sd" = "-" ] && sd=0
	# a game that draws random numbers keeps the generator's state in its states
	rk=
	"$build/ps_bfs" "$script" --max-generated 0 2>/dev/null | grep -q '^# note:.*random' && rk=--rng-in-key
	r=$(timeout $((${secs%.*} * 4 + 60)) node bench/ps_ref_bfs.js "$ref" "$script" "$level" --seconds "$secs" \
		--min-seconds "$secs" --seed "$sd" $rk 2>/dev/null)
	if [ -z "$r" ]; then
		printf '%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\treference failed\t-\t-\n' "$set" "$script" "$level"
		continue
	fi
	IFS=$'\t' read -r rs rg rs_s rruns rw rrate <<< "$r"
	l=$("$build/ps_bfs" "$script" "$level" --max-generated "$rg" --min-seconds 0.3 --seed "$sd" 2>/dev/null | awk -F'\t' '$1 ~ /^[0-9]+$/')
	if [ -z "$l" ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\t-\tlevelkit failed\t-\t-\n' "$set" "$script" "$level" "$rs" "$rg" "$rw" "$rs_s" "$rrate"
		continue
	fi
	IFS=$'\t' read -r _ ls lg lw ls_s lrate lruns kb bps <<< "$l"
	check=agree
	[ "$rs" = "$ls" ] || check="states differ"
	[ "$rg" = "$lg" ] || check="$check; generated differ"
	[ "$rw" = "$lw" ] || check="$check; won differs"
	ratio=$(awk -v a="$lrate" -v b="$rrate" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$script" "$level" \
		"$rs" "$rg" "$rw" "$rs_s" "$rrate" "$ls" "$lg" "$lw" "$ls_s" "$lrate" "$ratio" "$check" "$kb" "$bps"
done < "$list"
