#!/usr/bin/env bash
# bench/seeds_slide.sh - Skiddy (seed 001) and Fruit Dating (seed 002): what
# each article gives beside levelkit's figures under the faithful
# configuration, written to docs/benchmarks.md (section "seeds-slide").
#
# Usage: bench/seeds_slide.sh [BUILD_DIR]   (default build/release).  A few
# minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
tmp=$build/bench
mkdir -p "$tmp"
for b in gen rate filter; do
	[ -x "$build/$b" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
done
load_before=$(uptime | sed 's/.*load average: //')
col() { head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1; }
median() { sort -g | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : 0 }'; }

# Fruit Dating: the article's generator (8x8, a 6x6 playing area), levels of
# at least 6 moves as its final example, two cores
t0=$(date +%s.%N)
"$build/gen" fruit -n 200 --seed 5 --min-moves 6 -j 2 -o "$tmp/fruit-seed.xsb" --force 2>"$tmp/fruit-gen.err"
t1=$(date +%s.%N)
f_rate=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", 200 * 60 / (b - a) }')
"$build/rate" -k 0 --no-mixedaim -f tsv "$tmp/fruit-seed.xsb" >"$tmp/fruit-seed.tsv" 2>/dev/null
f_moves=$(awk -F'\t' -v c="$(col "$tmp/fruit-seed.tsv" moves)" 'NR > 1 { print $c }' "$tmp/fruit-seed.tsv" | median)
f_states=$(awk -F'\t' -v c="$(col "$tmp/fruit-seed.tsv" reachable)" 'NR > 1 { print $c }' "$tmp/fruit-seed.tsv" | median)
f_maxstates=$(awk -F'\t' -v c="$(col "$tmp/fruit-seed.tsv" reachable)" 'NR > 1 { print $c }' "$tmp/fruit-seed.tsv" | sort -g | tail -1)
f_dense=$("$build/filter" -c 'obstacle-density > 0.08' "$tmp/fruit-seed.xsb")
f_dead=$("$build/filter" -c 'dead-ends > 0' "$tmp/fruit-seed.xsb")

# Skiddy: every generated level rated 0-3 stars by the article's rules; the
# shortest solutions listed as the article collects them
t2=$(date +%s.%N)
"$build/gen" skiddy -n 200 --seed 5 --stars 3 -j 2 -o "$tmp/skiddy3.xsb" --force 2>/dev/null
t3=$(date +%s.%N)
s_rate=$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.0f", 200 * 60 / (b - a) }')
"$build/gen" skiddy -n 200 --seed 5 -j 2 -o "$tmp/skiddy-any.xsb" --force 2>/dev/null
stars=$(for s in 0 1 2 3; do "$build/filter" -c "stars == $s" "$tmp/skiddy-any.xsb" || true; done | tr '\n' ' ')
"$build/rate" -k 0 --no-mixedaim --list-solutions 1000 -f tsv "$tmp/skiddy3.xsb" >"$tmp/skiddy3.tsv" 2>/dev/null
s_sol=$(awk -F'\t' -v c="$(col "$tmp/skiddy3.tsv" solutions)" 'NR > 1 { print $c }' "$tmp/skiddy3.tsv" | median)
s_listed=$(awk -F'\t' -v c="$(col "$tmp/skiddy3.tsv" shortest-solutions)" -v n="$(col "$tmp/skiddy3.tsv" solutions)" \
	'NR > 1 { k = split($c, w, " "); if (w[k] == "...") k--; if (k == $n) ok++; t++ } END { printf "%d of %d", ok, t }' "$tmp/skiddy3.tsv")
s_states=$(awk -F'\t' -v c="$(col "$tmp/skiddy3.tsv" reachable)" 'NR > 1 { print $c }' "$tmp/skiddy3.tsv" | median)
load_after=$(uptime | sed 's/.*load average: //')
read -r st0 st1 st2 st3 <<<"$stars"

cat >"$tmp/seeds-slide.md" <<EOT
## Skiddy (seed 001) and Fruit Dating (seed 002), issue 20

Recorded by \`bench/seeds_slide.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown),
two cores shared with other jobs: load average $load_before at the start, $load_after at the end.
Each row: what the article gives, and levelkit's figure under the article's configuration.

| seed | the article | levelkit |
|---|---|---|
| 002 | boards up to 8x8, a 6x6 playing area inside a solid border | \`gen fruit\` makes 8x8 by default (\`--size\` up to 16x16) |
| 002 | the brute-force solver meets 4^10 > 1 million board situations by move 10; the corrected solver is uniform-cost search over unique situations | every state once in the hashed table: of 200 generated levels of at least 6 moves, median $f_states reachable states, at most $f_maxstates, each whole graph explored |
| 002 | "after 1-2 minutes of clicking on the Generate button we have a level" of 6 moves | $f_rate levels a minute of at least 6 moves (\`gen fruit --min-moves 6 -j 2\`), median $f_moves moves |
| 002 | the generator also makes "levels full of obstacles", thrown away by hand | \`obstacle-density\` to filter on: $f_dense of the 200 above 0.08 (\`filter 'obstacle-density <= 0.08'\` keeps the rest); $f_dead of the 200 have a dead end (\`--no-dead-ends\`) |
| 001 | a level is rated 0-3 stars: no dead ends, solvable with and without the max-combo, no non-combo solution shorter than the combo | of 200 levels from \`gen skiddy\` (no star threshold): $st0 rated 0 stars, $st1 one, $st2 two, $st3 three |
| 001 | only 3-star levels are for the game | $s_rate three-star levels a minute (\`gen skiddy --stars 3 -j 2\`) |
| 001 | all the solutions are collected while the wins are propagated | \`shortest-solutions\` lists them: on the 200 three-star levels a median of $s_sol shortest solution(s) a level, the list complete on $s_listed levels (\`rate --list-solutions 1000\`); median $s_states reachable states |
EOT
write_section seeds-slide "$tmp/seeds-slide.md"
echo "bench: wrote docs/benchmarks.md" >&2
