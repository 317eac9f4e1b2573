#!/usr/bin/env bash
# bench/gen.sh - generation benchmarks of issue 3, written to docs/benchmarks.md
# (the section after the "end of solve benchmarks" marker).
#
# Usage: bench/gen.sh [BUILD_DIR]     (default: build/release)
# Needs ../shared/data/sokoban (or LEVELKIT_DATA) for the --suggest timings.
# Takes about three minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
data=${LEVELKIT_DATA:-../shared/data}/sokoban
out=docs/benchmarks.md
tmp=$build/bench
mkdir -p "$tmp"
for b in gen solve filter; do
	[ -x "$build/$b" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
done

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", b - a}'; }

# gen_run NAME ARGS...: run gen, then count distinct solvable levels meeting nothing else;
# prints: levels, seconds, distinct, verified, mean pushes, levels per second, per hour
gen_run() {
	local name=$1; shift
	local t0 t1 n d v p s
	t0=$(now)
	"$build/gen" sokoban "$@" -o "$tmp/$name.xsb" 2> "$tmp/$name.log"
	t1=$(now)
	s=$(secs "$t0" "$t1")
	n=$(grep -c '^index:' "$tmp/$name.xsb")
	d=$("$build/filter" --dedupe --count "$tmp/$name.xsb")
	v=$("$build/solve" --verify "$tmp/$name.xsb" | grep -c '^verified: yes' || true)
	p=$(awk '/^pushes:/ {s+=$2; n++} END {printf "%.1f", n ? s/n : 0}' "$tmp/$name.xsb")
	awk -v n="$n" -v s="$s" -v d="$d" -v v="$v" -v p="$p" \
		'BEGIN {printf "%d\t%.2f\t%d\t%d\t%s\t%.1f\t%.0f\n", n, s, d, v, p, d/s, d/s*3600}'
}

row() {   # row LABEL TARGET NAME ARGS...
	local label=$1 target=$2 name=$3; shift 3
	IFS=$'\t' read -r n s d v p rate hour < <(gen_run "$name" "$@")
	echo "bench: $name: $d distinct levels in $s s" >&2
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$n" "$d" "$v" "$p" "$s" \
		"$rate" "$hour $target"
}

table=$(
	row "backward, 10x10, 4 boxes, >= 20 pushes" "(target: >= 3600)" b20 -n 2000 --seed 1 -j 2 --min-pushes 20
	row "backward, 10x10, 4 boxes, >= 30 pushes" "" b30 -n 300 --seed 2 -j 2 --min-pushes 30
	row "backward, 12x12, 5 boxes, >= 30 pushes" "" b12 -n 100 --seed 3 -j 2 --size 12x12 -p boxes=5 --min-pushes 30
	row "transform (mix), random 10x10 rooms, 30 steps" "" t10 -n 100 --seed 4 -j 2 -g transform --max-states 200000
)

# --suggest on Microban levels: time to the first suggestion.
suggest_times=$tmp/suggest.tsv
: > "$suggest_times"
for i in 20 40 60 80 100 120 140; do
	awk -v k="$i" 'BEGIN {RS=""; ORS="\n\n"} NR == k' "$data/microban.xsb" > "$tmp/m$i.xsb"
	"$build/gen" sokoban --from "$tmp/m$i.xsb" --suggest 4 --time-limit 5 -o "$tmp/s$i.xsb" \
		2> "$tmp/s$i.log" || true
	first=$(sed -n 's/.*first after \([0-9.-]*\) s.*/\1/p' "$tmp/s$i.log")
	cand=$(sed -n 's/.*: \([0-9]*\) candidates in.*/\1/p' "$tmp/s$i.log")
	best=$(awk '/^difficulty-min:/ {print $2; exit}' "$tmp/s$i.xsb" 2>/dev/null || echo -)
	printf '%s\t%s\t%s\t%s\n' "$i" "$first" "$cand" "${best:--}" >> "$suggest_times"
	echo "bench: suggest on Microban $i: first after $first s" >&2
done
suggest_rows=$(awk -F'\t' '{printf "| Microban %s | %s | %s | %s |\n", $1, $2, $3, $4}' "$suggest_times")
worst=$(awk -F'\t' 'BEGIN {m = 0} {if ($2 > m) m = $2} END {print m}' "$suggest_times")

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
{
	cat <<EOT
## Generation (issue 3)

Recorded by \`bench/gen.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown),
$(nproc) cores ($cpu).  "Distinct" counts what \`filter --dedupe\` keeps; "verified" what
\`solve --verify\` replays to a solved state.  Rates count distinct levels over the wall time of
the whole \`gen\` run, with \`-j 2\`.

| setting | levels | distinct | verified | mean pushes | seconds | distinct/s | distinct/hour |
|---|---:|---:|---:|---:|---:|---:|---:|
$table

Target: at least 1 distinct, solvable, 10x10 four-box level with at least 20 optimal pushes per
second (3600 an hour; the Boxoban hard levels average about 18 pushes).

### \`--suggest 4\` on Microban levels

Time until the first suggestion, candidates tried in 5 s, and the hardest suggestion's MixedAim
difficulty (fewest states explored).  Target: the first suggestion within 2 s (MixedAim's users
waited up to 20 s per candidate).  Worst here: ${worst} s.

| level | first suggestion (s) | candidates in 5 s | hardest difficulty-min |
|---|---:|---:|---:|
$suggest_rows
EOT
} > "$tmp/gen-section.md"

write_section gen "$tmp/gen-section.md"
echo "bench: wrote $out" >&2
