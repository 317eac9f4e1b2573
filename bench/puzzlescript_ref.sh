#!/usr/bin/env bash
# bench/puzzlescript_ref.sh - levelkit's PuzzleScript engine against the
# reference JavaScript engine (increpare/PuzzleScript), level by level, side
# by side in one run (issue 21), written to docs/benchmarks.md (section
# "puzzlescript-ref"):
#  1. every level of the ten demo games and the level of every distinct game
#     of the reference's test suite (testdata.jsonl): the same plain
#     breadth-first search on both engines (bench/ps_compare.sh: the reference
#     for DEMO_SECONDS / SUITE_SECONDS of CPU time, levelkit for exactly the
#     turns it ran), states per CPU second and their ratio, and whether the two
#     searches met the same states (a fidelity check on every level);
#  2. the number a user gets: `solve -a bfs --plain` over microban.txt, states
#     generated per CPU second, and the memory per stored state.
#
# The reference is fetched at run time (never part of levelkit): PS_REF names a
# checkout (the repository or its src/); without it the pinned commit below is
# fetched into BUILD_DIR/bench/PuzzleScript with git.  Needs node.
#
# Usage: bench/puzzlescript_ref.sh [BUILD_DIR]   (default build/release)
#   DEMO_SECONDS (2), SUITE_SECONDS (1): the reference's CPU seconds per level;
#   SUITE_GAMES=N: only the first N suite games (a quick check);
#   REUSE=1: the tables from BUILD_DIR/bench/ref-demo.tsv and ref-suite.tsv
#   as an earlier run (or bench/ps_compare.sh runs on parts of the lists, put
#   together) left them, without comparing again.
#   About 25 minutes of one core.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
demo_secs=${DEMO_SECONDS:-2}
suite_secs=${SUITE_SECONDS:-1}
data=${LEVELKIT_DATA:-../shared/data}
tmp=$build/bench
mkdir -p "$tmp"
[ -x "$build/ps_bfs" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
command -v node >/dev/null || { echo "bench: node is needed to run the reference engine" >&2; exit 2; }

# ---- the reference, pinned
commit=4db08ebe1939411ac07eee916d3a98defa9820b8
ref=${PS_REF:-$tmp/PuzzleScript}
if [ ! -f "$ref/js/engine.js" ] && [ ! -f "$ref/src/js/engine.js" ]; then
	echo "bench: fetching the reference engine ($commit) into $ref" >&2
	rm -rf "$ref"
	git init -q "$ref"
	git -C "$ref" fetch -q --depth 1 https://github.com/increpare/PuzzleScript "$commit"
	git -C "$ref" checkout -q FETCH_HEAD
fi
[ -f "$ref/js/engine.js" ] || ref=$ref/src
ref_commit=$(git -C "$ref" rev-parse --short HEAD 2>/dev/null || echo "as given")
export PS_REF=$ref

load_before=$(uptime | sed 's/.*load average: //')
cpu0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)

# ---- the levels: every map of the demo games, one level per suite game
demo_games="microban sokoban_basic sokoban_match3 sokoban_sticky all_green_to_blue blockfaker zenpuzzlegarden byyourside limerick kettle"
: > "$tmp/ref-demo.list"
for game in $demo_games; do
	f=$data/puzzlescript/games/$game.txt
	[ -f "$f" ] || { echo "bench: $f not found (set LEVELKIT_DATA)" >&2; exit 2; }
	"$build/ps_bfs" "$f" --max-generated 1 |
		awk -F'\t' -v g="$game" -v f="$f" '$1 ~ /^[0-9]+$/ { print g "\t" f "\t" $1 "\t-" }' >> "$tmp/ref-demo.list"
done
node bench/ps_suite_games.js "$data/puzzlescript/testdata.jsonl" "$tmp/suite" > "$tmp/suite.tsv"
awk -F'\t' -v d="$tmp/suite" -v max="${SUITE_GAMES:-0}" 'max == 0 || NR <= max { print "suite\t" d "/" $1 "\t" $2 "\t" $3 }' \
	"$tmp/suite.tsv" > "$tmp/ref-suite.list"

