#!/usr/bin/env bash
# bench/same_any.sh - two builds of `solve -a any` on the hard-level
# workloads, their `--stats -f tsv` outputs compared field by field: a
# change meant to make the search cheaper per state must leave what it
# searches unchanged (every counter, states, stored, generated, every
# solution).  Only the fields that measure resources (memory, overhead,
# time, cpu) are left out.  Workloads: all of Microban (-t 30), Boxoban hard
# 0-999 (-t 30) and Sasquatch I 1-12 bounded by states (--max-states 150000,
# so that the searches hand over at the same states whatever the machine's
# speed; -t 600 only as a guard), and two big levels, Sasquatch II 17
# (84 boxes) and III 49, at --max-states 100000 (greedy search's slice and
# the feature-space search both; section h31s), and two levels solved after
# a stall turn, Sasquatch III 8 and 17 (-t 600, unbounded in states: the
# first search, the sound search's turn and the greedy slices all run, and
# share the level's plan; section h32p).  A level that hits its time
# limit in either build is reported: its counters then depend on the load.
# (docs/benchmarks.md, section hard-speed30)
#
# Usage: bench/same_any.sh OLD_SOLVE NEW_SOLVE [quick]
#   quick: Microban only
# Prints one line per workload (same, or the first lines that differ) and
# exits 1 when any differs.  Needs ../shared/data (or LEVELKIT_DATA).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: bench/same_any.sh OLD_SOLVE NEW_SOLVE [quick]" >&2; exit 2; }
old=$1
new=$2
quick=${3:-}
data=${LEVELKIT_DATA:-../shared/data}/sokoban
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
differ=0

awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 12' "$data/sasquatch1.xsb" >"$tmp/sasq1-12.xsb"
# the big ones, by title
big() { awk -v t="; Sasquatch $1 $2" 'BEGIN { RS = ""; ORS = "\n\n" } index($0, t "\n") == 1' "$data/sasquatch$1.xsb"; }
{ big 2 17; big 3 49; } >"$tmp/sasq-big.xsb"
{ big 3 8; big 3 17; } >"$tmp/sasq-stall.xsb"
workloads=("microban|-t 30|$data/microban.xsb")
if [ "$quick" != quick ]; then
	workloads+=("boxoban-hard|-t 30|$data/boxoban_hard_0-999.xsb"
		"sasquatch1-12|-t 600 --max-states 150000|$tmp/sasq1-12.xsb"
		"sasquatch-big|-t 600 --max-states 100000|$tmp/sasq-big.xsb"
		"sasquatch-stall|-t 600|$tmp/sasq-stall.xsb")
fi

# keep every column but the measured ones, found by name in the header
strip() {
	awk -F'\t' 'BEGIN { OFS = "\t" }
		NR == 1 { for (i = 1; i <= NF; i++) drop[i] = ($i == "memory" || $i == "overhead" || $i == "time" || $i == "cpu") }
		{ out = ""; for (i = 1; i <= NF; i++) if (!drop[i]) out = out (out == "" ? "" : OFS) $i; print out }'
}

for w in "${workloads[@]}"; do
	IFS='|' read -r name opts pack <<<"$w"
	for b in old new; do
		bin=$old
		[ $b = new ] && bin=$new
		# shellcheck disable=SC2086
		LEVELKIT_CLOCK=cpu nice "$bin" -a any --stats -f tsv $opts "$pack" >"$tmp/$b.raw" 2>"$tmp/$b.err"
		strip <"$tmp/$b.raw" >"$tmp/$b.tsv"
	done
	limited=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "limit") l = i; next }
		l && $l == "time" { printf " %s", $1 }' "$tmp/old.raw" "$tmp/new.raw")
	if cmp -s "$tmp/old.tsv" "$tmp/new.tsv"; then
		echo "$name: same ($(($(wc -l <"$tmp/new.tsv") - 1)) levels)${limited:+; hit the time limit:$limited}"
	else
		echo "$name: DIFFERS${limited:+ (hit the time limit:$limited)}"
		diff "$tmp/old.tsv" "$tmp/new.tsv" | head -6 | cut -c1-300
		differ=1
	fi
done
exit $differ
