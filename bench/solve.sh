#!/usr/bin/env bash
# bench/solve.sh - solver benchmarks of issue 2, written to docs/benchmarks.md.
#
# Usage: bench/solve.sh [BUILD_DIR]     (default: build/release)
# Needs ../shared/data/sokoban beside the repository (or LEVELKIT_DATA).
# Takes about eight minutes on a 2-core machine.  The raw TSV of every run
# is kept in BUILD_DIR/bench; REPORT_ONLY=1 rewrites the report from them.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
data=${LEVELKIT_DATA:-../shared/data}/sokoban
out=docs/benchmarks.md
tmp=$build/bench
mkdir -p "$tmp"
solve=$build/solve
[ -x "$solve" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }

now() { date +%s.%N; }
# run NAME ARGS...: time a solve run, TSV to $tmp/NAME.tsv, seconds to $tmp/NAME.time
run() {
	local name=$1; shift
	local t0 t1
	t0=$(now)
	"$solve" --stats -f tsv "$@" > "$tmp/$name.tsv"
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}' > "$tmp/$name.time"
	echo "bench: $name done in $(cat "$tmp/$name.time") s" >&2
}
col() { head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1; }
# summary FILE: levels, solved, proven optimal, median search time, sum of search times
summary() {
	local f=$1 s o t med
	s=$(col "$f" solvable); o=$(col "$f" optimal); t=$(col "$f" time)
	med=$(awk -F'\t' -v t="$t" 'NR>1 {print $t}' "$f" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	awk -F'\t' -v s="$s" -v o="$o" -v t="$t" -v med="$med" 'NR>1 {n++; if ($s=="yes") y++; if ($o!="" && $o!="no") opt++; sum+=$t}
		END {printf "%d\t%d\t%d\t%.3f\t%.1f\n", n, y, opt, med, sum}' "$f"
}
# rate FILE: generated states per second over levels searched >= 0.2 s, and table overhead
rates() {
	local f=$1 g t ov st
	g=$(col "$f" generated); t=$(col "$f" time); ov=$(col "$f" overhead); st=$(col "$f" stored)
	awk -F'\t' -v g="$g" -v t="$t" -v ov="$ov" -v st="$st" 'NR>1 && $t>=0.2 {G+=$g; T+=$t; O+=$ov*$st; S+=$st; n++}
		END {if (T>0) printf "%d\t%.2f\t%.1f\n", n, G/T/1e6, O/S; else printf "0\t0\t0\n"}' "$f"
}

if [ -z "${REPORT_ONLY:-}" ]; then
run microban-astar  -j 2 --timeout 30 "$data/microban.xsb"
run microban-greedy -j 2 --timeout 30 --algo greedy "$data/microban.xsb"
run boxoban-greedy  -j 2 --timeout 30 --algo greedy "$data/boxoban_hard_0-999.xsb"
run boxoban-astar   -j 2 --timeout 30 "$data/boxoban_hard_0-999.xsb"
run bfs-moves  -j 1 --timeout 5 --algo bfs --metric moves --plain -d forward "$data/microban.xsb"
run bfs-pushes -j 1 --timeout 5 --algo bfs --plain -d forward "$data/microban.xsb"
fi

IFS=$'\t' read -r ma_n ma_y ma_o ma_med ma_sum < <(summary "$tmp/microban-astar.tsv")
IFS=$'\t' read -r mg_n mg_y mg_o mg_med mg_sum < <(summary "$tmp/microban-greedy.tsv")
IFS=$'\t' read -r bg_n bg_y bg_o bg_med bg_sum < <(summary "$tmp/boxoban-greedy.tsv")
IFS=$'\t' read -r ba_n ba_y ba_o ba_med ba_sum < <(summary "$tmp/boxoban-astar.tsv")
IFS=$'\t' read -r bm_n bm_rate bm_over < <(rates "$tmp/bfs-moves.tsv")
IFS=$'\t' read -r bp_n bp_rate bp_over < <(rates "$tmp/bfs-pushes.tsv")
IFS=$'\t' read -r _ _ ma_over < <(rates "$tmp/microban-astar.tsv")
unsolved=$(awk -F'\t' -v s="$(col "$tmp/microban-astar.tsv" solvable)" 'NR>1 && $s!="yes" {printf "%s%s", sep, $1; sep=", "}' "$tmp/microban-astar.tsv")
gunsolved=$(awk -F'\t' -v s="$(col "$tmp/microban-greedy.tsv" solvable)" 'NR>1 && $s!="yes" {printf "%s%s", sep, $1; sep=", "}' "$tmp/microban-greedy.tsv")

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
{
cat <<HEAD
## Solving (issue 2)

Recorded by \`bench/solve.sh\` (solver figures of issue 2) on $(date -u +%Y-%m-%d),
commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores ($cpu).
Re-run with \`cmake --workflow --preset release && bench/solve.sh\`.
Times are wall-clock seconds of the whole \`solve\` run; \`-j 2\` solves two levels at once,
each search with its own time limit.

| run | levels | solved | proven optimal | median s/level | sum of search s | wall s | target |
|---|---:|---:|---:|---:|---:|---:|---|
| Microban, A* pushes, both directions, 30 s/level | $ma_n | $ma_y | $ma_o | $ma_med | $ma_sum | $(printf %.1f "$(cat $tmp/microban-astar.time)") | >= 150 proven optimal |
| Microban, greedy, 30 s/level | $mg_n | $mg_y | - | $mg_med | $mg_sum | $(printf %.1f "$(cat $tmp/microban-greedy.time)") | all 155 in < 10 s |
| Boxoban hard 0-999, greedy | $bg_n | $bg_y | - | $bg_med | $bg_sum | $(printf %.1f "$(cat $tmp/boxoban-greedy.time)") | all 1000 in < 60 s |
| Boxoban hard 0-999, A* pushes | $ba_n | $ba_y | $ba_o | $ba_med | $ba_sum | $(printf %.1f "$(cat $tmp/boxoban-astar.time)") | (for scale) |

Microban levels not solved optimally in 30 s (record numbers): ${unsolved:-none}.
Microban levels greedy did not solve (record numbers): ${gunsolved:-none}.

### State table and raw speed

| measure | value | target |
|---|---:|---|
| plain BFS, moves metric (one step per edge), generated states per second, one core ($bm_n levels searched >= 0.2 s) | ${bm_rate} M/s | >= 1 M/s |
| plain BFS, pushes metric, generated states per second, one core ($bp_n levels) | ${bp_rate} M/s | |
| table memory per stored state beyond the key (BFS moves runs) | ${bm_over} bytes | < 24 bytes |
| table memory per stored state beyond the key (Microban A* runs) | ${ma_over} bytes | < 24 bytes |

"Plain" is \`--plain\`: no deadlock pruning, the raw state space.  The table overhead counts
every byte the table holds (probe index of 5 bytes a slot at 3/8 to 3/4 load, parent and
cost of 8 bytes an entry, unused room in the last chunk) minus the packed keys themselves.
HEAD
} > "$tmp/solve-section.md"
write_section solve "$tmp/solve-section.md"
echo "bench: wrote $out" >&2
