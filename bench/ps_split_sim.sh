#!/usr/bin/env bash
# bench/ps_split_sim.sh - how should solve's auto portfolio (A* and BFS in
# turns counted in generated states, src/search/search.c, PORTFOLIO_*) share
# its work?  Solves each level of LIST with A* alone and BFS alone (-t
# SECONDS, CPU seconds), keeps the states each generated to answer and its
# CPU time per state, then replays the portfolio's turns on those counts for
# a grid of decays (A*'s turn PORTFOLIO_SLICE * tau / (tau + n), never less
# than a floor) and prints, per setting, the levels it answers within 2,
# 1.5 and 1 s and those it loses that A* or BFS alone answers in 2 s; "clock"
# is the old split, 0.1 / (0.1 + t) of the time to a sixteenth.  A model
# (each search's cost per state taken as constant on a level; the flat
# heuristic rule left out): the chosen setting is then checked for real by
# bench/ps_portfolio.sh.  Recorded in docs/benchmarks.md, ps-auto-det.
#
# Usage: bench/ps_split_sim.sh [BUILD_DIR] [LIST] [SECONDS]
#   defaults: build/release, the list bench/ps_portfolio.sh made in
#   BUILD_DIR/bench/portfolio.list (run it with LIST=... first), 6.
#   Needs python3.  About 5 minutes on one core for the 35 hard levels.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
list=${2:-$build/bench/portfolio.list}
secs=${3:-6}
[ -s "$list" ] || { echo "bench: no $list: run LIST=bench/ps_portfolio_hard.list bench/ps_portfolio.sh first" >&2; exit 2; }
out=$build/bench/split.tsv
export LEVELKIT_CLOCK=cpu
: > "$out"
while IFS=$'\t' read -r set script level; do
	for a in astar bfs; do
		r=$("$build/filter" "level == $level" "$script" 2>/dev/null |
			"$build/solve" -a "$a" -t "$secs" --max-memory 1G --stats -f tsv \
				--fields solvable,generated,cpu 2>/dev/null |
			awk -F'\t' 'NR == 2 { print $1 "\t" $2 "\t" $3 }')
		printf '%s/%s\t%s\t%s\n' "${script##*/}" "$level" "$a" "$r" >> "$out"
	done
done < "$list"

python3 - "$out" <<'EOF'
import sys, collections
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    name, algo, solvable, gen, cpu = line.rstrip('\n').split('\t')
    rows[name][algo] = (solvable in ('yes', 'no'), int(gen), float(cpu))

def replay(r, tau, floor, bound, clock=False, slice_=1024):
    """who answers and when: A*'s turn first, then BFS's, as in search.c"""
    (okA, genA, cpuA), (okB, genB, cpuB) = r['astar'], r['bfs']
    ca, cb = cpuA / max(genA, 1), cpuB / max(genB, 1)
    needA = genA if okA else float('inf')
    needB = genB if okB else float('inf')
    ga = gb = t = 0.0
    while True:
        if clock:   # turns of 10 ms, A*'s 0.1 / (0.1 + t) of it
            da = max(0.1 / (0.1 + t), 1 / 16) * 0.01 / ca
            db = 0.01 / cb
        else:
            da = max(slice_ * tau / (tau + ga + gb), slice_ * floor)
            db = slice_
        for need, g, d, c, who in ((needA, ga, da, ca, 'astar'), (needB, gb, db, cb, 'bfs')):
            if g + d >= need:
                T = t + (need - g) * c
                return (who, T) if T <= bound else (None, bound)
            t += d * c
            if t > bound:
                return (None, bound)
        ga += da
        gb += db

def line(label, **kw):
    n = {b: sum(bool(replay(r, bound=b, **kw)[0]) for r in rows.values()) for b in (2, 1.5, 1)}
    lost = [k for k, r in sorted(rows.items()) if not replay(r, bound=2, **kw)[0]
            and any(r[a][0] and r[a][2] <= 2 for a in ('astar', 'bfs'))]
    print('| %s | %d | %d | %d | %s |' % (label, n[2], n[1.5], n[1], ', '.join(lost) or 'none'))

print('| split | answered in 2 s | in 1.5 s | in 1 s | lost at 2 s (answered alone) |')
print('|---|---:|---:|---:|---|')
line('clock: 0.1 s / (0.1 s + t), to 1/16', tau=0, floor=0, clock=True)
for tau in (1000, 2000, 5000, 30000, 100000):
    for floor in (1 / 8, 1 / 16):
        line('states: %d / (%d + n), to 1/%d' % (tau, tau, round(1 / floor)), tau=tau, floor=floor)
print('\n%d levels; A* alone answers %d in 2 s, BFS alone %d' % (len(rows),
      sum(r['astar'][0] and r['astar'][2] <= 2 for r in rows.values()),
      sum(r['bfs'][0] and r['bfs'][2] <= 2 for r in rows.values())))
EOF
