#!/usr/bin/env bash
# bench/rating.sh - the rating of issue 22, written to docs/benchmarks.md:
#   1. rate --features over every pack of ../shared/data (Boxoban's three
#      splits, Microban, Sasquatch I-III, the PuzzleScript demo games);
#   2. bench/rating_fit.py on them: held-out figures of the rating beside the
#      published measures and the lengths (FIT=1 also rewrites the fitted
#      block of src/search/rating_model.c; rebuild and re-run to see it);
#   3. the speed: rate -j 2 on the 1,000 Boxoban hard levels, the default
#      (every measure and the rating), in wall and CPU seconds.
#
# Usage: bench/rating.sh [BUILD_DIR]     (default: build/release)
# Needs ../shared/data beside the repository (or LEVELKIT_DATA) and python3.
# Takes about an hour on a 2-core machine (the Sasquatch packs and the
# PuzzleScript games search to their bounds); the TSVs are kept in
# BUILD_DIR/bench/rating, and REUSE=1 fits again on those there without rating
# anything (a pack whose TSV is missing is left out of the figures).
# SECTION names the docs/benchmarks.md section written (default: rating).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
data=${LEVELKIT_DATA:-../shared/data}
tmp=$build/bench/rating
mkdir -p "$tmp"
rate=$build/rate
[ -x "$rate" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench: python3 is needed for bench/rating_fit.py" >&2; exit 2; }

# Bounds: states first (the same on any machine), time only as a backstop,
# counted in CPU seconds so that a loaded machine does not change the tables.
export LEVELKIT_CLOCK=cpu
sokoban_bounds=(--max-states 500000 -t 30)
hard_bounds=(--max-states 50000 -t 2)       # Sasquatch: most levels hit them
ps_bounds=(--max-states 200000 -t 5)

features() {   # NAME INPUT BOUNDS...
	local name=$1 input=$2
	shift 2
	if [ "${REUSE:-0}" = 1 ]; then
		[ -s "$tmp/$name.tsv" ] || echo "bench: no $tmp/$name.tsv: $name left out" >&2
		return
	fi
	echo "bench: rating $name" >&2
	nice "$rate" --features -j 2 "$@" -f tsv "$input" > "$tmp/$name.tsv"
}

for p in boxoban_unfiltered_test_0-999 boxoban_medium_valid_0-999 boxoban_hard_0-999 microban; do
	features "$p" "$data/sokoban/$p.xsb" "${sokoban_bounds[@]}"
done
for p in sasquatch1 sasquatch2 sasquatch3; do
	features "$p" "$data/sokoban/$p.xsb" "${hard_bounds[@]}"
done
for g in "$data"/puzzlescript/games/*.txt; do
	features "ps_$(basename "$g" .txt)" "$g" "${ps_bounds[@]}"
done

fit_args=("$tmp" --markdown "$tmp/fit.md")
[ "${FIT:-0}" = 1 ] && fit_args+=(--write src/search/rating_model.c)
python3 bench/rating_fit.py "${fit_args[@]}" > /dev/null

# The speed of the default rate (every measure and the rating) on Boxoban hard.
t0=$(date +%s.%N)
cpu0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
"$rate" -j 2 -f tsv "$data/sokoban/boxoban_hard_0-999.xsb" > "$tmp/speed.tsv"
t1=$(date +%s.%N)
cpu1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
tick=$(getconf CLK_TCK)
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v t="$tick" 'BEGIN { printf "%.1f", (b - a) / t }')
load=$(cut -d' ' -f1-3 /proc/loadavg)

text=$(mktemp)
{
	echo "## The rating (issue 22)"
	echo
	echo "Written by \`bench/rating.sh\` on $(date -u +%Y-%m-%d) (load average $load on $(nproc) cores)."
	echo "Held-out figures: each level is scored by a model fitted with its own fold of its pack"
	echo "left out (\`bench/rating_fit.py\`, 5 folds); the other columns are the measures as rate"
	echo "writes them.  A level a measure has no value for ranks lowest.  docs/rating.md says how to"
	echo "read them."
	echo
	cat "$tmp/fit.md"
	echo
	echo "Speed: \`rate -j 2\` (every measure and the rating, the defaults) on the 1,000 Boxoban hard"
	echo "levels took $wall s of wall time and $cpu s of CPU time (user + system; the machine is shared,"
	echo "so the CPU time is the figure to compare: under 60 s of CPU is under 30 s on two free cores)."
} > "$text"
write_section "${SECTION:-rating}" "$text"
rm -f "$text"
echo "bench: rating written to docs/benchmarks.md" >&2
