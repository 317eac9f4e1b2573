#!/usr/bin/env bash
# bench/thesis_games.sh - the thesis measure (rate --measure thesis) on the
# games that are not PuzzleScript: Fruit Dating, Skiddy and Lights Out, whose
# win the thesis's heuristic reads as a PuzzleScript win condition ("no
# Fruit", "no Skiddy", "no LightOn").  For 100 generated levels of each:
# the three solvers' counts, which one is least (the thesis's difficulty),
# and how the thesis's difficulty ranks the levels against levelkit's
# default measure.  Written to docs/benchmarks.md (section "thesis-games").
#
# Usage: bench/thesis_games.sh [BUILD_DIR]   (default build/release).  Under
# a minute on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
tmp=$build/bench
mkdir -p "$tmp"
for b in gen rate; do
	[ -x "$build/$b" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "bench: needs python3 (the rank correlation)" >&2; exit 2; }
load_before=$(uptime | sed 's/.*load average: //')
fields=record,states-bfs,states-astar,states-greedy,difficulty-min

# summary TSV: median of each count; how often greedy, A* and BFS are least
summary() {
	python3 - "$1" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
rows = [r for r in rows if all(x.isdigit() for x in r[1:5])]
def med(c):
    v = sorted(int(r[c]) for r in rows)
    return v[(len(v) - 1) // 2] if v else 0
least = {"bfs": 0, "astar": 0, "greedy": 0}
for r in rows:
    b, a, g = int(r[1]), int(r[2]), int(r[3])
    m = min(b, a, g)
    least["greedy" if g == m else "astar" if a == m else "bfs"] += 1
print(len(rows), med(1), med(2), med(3), med(4), least["greedy"], least["astar"], least["bfs"])
PY
}

# spearman A B: rank correlation of difficulty-min (column 2 of A, 5 of B)
spearman() {
	python3 - "$1" "$2" <<'PY'
import sys
def load(p, c):
    d = {}
    for i, l in enumerate(open(p)):
        f = l.rstrip("\n").split("\t")
        if i and f[c - 1].isdigit():
            d[f[0]] = int(f[c - 1])
    return d
a, b = load(sys.argv[1], 2), load(sys.argv[2], 5)
k = [x for x in a if x in b]
def ranks(v):
    s = sorted(range(len(v)), key=lambda i: v[i]); r = [0.0] * len(v); i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and v[s[j + 1]] == v[s[i]]:
            j += 1
        for t in range(i, j + 1):
            r[s[t]] = (i + j) / 2
        i = j + 1
    return r
x, y = ranks([a[t] for t in k]), ranks([b[t] for t in k])
n = len(k); mx = sum(x) / n; my = sum(y) / n
cov = sum((p - mx) * (q - my) for p, q in zip(x, y))
den = (sum((p - mx) ** 2 for p in x) * sum((q - my) ** 2 for q in y)) ** 0.5
print("%.2f" % (cov / den if den else 0.0))
PY
}

rows=""
for game in fruit skiddy lightsout; do
	case $game in
	fruit) gen_args="--min-moves 6" ;;
	skiddy) gen_args="--min-moves 5" ;;
	lightsout) gen_args="--size 4x4 --min-moves 5" ;;
	esac
	# shellcheck disable=SC2086
	"$build/gen" "$game" -n 100 --seed 7 -j 1 $gen_args -o "$tmp/tg-$game.xsb" --force 2>/dev/null
	t0=$(date +%s.%N)
	"$build/rate" --measure thesis -k 0 --no-graph -t 10 -j 1 -f tsv --fields "$fields" \
		"$tmp/tg-$game.xsb" >"$tmp/tg-$game-thesis.tsv" 2>/dev/null
	t1=$(date +%s.%N)
	"$build/rate" -k 0 --no-graph -t 10 -j 1 -f tsv --fields record,difficulty-min \
		"$tmp/tg-$game.xsb" >"$tmp/tg-$game-default.tsv" 2>/dev/null
	read -r n mb ma mg md lg la lb <<<"$(summary "$tmp/tg-$game-thesis.tsv")"
	sp=$(spearman "$tmp/tg-$game-default.tsv" "$tmp/tg-$game-thesis.tsv")
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	rows="$rows| $game | $n | $mb | $ma | $mg | $md | $lg / $la / $lb | $sp | $secs s |
"
done
load_after=$(uptime | sed 's/.*load average: //')

cat >"$tmp/thesis-games.md" <<EOT
## The thesis measure on the other games (issue 20)

Recorded by \`bench/thesis_games.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown),
two cores shared with other jobs: load average $load_before at the start, $load_after at the end.

\`rate --measure thesis -k 0 --no-graph\` on 100 levels of each game from \`gen GAME -n 100 --seed 7\`
(fruit of at least 6 moves, skiddy of at least 5, Lights Out 4x4 of at least 5 presses).  The
thesis's heuristic reads each game's win as a PuzzleScript win condition: Fruit Dating's
\`no Fruit\`, Skiddy's \`no Skiddy\`, Lights Out's \`no LightOn\` (+1 each; docs/commands.md#the-thesis-measure).
Medians of the states each solver expanded; which solver expanded fewest (ties to greedy, then A*);
the Spearman correlation of the thesis's \`difficulty-min\` with levelkit's default (in which the
slide games count BFS alone, having no estimate of their own, and Lights Out runs A* on its
admissible bound); the rating's wall time.

| game | levels | BFS | A* | greedy | difficulty-min | least: greedy / A* / BFS | Spearman with the default | time |
|---|---:|---:|---:|---:|---:|---|---:|---:|
$rows
EOT
write_section thesis-games "$tmp/thesis-games.md"
echo "bench: docs/benchmarks.md section thesis-games written" >&2
