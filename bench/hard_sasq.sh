#!/usr/bin/env bash
# bench/hard_sasq.sh - two builds side by side on subsets of the hard packs
# with processor-time limits (LEVELKIT_CLOCK=cpu, so that a loaded machine
# does not shorten a level's time): solve -a any, one level at a time,
# niced; prints per run the levels, the solved count and the search's
# processor seconds (docs/benchmarks.md, section "hard-sasq").
#
# Usage: bench/hard_sasq.sh BEFORE_SOLVE AFTER_SOLVE
#   RUNS="name:seconds:pack[:first-last] ..."   (default: the section's runs)
# Needs ../shared/data beside the repository (or LEVELKIT_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: bench/hard_sasq.sh BEFORE_SOLVE AFTER_SOLVE" >&2; exit 2; }
data=${LEVELKIT_DATA:-../shared/data}/sokoban
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=${RUNS:-"sasq1:5:sasquatch1 sasq2-first10:10:sasquatch2:1-10 sasq1-near:30:sasquatch1:13,30,32,35,36,37 microban:30:microban boxoban-hard:30:boxoban_hard_0-999"}
# pick PACK LIST: the levels of PACK whose record numbers are in LIST
# (a-b ranges and commas; all when empty)
pick() {
	awk -v list="$2" 'BEGIN {RS = ""; n = split(list, p, ",");
		for (i = 1; i <= n; i++) { if (split(p[i], r, "-") == 2) for (j = r[1]; j <= r[2]; j++) want[j] = 1; else want[p[i]] = 1 } }
		{ k++; if (list == "" || want[k]) print $0 "\n" }' "$data/$1.xsb"
}
printf 'run\tbuild\tlevels\tsolved\tcpu s\n'
for run in $runs; do
	IFS=: read -r name secs pack list <<<"$run"
	pick "$pack" "${list:-}" >"$tmp/levels.xsb"
	for build in before after; do
		bin=$1
		[ "$build" = after ] && bin=$2
		LEVELKIT_CLOCK=cpu nice "$bin" -a any --stats -t "$secs" -f tsv --fields record,solvable,cpu \
			"$tmp/levels.xsb" 2>/dev/null |
			awk -F'\t' -v r="$name -t $secs" -v b="$build" 'NR > 1 {n++; if ($2 == "yes") y++; c += $3}
				END {printf "%s\t%s\t%d\t%d\t%.1f\n", r, b, n, y, c}'
	done
done
