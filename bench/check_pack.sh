#!/usr/bin/env bash
# bench/check_pack.sh - issue 23's check on a Sokoban pack that is not in the
# repository and was never tuned on (XSokoban's 90 levels, say): solve -a any
# at TIMEOUT processor seconds a level on one core, and the peer solver YASS
# on the other core at the same time (one run, side by side), every levelkit
# solution replayed by solve --verify, then the table of bench/yass_compare.py
# and the totals.  Results are recorded by hand in docs/benchmarks.md (section
# check-xsokoban47).
#
# Usage: bench/check_pack.sh PACK.xsb [OUT_DIR]
#   (--verify exits non-zero on the unsolved records, which have no solution)
#   YASS=PATH     a YASS binary (bench/yass_build.sh); without it levelkit runs alone
#   TIMEOUT=30    processor seconds a level (both solvers)
#   BUILD=build/release
# XSokoban as one pack, from a checkout of andrewcmyers/xsokoban (screens/):
#   for i in $(seq 1 90); do echo "; XSokoban $i"; grep -v '^\s*$' screens/screen.$i
#     echo; done > xs.xsb
set -euo pipefail
cd "$(dirname "$0")/.."
pack=${1:?usage: bench/check_pack.sh PACK.xsb [OUT_DIR]}
out=${2:-build/release/bench-check}
timeout=${TIMEOUT:-30}
build=${BUILD:-build/release}
solve=$build/solve
[ -x "$solve" ] || { echo "check_pack: build first: cmake --workflow --preset release" >&2; exit 2; }
mkdir -p "$out"
name=$(basename "$pack" .xsb)
cp "$pack" "$out/$name.xsb"
pids=()
LEVELKIT_CLOCK=cpu /usr/bin/time -f "%U %S %e %M" -o "$out/levelkit.time" \
	"$solve" -a any -j 1 -t "$timeout" --max-memory 1500M --stats "$out/$name.xsb" \
	> "$out/$name-any.txt" &
pids+=($!)
if [ -n "${YASS:-}" ]; then
	# YASS reads .sok and writes its solutions and statistics beside the input
	cp "$pack" "$out/$name.sok"
	( cd "$out" && /usr/bin/time -f "%U %S %e %M" -o yass.time \
		"$YASS" "$name.sok" -maxtime "$timeout" -prompt no > yass.log 2>&1 ) &
	pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p"; done
echo "levelkit: user sys wall maxrss(KB): $(cat "$out/levelkit.time")"
"$solve" --verify -f tsv --fields record,verified "$out/$name-any.txt" 2>/dev/null |
	awk 'NR > 1 { n[$2]++ } END { for (k in n) printf "verified %s: %d\n", k, n[k] }' || true
awk 'BEGIN { RS = "" } /solvable: yes/ { n++; if (match($0, /\ncpu: [0-9.]+/)) t += substr($0, RSTART + 6, RLENGTH - 6) }
	END { printf "levelkit solved %d, their cpu %.1f s\n", n, t }' "$out/$name-any.txt"
if [ -n "${YASS:-}" ]; then
	echo "yass: user sys wall maxrss(KB): $(cat "$out/yass.time")"
	python3 bench/yass_compare.py "$out/$name-any.txt" "$out/$name, YASS"*"Statistics.txt"
fi
