#!/usr/bin/env bash
# bench/hard.sh - the hard-level figures of issue 23, written to
# docs/benchmarks.md (section "hard"): solve -a any on Sasquatch I-III,
# Microban and Boxoban hard, every solution replayed by solve --verify,
# beside a build from before the issue and, when given, the YASS solver.
#
# Usage: bench/hard.sh [BUILD_DIR]            (default: build/release)
#   BEFORE=DIR   a build of main from before the issue (its best search for
#                any solution was -a greedy): the "before" rows
#   YASS=PATH    a YASS binary (Brian Damgaard's YASS, GPL Pascal, built by
#                the user from its public source; never part of levelkit):
#                run on the same packs with the same time per level, two
#                levels at once like -j 2
#   TIMEOUT=30   seconds per level for Sasquatch (the issue's 30 s)
#   QUICK=1      Sasquatch I only (for trying the script)
#   PEERS_QUICK=1  the before build and YASS on Sasquatch I only (on a
#                loaded machine the three Sasquatch runs take hours); the
#                table then also gives -a any's figures on Sasquatch I
#   ONLY="a b"   run only these runs (names of the raw files: sasq-any,
#                microban-any, ..., before-sasq-greedy, yass), keeping the
#                others' raw files, then write the report
# Needs ../shared/data beside the repository (or LEVELKIT_DATA).  The
# Sasquatch runs take up to 150 x TIMEOUT / 2 seconds each; run under nice
# on a shared machine.  Raw TSVs stay in BUILD_DIR/bench-hard; REPORT_ONLY=1
# rewrites the report from them.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
data=${LEVELKIT_DATA:-../shared/data}/sokoban
timeout=${TIMEOUT:-30}
tmp=$build/bench-hard
mkdir -p "$tmp"
solve=$build/solve
[ -x "$solve" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
packs="$data/sasquatch1.xsb $data/sasquatch2.xsb $data/sasquatch3.xsb"
[ -n "${QUICK:-}" ] && packs="$data/sasquatch1.xsb"
peer_packs=$packs
[ -n "${PEERS_QUICK:-}" ] && peer_packs="$data/sasquatch1.xsb"
# want NAME: is run NAME to be run now?
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
mem=1G

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# run NAME SOLVE ARGS...: a solve run to $tmp/NAME.txt (records, for
# --verify) and $tmp/NAME.tsv, its wall seconds and the load
run() {
	local name=$1 bin=$2 t0 t1 l0
	shift 2
	want "$name" || return 0
	l0=$(load)
	t0=$(now)
	# processor seconds of the whole process (user + system), any build
	{ TIMEFORMAT='%U %S'; time nice "$bin" --stats "$@" >"$tmp/$name.txt" 2>"$tmp/$name.err" || true; } \
		2>"$tmp/$name.times"
	awk '{printf "%.1f", $1 + $2}' "$tmp/$name.times" >"$tmp/$name.user"
	t1=$(now)
	"$build/filter" -f tsv --fields record,title,solvable,pushes,optimal,time,cpu,stored,overhead,limit \
		'has(solvable)' "$tmp/$name.txt" >"$tmp/$name.tsv" 2>/dev/null || true
	awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}' >"$tmp/$name.time"
	echo "$l0 / $(load)" >"$tmp/$name.load"
	echo "bench: $name done in $(cat "$tmp/$name.time") s (load $(cat "$tmp/$name.load"))" >&2
}
col() { head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1; }
# summary FILE: levels, solved, sum of search wall s, sum of cpu s (or -)
summary() {
	local f=$1 s t c
	s=$(col "$f" solvable); t=$(col "$f" time); c=$(col "$f" cpu || true)
	awk -F'\t' -v s="$s" -v t="$t" -v c="${c:-0}" -v upto="${2:-0}" 'NR>1 && (!upto || $1 <= upto) {n++; if ($s=="yes") y++; T+=$t; if (c && $c != "") {C+=$c; k++}}
		END {printf "%d\t%d\t%.1f\t%s\n", n, y, T, k ? sprintf("%.1f", C) : "-"}' "$f"
}
# verified FILE: solutions that replay to a win / solutions
verified() {
	local f=$1
	"$solve" --verify -f tsv --fields verified "$tmp/$f.txt" 2>/dev/null |
		awk -F'\t' 'NR>1 {n++; if ($1=="yes") y++} END {printf "%d/%d", y, n}'
}