if [ "${REUSE:-0}" = 1 ] && [ -s "$tmp/ref-demo.tsv" ] && [ -s "$tmp/ref-suite.tsv" ]; then
	echo "bench: the tables from $tmp/ref-demo.tsv and ref-suite.tsv (REUSE=1)" >&2
else
	bench/ps_compare.sh "$tmp/ref-demo.list" "$demo_secs" "$build" > "$tmp/ref-demo.tsv"
	bench/ps_compare.sh "$tmp/ref-suite.list" "$suite_secs" "$build" > "$tmp/ref-suite.tsv"
fi

# ---- the number a user gets: solve -a bfs --plain on microban.txt
solve_out=$tmp/ref-microban-solve.tsv
solve_cpu=$( { /usr/bin/time -f '%U %S' "$build/solve" -a bfs --plain -t 10 --max-memory 2G --stats -f tsv \
	--fields record,solvable,moves,generated,stored,memory,time \
	"$data/puzzlescript/games/microban.txt" > "$solve_out"; } 2>&1 | tail -1 | awk '{ print $1 + $2 }')
load_after=$(uptime | sed 's/.*load average: //')
cpu1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)

# ---- tables
# ratios FILE...: compared levels, agreeing, min, median, max ratio, below 10x
# (the first line of each file is its header)
ratios() {
	local r n a
	r=$(for f in "$@"; do tail -n +2 "$f"; done | awk -F'\t' '$14 != "-" { print $14 + 0 }' | sort -g)
	a=$(for f in "$@"; do tail -n +2 "$f"; done | awk -F'\t' '$14 != "-" && $15 == "agree"' | wc -l)
	n=$(printf '%s\n' "$r" | grep -c . || true)
	[ "$n" -gt 0 ] || { printf '0\t0\t-\t-\t-\t0\n'; return; }
	printf '%s\n' "$r" | awk -v n="$n" -v a="$a" '{ v[NR] = $1; if ($1 < 10) low++ }
		END { m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		      printf "%d\t%d\t%.1f\t%.1f\t%.1f\t%d\n", n, a, v[1], m, v[n], low }'
}
demo_rows=$(for game in $demo_games; do
	awk -F'\t' -v g="$game" 'NR > 1 && $1 == g' "$tmp/ref-demo.tsv" > "$tmp/ref-demo-$game.tsv.body"
	{ head -1 "$tmp/ref-demo.tsv"; cat "$tmp/ref-demo-$game.tsv.body"; } > "$tmp/ref-demo-$game.tsv"
	IFS=$'\t' read -r n a mn md mx _ < <(ratios "$tmp/ref-demo-$game.tsv")
	means=$(awk -F'\t' '$14 != "-" { c++; r += $8; l += $13 } END { if (c) printf "%.0f | %.0f", r / c, l / c; else print "- | -" }' \
		"$tmp/ref-demo-$game.tsv.body")
	echo "| $game | $n | $a | $means | $mn | $md | $mx |"
done)
IFS=$'\t' read -r dn da dmin dmed dmax dlow < <(ratios "$tmp/ref-demo.tsv")
IFS=$'\t' read -r sn sa smin smed smax slow < <(ratios "$tmp/ref-suite.tsv")
IFS=$'\t' read -r an aa amin amed amax alow < <(ratios "$tmp/ref-demo.tsv" "$tmp/ref-suite.tsv")
low_rows=$(awk -F'\t' 'FNR > 1 && $14 != "-" && $14 + 0 < 10 { n = split($2, p, "/")
		printf "| %s | %s | %s | %s | %s | %s |\n", p[n], $3, $8, $13, $14, $15 }' "$tmp/ref-demo.tsv" "$tmp/ref-suite.tsv")
failed_rows=$(awk -F'\t' 'FNR > 1 && $14 == "-" { n = split($2, p, "/"); printf "%s%s (level %s): %s", (k++ ? "; " : ""), p[n], $3, $15 }' \
	"$tmp/ref-demo.tsv" "$tmp/ref-suite.tsv")
