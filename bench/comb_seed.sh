#!/usr/bin/env bash
# bench/comb_seed.sh - Combination against its seed (issue 20 §1), written
# to docs/benchmarks.md (section "comb-seed"):
#  1. the difficulty bias: LEVELS (40) levels of each of --easier, the
#     default local search, the paper's own method (-g paper) and --harder
#     (the hardest of pick= builds of the paper's method, climbing on),
#     rated by the paper's measure (rate, 50 runs): the median of each, and
#     whether --easier < the paper's method < --harder;
#  2. throughput with defaults at 5x5, 6x6 and 7x7 on two workers (-j2):
#     levels written in SECS (60) seconds of CPU-bound running, as levels a
#     minute and a day (the paper: "tens of thousands of levels in a day on
#     a Dual Core 2.4Ghz laptop").  The machine is shared: the CPU time
#     (user+sys) of the run is printed beside the wall time.
# Usage: bench/comb_seed.sh [BUILD_DIR [PART]]   (default: build/release;
# PART bias or throughput runs one part and refreshes its section only)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
part=${2:-all}
levels=${LEVELS:-40}
secs=${SECS:-60}
tmp=$build/bench/comb_seed
mkdir -p "$tmp"

median() { sort -g | awk '{a[NR]=$1} END{if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
cpu_of() { awk 'END { print $1 + $2 }' "$1"; }   # the last line: user and system seconds
machine="$(date -u +%Y-%m-%d), load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores"
if [ "$part" = all ] || [ "$part" = bias ]; then
	out=$tmp/bias.md
	{
		echo "## Combination against its seed (issue 20): the difficulty bias"
		echo
		echo "\`bench/comb_seed.sh $build bias\`, $machine."
		echo "$levels levels (seed 11) of each mode, rated by \`rate\` (the paper's measure, 50 runs)."
		echo
		echo "| mode | command | median difficulty | CPU s to generate |"
		echo "|---|---|---|---|"
	} > "$out"
	for mode in "easier:--easier" "local:" "paper:-g paper" "harder:--harder"; do
		name=${mode%%:*} args=${mode#*:}
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$build/gen" combination -n "$levels" -s 11 -j1 $args \
			> "$tmp/$name.txt" 2>/dev/null
		med=$("$build/rate" "$tmp/$name.txt" --format tsv 2>/dev/null |
			awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "difficulty") c = i; next } { print $c }' | median)
		echo "| $name | \`gen combination -n $levels -s 11 -j1 $args\` | $med | $(cpu_of "$tmp/time") |" >> "$out"
		eval "med_$name=\$med"
	done
	# the order the issue asks for: --easier < the paper's method < --harder
	awk -v e="$med_easier" -v p="$med_paper" -v h="$med_harder" 'BEGIN {
		printf "\n`--easier` %s the paper'"'"'s unbiased method %s `--harder` in median difficulty.\n",
			e < p ? "<" : ">=", p < h ? "<" : ">=" }' >> "$out"
	cat "$out"
	write_section comb-seed-bias "$out"
fi
if [ "$part" = all ] || [ "$part" = throughput ]; then
	out=$tmp/throughput.md
	{
		echo "## Combination against its seed (issue 20): throughput"
		echo
		echo "\`bench/comb_seed.sh $build throughput\`, $machine."
		echo "\`gen combination --size WxH -n 1000000 -j2\` with defaults, stopped after $secs s of wall time."
		echo "The machine is shared, so the levels a day are also given from the CPU time (user+sys) the run"
		echo "took, as two cores of our own would make them.  The paper: \"tens of thousands of levels in a"
		echo "day on a Dual Core 2.4Ghz laptop\"."
		echo
		echo "| size | levels | wall s | CPU s | levels/min (wall) | levels/day on 2 cores (from CPU) |"
		echo "|---|---|---|---|---|---|"
	} > "$out"
	for size in 5x5 6x6 7x7; do
		start=$(date +%s.%N)
		/usr/bin/time -f '%U %S' -o "$tmp/time" timeout -s INT "$secs" "$build/gen" combination \
			--size "$size" -n 1000000 -j2 > "$tmp/tp$size.txt" 2>/dev/null || true
		end=$(date +%s.%N)
		n=$(grep -c '^game:' "$tmp/tp$size.txt" || true)
		awk -v n="$n" -v s="$size" -v w="$(echo "$end - $start" | bc)" -v c="$(cpu_of "$tmp/time")" 'BEGIN {
			printf "| %s | %d | %.0f | %.1f | %.0f | %.0f |\n", s, n, w, c, n / w * 60, (c > 0 ? n / c * 2 * 86400 : 0) }' >> "$out"
	done
	cat "$out"
	write_section comb-seed-throughput "$out"
fi
