#!/usr/bin/env bash
# bench/any_speed.sh - processor seconds of `solve -a any` on two builds
# doing the same work: each record of a file bounded by states stored
# (-t 0 --max-states N), the builds run in turns (A B A B ...) so that a
# loaded machine slows both alike; prints per record the least and the
# median processor seconds of each build over the rounds, and the states
# expanded per processor second of the least.  The two builds must keep
# the same course (bench/any_course.sh), or the work differs.
#
# Usage: bench/any_speed.sh OLD_SOLVE NEW_SOLVE FILE.xsb [STATES [ROUNDS]]
#   (default 1500000 states, 3 rounds; LEVELKIT_CLOCK=cpu, -j 1, niced)
set -euo pipefail
old=$1
new=$2
file=$3
states=${4:-1500000}
rounds=${5:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=$(awk 'BEGIN { RS = "" } END { print NR }' "$file")
for ((r = 1; r <= n; r++)); do
	awk -v r="$r" 'BEGIN { RS = "" } NR == r { print $0 "\n" }' "$file" >"$tmp/one.xsb"
	name=$(grep -m1 '^;' "$tmp/one.xsb" || echo "record $r")
	: >"$tmp/old.t"
	: >"$tmp/new.t"
	for ((k = 0; k < rounds; k++)); do
		for side in old new; do
			bin=$old
			[[ $side == new ]] && bin=$new
			LEVELKIT_CLOCK=cpu nice -n 10 "$bin" -a any -j 1 -t 0 --max-states "$states" \
				--stats --max-memory 1500M "$tmp/one.xsb" >"$tmp/out" 2>&1 || true
			awk '/^cpu:/ { c = $2 } /^states:/ { s = $2 } END { print c, s }' "$tmp/out" >>"$tmp/$side.t"
		done
	done
	summary() {
		sort -n "$1" | awk '{ c[NR] = $1; s = $2 } END {
			printf "least %.2f median %.2f (%d states, %.0f a second)",
				c[1], c[int((NR + 1) / 2)], s, s / c[1] }'
	}
	echo "$name: old $(summary "$tmp/old.t"); new $(summary "$tmp/new.t")"
done