# per demo game, its largest search: the key's bytes and the bytes per stored state
mem_rows=$(awk -F'\t' 'NR > 1 && $16 != "-" { g = $1; if (!(g in o)) { o[g] = ++k; nm[k] = g }
		if ($9 + 0 > st[g]) { st[g] = $9 + 0; kb[g] = $16; bs[g] = $17 } }
	END { for (j = 1; j <= k; j++) { g = nm[j]
		printf "%s%s %s B key, %.0f B per state (%d states)", (j > 1 ? "; " : ""), g, kb[g], bs[g], st[g] } }' \
	"$tmp/ref-demo.tsv")
read -r sgen sstored smem ssolved slevels < <(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ g += $c["generated"]; s += $c["stored"]; if ($c["memory"] > m) { m = $c["memory"]; ms = $c["stored"] }
	  n++; if ($c["solvable"] == "yes") y++ }
	END { printf "%d %d %.1f %d %d\n", g, s, ms ? m / ms : 0, y, n }' "$solve_out")
solve_rate=$(awk -v g="$sgen" -v t="$solve_cpu" 'BEGIN { printf "%.0f", (t > 0 ? g / t : 0) }')
bench_cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", (b - a) / hz }')

if [ "${REUSE:-0}" = 1 ]; then
	run_note="the comparisons of an earlier run, put together (REUSE=1; see the notes below the tables)"
else
	run_note="load average $load_before at the start, $load_after at the end (1, 5 and 15 minutes); $bench_cpu s of CPU in all"
fi
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
cat > "$tmp/ps-ref-section.md" <<EOT
## PuzzleScript engine against the reference engine (issue 21)

Recorded by \`bench/puzzlescript_ref.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown),
reference engine increpare/PuzzleScript $ref_commit under node $(node --version), $(nproc) cores ($cpu),
shared with other jobs: $run_note.  Re-run with \`cmake --workflow --preset release &&
bench/puzzlescript_ref.sh\` (it fetches the reference at the commit above; \`PS_REF\` names a copy).

**Side by side, level by level.**  Both engines run the same plain breadth-first search
(\`bench/ps_ref_bfs.js\` drives the reference: \`restoreLevel\`, \`processInput\` and its again turns,
the key its \`level.objects\`; \`bench/ps_bfs.c\` drives levelkit over its packed keys): every input
from every state, a won state not expanded.  The reference runs first for $demo_secs CPU seconds
(demo games) or $suite_secs (test-suite games), repeated while a search ends sooner so that its
JIT is warm; levelkit then runs exactly the turns the reference ran, repeated for at least 0.3 CPU
seconds.  Rates are states generated (turns run) per CPU second of each process; the ratio is
levelkit's over the reference's.  Since both searched the same turns, the states stored and
whether a win was met must agree: that is checked on every level ("agree").

| | levels compared | agree | min ratio | median | max | below 10x |
|---|---:|---:|---:|---:|---:|---:|
| demo games, every level | $dn | $da | $dmin | $dmed | $dmax | $dlow |
| test-suite games (one level each) | $sn | $sa | $smin | $smed | $smax | $slow |
| all | $an | $aa | $amin | $amed | $amax | $alow |

Per demo game (rates are the mean over its levels, states per CPU second):

| game | levels | agree | reference | levelkit | min ratio | median | max |
|---|---:|---:|---:|---:|---:|---:|---:|
$demo_rows

Levels below 10x (script, level index as the reference's loadLevel counts, rates, ratio, check):
${low_rows:+
| script | level | reference | levelkit | ratio | check |
|---|---:|---:|---:|---:|---|
$low_rows}$([ -n "$low_rows" ] || echo none.)

Not compared: ${failed_rows:-none}.

Memory per stored state (ps_bfs: the packed key and the state table's overhead: links, probe
index, growth slack), at each demo game's largest search: ${mem_rows}.

**The number a user gets.**  \`solve -a bfs --plain -t 10 --stats\` over microban.txt's levels
($ssolved of $slevels solved): $sgen states generated in $solve_cpu CPU seconds of the process,
**$solve_rate states per CPU second**; $sstored states stored, $smem bytes per stored state at the
largest search (key and table, as \`--stats\` reports \`memory\`).
EOT
write_section puzzlescript-ref "$tmp/ps-ref-section.md"
echo "bench: wrote docs/benchmarks.md (demo $dmin-$dmax, median $dmed; suite $smin-$smax, median $smed)" >&2
