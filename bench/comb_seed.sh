#!/usr/bin/env bash
# bench/comb_seed.sh - Combination against its seed (issue 20 §1), written
# to docs/benchmarks.md (section "comb-seed"):
#  1. the difficulty bias: LEVELS (40) levels of each of --easier, the
#     default local search, the paper's own method (-g paper) and --harder,
#     rated by the paper's measure (rate, 50 runs): the median of each;
#  2. throughput with defaults at 5x5, 6x6 and 7x7 on two workers (-j2):
#     levels written in SECS (60) seconds of CPU-bound running, as levels a
#     minute and a day (the paper: "tens of thousands of levels in a day on
#     a Dual Core 2.4Ghz laptop").  The machine is shared: the CPU time
#     (user+sys) of the run is printed beside the wall time.
# Usage: bench/comb_seed.sh [BUILD_DIR]     (default: build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
levels=${LEVELS:-40}
secs=${SECS:-60}
tmp=$build/bench/comb_seed
mkdir -p "$tmp"
out=$tmp/section.md
median() { sort -g | awk '{a[NR]=$1} END{if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
{
	echo "## Combination against its seed (issue 20)"
	echo
	echo "\`bench/comb_seed.sh\`, $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores."
	echo
	echo "Difficulty bias: $levels levels (seed 11) of each mode, rated by \`rate\` (the paper's measure, 50 runs)."
	echo
	echo "| mode | command | median difficulty | CPU s to generate |"
	echo "|---|---|---|---|"
} > "$out"
for mode in "easier:--easier" "local:" "paper:-g paper" "harder:--harder"; do
	name=${mode%%:*} args=${mode#*:}
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$build/gen" combination -n "$levels" -s 11 -j1 $args \
		> "$tmp/$name.txt" 2>/dev/null
	cpu=$(awk '{print $1 + $2}' "$tmp/time")
	med=$("$build/rate" "$tmp/$name.txt" --format tsv 2>/dev/null |
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "difficulty") c = i; next } { print $c }' | median)
	echo "| $name | \`gen combination -n $levels -s 11 -j1 $args\` | $med | $cpu |" >> "$out"
done
{
	echo
	echo "Throughput with defaults (\`gen combination --size WxH -n 1000000 -j2\` stopped after $secs s):"
	echo
	echo "| size | levels | wall s | CPU s | levels/min (wall) | levels/day on 2 cores (CPU-based) |"
	echo "|---|---|---|---|---|---|"
} >> "$out"
for size in 5x5 6x6 7x7; do
	start=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$tmp/time" timeout -s INT "$secs" "$build/gen" combination --size "$size" \
		-n 1000000 -j2 > "$tmp/tp$size.txt" 2>/dev/null || true
	end=$(date +%s.%N)
	n=$(grep -c '^game:' "$tmp/tp$size.txt" || true)
	cpu=$(awk '{print $1 + $2}' "$tmp/time")
	awk -v n="$n" -v s="$size" -v w="$(echo "$end - $start" | bc)" -v c="$cpu" 'BEGIN {
		printf "| %s | %d | %.0f | %.1f | %.0f | %.0f |\n", s, n, w, c, n / w * 60, (c > 0 ? n / c * 2 * 86400 : 0) }' >> "$out"
done
cat "$out"
write_section comb-seed "$out"
