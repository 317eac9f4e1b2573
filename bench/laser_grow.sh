#!/usr/bin/env bash
# bench/laser_grow.sh - issue 20's monolithic rows at the paper's scale, with
# the designer grown from the sources (laser_grow.c, the monolithic presets'
# default at 10 pieces and more) beside the searching designer: CPU seconds
# per level on one core, 10 x 10, the palette 6 SP2, 2 SP3, 6 CMB2, 2 CMB3,
# 12 BND, three sources, two or three targets, no distractor, 10 blockers
# first (none for monolithic-open).  Prints markdown rows for the tables of
# docs/benchmarks.md's "Generation at the paper's scale" (section laser-20).
#
# Usage: bench/laser_grow.sh [BUILD_DIR]   N (10 levels a run), SECONDS_CPU
# (120: CPU seconds a run at most; 3x that on the wall clock)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
drv=$build/laser_driver
n=${N:-10}
secs=${SECONDS_CPU:-120}
tmp=$build/bench/laser-grow
mkdir -p "$tmp"
[ -x "$drv" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
palette='6 SP2, 2 SP3, 6 CMB2, 2 CMB3, 12 BND'
# run TAG ARGS...: "levels cpu boards pieces blockers" (as laser_refraction.sh's gen_run)
run() {
	local tag=$1
	shift
	( ulimit -t "$secs"; exec /usr/bin/time -f %U -o "$tmp/$tag.cpu" timeout $((3 * secs)) "$drv" gen \
		-n "$n" --seed 21 "$@" --stats "$tmp/$tag.stats" > "$tmp/$tag.txt" 2>/dev/null ) || true
	touch "$tmp/$tag.stats"
	local cpu made
	cpu=$(tail -1 "$tmp/$tag.cpu" 2>/dev/null | grep '^[0-9.][0-9.]*$' || echo "$secs")
	made=$(awk -F'\t' '$2 == "ok"' "$tmp/$tag.stats" | wc -l)
	echo "$made $cpu $(awk -F'\t' '{ b += $4 } END { print b + 0 }' "$tmp/$tag.stats") $(awk 'BEGIN { RS = "" } {
		n++; split($0, L, "\n")
		for (i in L) {
			l = L[i]
			if (l ~ /^fixed: . (SRC|TGT)/) p++
			else if (l ~ /^tray:/) { split(l, w, " "); p += w[2] }
			else if (l !~ /:/ && l ~ /^[.#A-Za-z]+$/) b += gsub(/#/, "#", l)
		}
	} END { printf "%.1f %.1f", n ? (p + b) / n : 0, n ? b / n : 0 }' "$tmp/$tag.txt")"
}
per() { awk -v m="$1" -v c="$2" 'BEGIN { printf m ? "%.2f (%d levels)" : "- (0 levels in %.0f s)", m ? c / m : c, m }'; }
echo "| preset, at least N placed | designer | CPU s per level | boards a level | pieces, blockers a level |"
echo "|---|---|---|---|---|"
for row in "monolithic 12" "monolithic-open 12" "monolithic 11" "monolithic 10"; do
	read -r p k <<<"$row"
	blk=10
	case $p in *-open*) blk=0 ;; esac
	for d in grow search; do
		g=-1
		[ $d = search ] && g=0
		read -r m c b pieces bl <<<"$(run "$p-$k-$d" --preset "$p" --pieces "$palette" --sources 3 --targets 2-3 \
			--min-pieces "$k" --distractors 0 --blockers "$blk" --grow "$g")"
		echo "| $p, $k | $d | $(per "$m" "$c") | $(awk -v b="$b" -v m="$m" 'BEGIN { printf m ? "%.0f" : "%d, none", m ? b / m : b }') | $pieces, $bl |"
	done
done
echo
echo "(Run on $(date -u +%F), load average $(cut -d' ' -f1-3 /proc/loadavg) at its end; $n levels or $secs s of CPU a run.)"
