#!/usr/bin/env bash
# bench/same.sh - the same commands on two builds, their outputs compared
# record by record: a refactoring must leave every byte of what the
# commands write unchanged (docs/benchmarks.md, "Refactorings").  The
# workloads are bench/ab.sh's (bounded by states, not time) and the
# bundled packs through every command and output format; lines that hold
# a measured time (time:, seconds) or measured resources (--stats' cpu,
# memory, overhead) are left out of the comparison.
#
# Usage: bench/same.sh OLD_BUILD_DIR NEW_BUILD_DIR [quick]
#   quick: only the bundled packs, not the long bench workloads
# Prints one line per workload (same, or where the outputs part) and
# exits 1 when any differs.  Needs ../shared/data (or LEVELKIT_DATA).
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
quick=${3:-}
data=${LEVELKIT_DATA:-../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
differ=0

# inputs made once, by the old build
"$old/gen" fruit -n 40 -j 1 -t 0 --seed 5 >"$tmp/fruit.xsb" 2>/dev/null
"$old/gen" skiddy -n 80 -j 1 -t 0 --seed 5 >"$tmp/skiddy.xsb" 2>/dev/null
awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 200' "$data/sokoban/boxoban_medium_valid_0-999.xsb" \
	>"$tmp/medium200.xsb"
awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 40' "$data/sokoban/microban.xsb" >"$tmp/micro40.xsb"

packs="levels/*.xsb levels/puzzlescript/*.txt tests/levels/*.xsb tests/levels/*.lvl"

# name|command ($B is the build directory); stdout is compared, and stderr
# too (the messages, a summary of what gen turned down: gen runs with -j 1,
# since with more jobs the candidates tried depend on how far the workers
# ran ahead).
workloads=(
	"solve packs|\$B/solve -j 2 -t 0 --max-states 100000 $packs"
	"solve --stats packs|\$B/solve -j 1 -t 0 --stats --max-states 50000 $packs"
	"solve -f tsv packs|\$B/solve -j 2 -t 0 --max-states 50000 -f tsv $packs"
	"solve -f json packs|\$B/solve -j 2 -t 0 --max-states 50000 -f json $packs"
	"solve -f html packs|\$B/solve -j 2 -t 0 --max-states 50000 -f html $packs"
	"solve -f svg packs|\$B/solve -j 2 -t 0 --max-states 50000 -f svg $packs"
	"solve -f ansi packs|\$B/solve -j 2 -t 0 --max-states 50000 -f ansi --color always $packs"
	"solve -f sok microban 40|\$B/solve -j 2 -t 0 --max-states 50000 -f sok $tmp/micro40.xsb"
	"solve -f puzzlescript microban 40|\$B/solve -j 2 -t 0 --max-states 50000 -f puzzlescript $tmp/micro40.xsb"
	"solve --verify|\$B/solve -j 2 -t 0 --max-states 50000 $packs | \$B/solve --verify -t 0"
	"rate packs|\$B/rate -j 2 -k 3 -t 0 --max-states 5000 $packs"
	"rate --graph slide|\$B/rate -j 2 -k 5 -t 0 --graph $tmp/fruit.xsb $tmp/skiddy.xsb tests/levels/fruit.xsb tests/levels/skiddy.xsb"
	"filter packs|\$B/filter 'moves >= 10 || unique' $packs"
	"filter pipe|\$B/solve -j 2 -t 0 --max-states 20000 $packs | \$B/filter -f tsv --top 5 --by moves"
	"filter dedupe|\$B/filter --dedupe tests/levels/filter-dedupe.xsb"
	"gen sokoban|\$B/gen sokoban -n 12 -j 1 -t 0 --seed 7"
	"gen sokoban transform|\$B/gen sokoban -g transform -n 3 -j 1 -t 0 --seed 7 --param steps=10"
	"gen sokoban --rate|\$B/gen sokoban -n 4 -j 1 -t 0 --seed 9 --rate -k 5"
	"gen fruit|\$B/gen fruit -n 12 -j 1 -t 0 --seed 7"
	"gen skiddy --stars|\$B/gen skiddy -n 6 -j 1 -t 0 --seed 7 --stars 2"
	"gen combination|\$B/gen combination -n 5 -j 1 -t 0 --seed 7"
	"gen laser|\$B/gen laser -n 3 -j 1 -t 0 --seed 7"
	"gen puzzlescript|\$B/gen puzzlescript -n 2 -j 1 -t 0 --max-states 20000 --seed 7 --from levels/puzzlescript/kettle.txt --param steps=5"
	"gen -f html|\$B/gen fruit -n 4 -j 1 -t 0 --seed 3 -f html"
	"help texts|for c in gen solve rate filter; do \$B/\$c --help; done"
)
if [ -z "$quick" ]; then
	workloads+=(
		"bench: solve A* Microban|\$B/solve -j 2 -t 0 --max-states 300000 $data/sokoban/microban.xsb"
		"bench: solve greedy Boxoban hard|\$B/solve -j 2 -a greedy -t 0 --max-states 300000 $data/sokoban/boxoban_hard_0-999.xsb"
		"bench: rate Boxoban medium 200|\$B/rate -j 2 -k 10 -t 0 --max-states 100000 $tmp/medium200.xsb"
		"bench: gen sokoban -n 60|\$B/gen sokoban -n 60 -j 1 -t 0 --seed 3"
		"bench: gen fruit -n 60|\$B/gen fruit -n 60 -j 1 -t 0 --seed 3"
		"bench: gen skiddy --stars 3|\$B/gen skiddy -n 100 --stars 3 -j 1 -t 0 --seed 3"
		"bench: rate --graph slide|\$B/rate -j 2 -k 20 -t 0 --graph $tmp/fruit.xsb $tmp/skiddy.xsb"
		"bench: solve combination|\$B/solve -j 2 -t 0 --count-limit 1000 levels/combination-sample.xsb"
	)
fi

# run DIR COMMAND OUT: stdout and stderr, less the lines of measured time
run() {
	local B=$1
	eval "${2//\\\$B/$B}" >"$3.out" 2>"$3.err"
	echo "exit $?" >>"$3.err"
	# --stats' cpu, memory and overhead are measured too (memory and
	# overhead follow the table's growth, which differs with -j and timing)
	sed -i -E '/^(time|seconds|[a-z-]*-seconds|cpu|memory|overhead): /d; s/(seconds|time)="?[0-9.]+"?//g' "$3.out"
	# the messages of the commands of a pipe come in either order; a rate
	# of levels per minute is a time
	sed -E "s#$B#BUILD#g; s/[0-9]+\.[0-9]+ s\b/T s/g; s/[0-9.]+ levels\/min/R levels\/min/" \
		"$3.err" | sort >"$3.sorted" && mv "$3.sorted" "$3.err"
}

for w in "${workloads[@]}"; do
	name=${w%%|*}
	cmd=${w#*|}
	run "$old" "$cmd" "$tmp/a"
	run "$new" "$cmd" "$tmp/b"
	if cmp -s "$tmp/a.out" "$tmp/b.out" && cmp -s "$tmp/a.err" "$tmp/b.err"; then
		printf 'same     %s (%s records)\n' "$name" \
			"$(awk 'BEGIN { RS = "" } END { print NR }' "$tmp/a.out")"
	else
		differ=1
		where=$(awk 'BEGIN { RS = "" } FNR == NR { a[FNR] = $0; n = FNR; next }
			     a[FNR] != $0 { print "record " FNR; found = 1; exit }
			     END { if (!found) print "the end or stderr" }' "$tmp/a.out" "$tmp/b.out")
		printf 'DIFFERS  %s (first at %s)\n' "$name" "$where"
		diff "$tmp/a.out" "$tmp/b.out" | head -5
		diff "$tmp/a.err" "$tmp/b.err" | head -5
	fi
done
exit $differ
