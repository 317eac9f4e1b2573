#!/usr/bin/env bash
# bench/ab.sh - the same single-threaded workloads on two builds, run in
# turns (A B A B ...), so that a loaded or noisy machine slows both alike;
# prints the median seconds of each and their ratio.  Used to check that a
# refactoring kept the speed (docs/benchmarks.md, "Refactorings").
#
# Usage: bench/ab.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS]   (default 5 rounds)
# AB_CLOCK=cpu measures user + system CPU seconds instead of wall seconds:
# on a machine others share, a run's CPU time moves far less than its wall
# time (the workloads are single-threaded).
# Needs ../shared/data beside the repository (or LEVELKIT_DATA).  The
# workloads are bounded by states, not time, so both builds do the same work.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
rounds=${3:-5}
data=${LEVELKIT_DATA:-../shared/data}/sokoban
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# inputs made once, by the new build, the same for both
"$new/gen" fruit -n 40 -j 1 -t 0 --seed 5 >"$tmp/fruit.xsb" 2>/dev/null
"$new/gen" skiddy -n 80 -j 1 -t 0 --seed 5 >"$tmp/skiddy.xsb" 2>/dev/null
awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 200' "$data/boxoban_medium_valid_0-999.xsb" >"$tmp/medium200.xsb"

# name|command (B is the build directory)
workloads=(
	"solve A* pushes, Microban (155)|\$B/solve -j 1 -t 0 --max-states 300000 $data/microban.xsb"
	"solve greedy, Boxoban hard 0-999|\$B/solve -j 1 -a greedy -t 0 --max-states 300000 $data/boxoban_hard_0-999.xsb"
	"rate -k 10, Boxoban medium 200|\$B/rate -j 1 -k 10 -t 0 --max-states 100000 $tmp/medium200.xsb"
	"gen sokoban -n 60|\$B/gen sokoban -n 60 -j 1 -t 0 --seed 3"
	"gen fruit -n 60|\$B/gen fruit -n 60 -j 1 -t 0 --seed 3"
	"gen skiddy -n 100 --stars 3|\$B/gen skiddy -n 100 --stars 3 -j 1 -t 0 --seed 3"
	"rate --graph, 40 fruit and 80 skiddy levels|\$B/rate -j 1 -k 20 -t 0 --graph $tmp/fruit.xsb $tmp/skiddy.xsb"
	"solve combination, count 1000|\$B/solve -j 1 -t 0 --count-limit 1000 levels/combination-sample.xsb"
)

# time_of DIR COMMAND: seconds of one run (wall, or CPU with AB_CLOCK=cpu)
time_of() {
	local B=$1 start end t
	if [ "${AB_CLOCK:-wall}" = cpu ]; then
		t=$( { TIMEFORMAT='%3U %3S'; time eval "${2//\\\$B/$B}" >/dev/null 2>&1 || true; } 2>&1 )
		echo "$t" | awk '{ print $1 + $2 }'
		return
	fi
	start=$(date +%s.%N)
	eval "${2//\\\$B/$B}" >/dev/null 2>&1 || true
	end=$(date +%s.%N)
	echo "$end - $start" | bc
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

printf '| workload | old s | new s | new/old |\n|---|---:|---:|---:|\n'
for w in "${workloads[@]}"; do
	name=${w%%|*}
	cmd=${w#*|}
	: >"$tmp/a"
	: >"$tmp/b"
	for ((r = 0; r < rounds; r++)); do
		time_of "$old" "$cmd" >>"$tmp/a"
		time_of "$new" "$cmd" >>"$tmp/b"
	done
	a=$(median <"$tmp/a")
	b=$(median <"$tmp/b")
	printf '| %s | %.3f | %.3f | %.2f |\n' "$name" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
