#!/usr/bin/env bash
# bench/any_course.sh - does a change to `solve -a any` keep its course?
# Runs two builds on every record of a file and compares, record by record,
# everything --stats writes but the clock and the memory lines: the answer,
# the solution, the states expanded, generated and stored, and every
# technique counter.  A change that only makes the search cheaper per state
# leaves them all the same; one that changes a decision changes some.
# Prints one line per record that differs, then the records compared and
# the processor seconds of each build (summed over the records).
#
# Usage: bench/any_course.sh OLD_SOLVE NEW_SOLVE FILE.xsb [solve options...]
#   e.g. bench/any_course.sh /tmp/old/solve build/release/solve slow.xsb -t 30
#   A time bound compares solved records only where both solved them (a
#   faster build may go further on the others); a state bound
#   (-t 0 --max-states N) makes both do the same work on every record, so
#   every record must agree.  The runs are LEVELKIT_CLOCK=cpu, -j 1, niced.
# Exit status 1 when a record differs.
set -euo pipefail
old=$1
new=$2
file=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=$(awk 'BEGIN { RS = "" } END { print NR }' "$file")
diffs=0
compared=0
cpu_old=0
cpu_new=0
for ((r = 1; r <= n; r++)); do
	awk -v r="$r" 'BEGIN { RS = "" } NR == r { print $0 "\n" }' "$file" >"$tmp/one.xsb"
	for side in old new; do
		bin=$old
		[[ $side == new ]] && bin=$new
		LEVELKIT_CLOCK=cpu nice -n 10 "$bin" -a any -j 1 --stats --max-memory 1500M "$@" \
			"$tmp/one.xsb" >"$tmp/$side.out" 2>&1 || true
		# the course: every line but the clock's and the memory's
		grep -v -E '^(time|cpu|memory|overhead):' "$tmp/$side.out" >"$tmp/$side.course" || true
	done
	c_old=$(awk '/^cpu:/ { print $2 }' "$tmp/old.out")
	c_new=$(awk '/^cpu:/ { print $2 }' "$tmp/new.out")
	cpu_old=$(awk -v a="$cpu_old" -v b="${c_old:-0}" 'BEGIN { print a + b }')
	cpu_new=$(awk -v a="$cpu_new" -v b="${c_new:-0}" 'BEGIN { print a + b }')
	name=$(grep -m1 '^;' "$tmp/one.xsb" || echo "record $r")
	s_old=$(awk '/^solvable:/ { print $2 }' "$tmp/old.out")
	s_new=$(awk '/^solvable:/ { print $2 }' "$tmp/new.out")
	l_old=$(awk '/^limit:/ { print $2 }' "$tmp/old.out")
	l_new=$(awk '/^limit:/ { print $2 }' "$tmp/new.out")
	# a time bound: a record one build left on time proves nothing
	if [[ $l_old == time || $l_new == time ]]; then
		echo "skipped (time): $name old $s_old ${c_old}s new $s_new ${c_new}s"
		continue
	fi
	compared=$((compared + 1))
	if ! cmp -s "$tmp/old.course" "$tmp/new.course"; then
		diffs=$((diffs + 1))
		echo "DIFFERS: $name"
		diff "$tmp/old.course" "$tmp/new.course" | head -10 || true
	else
		st=$(awk '/^states:/ { print $2 }' "$tmp/new.out")
		echo "same: $name $s_new, $st states, cpu old ${c_old}s new ${c_new}s"
	fi
done
echo "records: $n, compared: $compared, differing: $diffs"
echo "cpu seconds: old $cpu_old, new $cpu_new"
[[ $diffs -eq 0 ]]