if [ -z "${REPORT_ONLY:-}" ]; then
	# text records too, for --verify
	run sasq-any "$solve" -a any -j 2 -t "$timeout" --max-memory $mem $packs
	run microban-any "$solve" -a any -j 1 -t 30 --max-memory $mem "$data/microban.xsb"
	run microban-astar "$solve" -j 2 -t 30 --no-fallback --max-memory $mem "$data/microban.xsb"
	run boxoban-any "$solve" -a any -j 1 -t 30 --max-memory $mem "$data/boxoban_hard_0-999.xsb"
	run boxoban-greedy "$solve" -a greedy -j 1 -t 30 --max-memory $mem "$data/boxoban_hard_0-999.xsb"
	if [ -n "${BEFORE:-}" ]; then
		run before-sasq-greedy "$BEFORE/solve" -a greedy -j 2 -t "$timeout" --max-memory $mem $peer_packs
		want before-sasq-greedy && echo "$peer_packs" >"$tmp/before-sasq-greedy.packs"
		run before-microban-greedy "$BEFORE/solve" -a greedy -j 1 -t 30 --max-memory $mem "$data/microban.xsb"
		run before-microban-astar "$BEFORE/solve" -j 2 -t 30 --max-memory $mem "$data/microban.xsb"
		run before-boxoban-greedy "$BEFORE/solve" -a greedy -j 1 -t 30 --max-memory $mem "$data/boxoban_hard_0-999.xsb"
	fi
	if [ -n "${YASS:-}" ] && want yass; then
		echo "$peer_packs" >"$tmp/yass.packs"
		# one YASS process per pack, two at a time (like -j 2); its own
		# report file says what it solved and how long each level took
		rm -rf "$tmp/yass" && mkdir -p "$tmp/yass"
		for p in $peer_packs; do cp "$p" "$tmp/yass/$(basename "$p" .xsb).sok"; done
		l0=$(load); t0=$(now)
		{ TIMEFORMAT='%U %S'; time (cd "$tmp/yass" && ls ./*.sok | xargs -P 2 -I{} sh -c \
			'nice "$0" "$1" -maxtime "$2" -prompt no >"$1.log" 2>&1 || true' "$YASS" {} "$timeout"); } \
			2>"$tmp/yass.times"
		awk '{printf "%.1f", $1 + $2}' "$tmp/yass.times" >"$tmp/yass.user"
		t1=$(now)
		awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}' >"$tmp/yass.time"
		echo "$l0 / $(load)" >"$tmp/yass.load"
	fi
fi

row() {   # row LABEL NAME TARGET [UPTO: records 1..UPTO only, no whole-run times]
	local f=$tmp/$2.tsv n y ws cs
	[ -f "$f" ] || return 0
	IFS=$'\t' read -r n y ws cs < <(summary "$f" "${4:-0}")
	if [ -n "${4:-}" ]; then
		printf '| %s | %s | %s | %s | %s | - | - | %s |\n' "$1" "$n" "$y" "$ws" "$cs" "$3"
		return
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$n" "$y" "$ws" "$cs" \
		"$(cat "$tmp/$2.user" 2>/dev/null || echo -)" "$(cat "$tmp/$2.time")" "$3"
}
# packs_label NAME: which Sasquatch packs run NAME had
packs_label() {
	case "$(cat "$tmp/$1.packs" 2>/dev/null)" in
	*sasquatch2*) echo "Sasquatch I-III" ;;
	*sasquatch1*) echo "Sasquatch I" ;;
	*) echo "Sasquatch I-III" ;;
	esac
}
yass_row() {
	[ -f "$tmp/yass.time" ] || return 0
	local solved=0 levels=0
	for log in "$tmp"/yass/*.log; do
		s=$(sed -n 's/^Solved: \([0-9]*\)  Levels: \([0-9]*\).*/\1 \2/p' "$log" | tail -1)
		[ -n "$s" ] || continue
		solved=$((solved + ${s% *}))
		levels=$((levels + ${s#* }))
	done
	printf '| YASS 2.153, %s, %s s/level, 2 at a time | %s | %s | - | - | %s | %s | (peer, same machine) |\n' \
		"$(packs_label yass)" "$timeout" "$levels" "$solved" "$(cat "$tmp/yass.user" 2>/dev/null || echo -)" "$(cat "$tmp/yass.time")"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
sect=$tmp/hard-section.md
{
cat <<HEAD
## Hard levels (issue 23)

Recorded by \`bench/hard.sh\` on $(date -u +%Y-%m-%d), levelkit built from commit $(cat "$build/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown),
$(nproc) cores ($cpu), shared with other engineers: the load average (1, 5, 15 min) before / after
each run is listed below, and \`-t\` is wall-clock time, so a loaded machine gives each level less
processor time than its limit.  Re-run with \`BEFORE=old-build YASS=path/to/yass${PEERS_QUICK:+ PEERS_QUICK=1} bench/hard.sh\`.
"search s" sums the searches' wall-clock seconds, "cpu s" their processor seconds (\`--stats\` cpu,
which the build from before the issue does not write), "process s" the processor seconds (user and
system) of the whole run, the figure to compare between builds and with YASS.

| run | levels | solved | search s | cpu s | process s | wall s | target |
|---|---:|---:|---:|---:|---:|---:|---|
HEAD
row "Sasquatch I-III, -a any, ${timeout} s/level, -j 2" sasq-any ">= 90 % solved"
if [ "$(packs_label before-sasq-greedy)" = "Sasquatch I" ] || [ "$(packs_label yass)" = "Sasquatch I" ]; then
	row "of which Sasquatch I (records 1-50)" sasq-any "" 50
fi
row "before: $(packs_label before-sasq-greedy), -a greedy, ${timeout} s/level, -j 2" before-sasq-greedy "(main before issue 23)"
yass_row
row "Microban, -a any, 30 s/level" microban-any "all 155 in < 2 s in all"
row "before: Microban, -a greedy" before-microban-greedy "(main before issue 23)"
row "Microban, A* pushes, 30 s/level, -j 2 (optimal only)" microban-astar "all 155 proved optimal"
row "before: Microban, A* pushes, 30 s/level, -j 2" before-microban-astar "(main before issue 23)"
row "Boxoban hard 0-999, -a any" boxoban-any "no slower than before, < 1 s"
row "Boxoban hard 0-999, -a greedy" boxoban-greedy ""
row "before: Boxoban hard 0-999, -a greedy" before-boxoban-greedy "(main before issue 23)"
echo
# the targets, met or not, read off the runs above
goal() {   # goal NAME: levels solved cpu
	[ -f "$tmp/$1.tsv" ] && summary "$tmp/$1.tsv" | awk -F'\t' '{print $1, $2, $4}'
}
if read -r n y c < <(goal sasq-any); then
	awk -v n="$n" -v y="$y" -v c="$c" -v t="$timeout" 'BEGIN {
		printf "**Targets.**  Sasquatch I-III: %d of %d solved, %.0f %% (goal >= 90 %%: %s); ", y, n, 100 * y / n, (y >= 0.9 * n) ? "met" : "missed"
		printf "the searches had %.1f processor seconds per level on average against a %s s wall-clock limit, ", c / n, t
		printf "%.0f %% of one core.  ", 100 * c / n / t }'
fi
if read -r n y c < <(goal microban-any); then
	awk -v n="$n" -v y="$y" -v c="$c" 'BEGIN {
		printf "Microban with -a any: %d of %d solved in %s processor seconds of search (goal all %d in < 2 s: %s).  ", y, n, c, n, (y == n && c < 2) ? "met" : "missed" }'
fi
if [ -f "$tmp/microban-astar.tsv" ]; then
	s=$(col "$tmp/microban-astar.tsv" optimal)
	awk -F'\t' -v s="$s" 'NR > 1 {n++; if ($s == "pushes") p++} END {
		printf "Microban proved push-optimal: %d of %d (goal all: %s).  ", p, n, (p == n) ? "met" : "missed" }' "$tmp/microban-astar.tsv"
fi
if read -r n y c < <(goal boxoban-any) && read -r bn by bc < <(goal before-boxoban-greedy); then
	awk -v y="$y" -v c="$c" -v by="$by" -v bw="$(cat "$tmp/before-boxoban-greedy.user" 2>/dev/null)" -v w="$(cat "$tmp/boxoban-any.user")" 'BEGIN {
		printf "Boxoban hard with -a any: %d of 1000 in %s processor seconds of search, %s s for the whole process against %s s before (goal no slower, < 1 s: %s).", y, c, w, bw, (w + 0 <= bw + 0.05 && c + 0 < 1) ? "met" : "missed" }'
fi
echo
echo
if [ -f "$tmp/sasq-any.txt" ]; then
	echo "Solutions of the Sasquatch -a any run replayed by \`solve --verify\`: $(verified sasq-any) verified."
fi
if [ -f "$tmp/microban-any.txt" ]; then
	echo "Solutions of the Microban -a any run replayed: $(verified microban-any) verified."
fi
if [ -f "$tmp/microban-astar.tsv" ]; then
	s=$(col "$tmp/microban-astar.tsv" optimal)
	echo "Microban levels not proved optimal in 30 s: $(awk -F'\t' -v s="$s" 'NR>1 && $s!="pushes" {printf "%s%s", sep, $1; sep=", "}' "$tmp/microban-astar.tsv")."
fi
# bytes per stored state beyond the key, weighted by the states stored
overhead() {
	local f=$tmp/$1.tsv o st
	[ -f "$f" ] || return 0
	o=$(col "$f" overhead); st=$(col "$f" stored)
	awk -F'\t' -v o="$o" -v st="$st" 'NR>1 && $st>0 {O+=$o*$st; S+=$st} END {if (S) printf "%.1f", O/S}' "$f"
}
echo
echo "Memory per stored state beyond the packed key (weighted by states stored): A* on Microban"
echo "$(overhead microban-astar) bytes (the state table alone); -a any on Sasquatch $(overhead sasq-any) bytes"
echo "(levels greedy first solved count its table alone; the others the feature-space search's table,"
echo "node flags, move lists, expansions and cells: its move lists, about 2 entries of 4 bytes a state,"
echo "are what a search that plays one move at a time from any expanded state costs beyond A*'s)."
echo
echo "Load average before / after each run:"
echo
for f in "$tmp"/*.load; do
	echo "- $(basename "$f" .load): $(cat "$f")"
done
echo
echo "Unsolved Sasquatch levels (record numbers, I: 1-50, II: 51-100, III: 101-150):"
if [ -f "$tmp/sasq-any.tsv" ]; then
	s=$(col "$tmp/sasq-any.tsv" solvable)
	awk -F'\t' -v s="$s" 'NR>1 && $s!="yes" {printf "%s%s", sep, $1; sep=", "} END {print "."}' "$tmp/sasq-any.tsv"
fi
} >"$sect"
write_section hard "$sect"
echo "bench: wrote docs/benchmarks.md" >&2
