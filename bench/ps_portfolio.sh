#!/usr/bin/env bash
# bench/ps_portfolio.sh - does solve's default search ever solve fewer levels
# than BFS? (issue 21, section 3) Every level of the ten demo games and the
# level of every distinct game of the reference's test suite, solved twice at
# SECONDS per level (default 2), CPU seconds (LEVELKIT_CLOCK=cpu: the machine
# is shared): `solve` (auto: A*, and BFS beside it where the heuristic is no
# proven bound) and `solve -a bfs`.  Written to
# docs/benchmarks.md (section "puzzlescript-portfolio").
#
# Usage: bench/ps_portfolio.sh [BUILD_DIR] [SECONDS]
#   (defaults: build/release, 2); FROM=N goes on from the N-th level of a
#   stopped run; LIST=FILE runs only the levels FILE names (lines "set<TAB>
#   script name<TAB>level", as the results' first columns; a suite game by
#   its file name, 240.txt) and writes its table to BUILD_DIR/bench/
#   portfolio-section.md only, not to docs/benchmarks.md.  Needs node (to
#   split the test suite into games).  About half an hour on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
secs=${2:-2}
data=${LEVELKIT_DATA:-../shared/data}
tmp=$build/bench
mkdir -p "$tmp"
[ -x "$build/solve" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
load_before=$(uptime | sed 's/.*load average: //')
export LEVELKIT_CLOCK=cpu   # bounds in CPU seconds: other jobs do not stretch them

# the levels: set, script, map number (1-based, as the records' level field)
list=$tmp/portfolio.list
: > "$list"
for game in microban sokoban_basic sokoban_match3 sokoban_sticky all_green_to_blue blockfaker \
	zenpuzzlegarden byyourside limerick kettle; do
	f=$data/puzzlescript/games/$game.txt
	"$build/ps_bfs" "$f" --max-generated 1 |
		awk -F'\t' -v g="$game" -v f="$f" '$1 ~ /^[0-9]+$/ { print g "\t" f "\t" ++n }' >> "$list"
done
node bench/ps_suite_games.js "$data/puzzlescript/testdata.jsonl" "$tmp/suite" > "$tmp/suite.tsv"
while IFS=$'\t' read -r file index seed name; do
	# the map number of the script's index-th level (messages included)
	n=$("$build/ps_bfs" "$tmp/suite/$file" --max-generated 1 2>/dev/null |
		awk -F'\t' -v i="$index" '$1 ~ /^[0-9]+$/ { k++; if ($1 == i) print k }')
	[ -n "$n" ] && printf 'suite\t%s\t%s\n' "$tmp/suite/$file" "$n" >> "$list"
done < "$tmp/suite.tsv"

if [ -n "${LIST:-}" ]; then
	# only these levels, in the full list's form
	awk -F'\t' 'NR == FNR { k = $1 "\t" $2 "\t" $3; want[k] = 1; next }
		{ n = split($2, p, "/"); if (($1 "\t" p[n] "\t" $3) in want) print }' "$LIST" "$list" > "$list.only"
	mv "$list.only" "$list"
fi

# one solve: solvable, moves, seconds, which search answered (or the error);
# FIELDS: auto's include search, which a single search has not
one() {
	local script=$1 level=$2 fields=$3
	shift 3
	# a script the commands refuse (one the reference plays with errors)
	# is reported by filter: its message is the row's
	local picked
	picked=$("$build/filter" "level == $level" "$script" 2>&1 >/dev/null | head -n 1)
	if [ -n "$picked" ]; then
		printf 'error\t\t\t%s\n' "${picked#*: }"
		return
	fi
	"$build/filter" "level == $level" "$script" 2>/dev/null |
		"$build/solve" "$@" -t "$secs" --max-memory 1G --stats -f tsv \
			--fields "$fields" 2>&1 |
		awk -F'\t' 'NR == 2 { print $1 "\t" $2 "\t" $3 "\t" $4; found = 1 }
			/^solve: / && !found { sub(/.*: /, ""); err = $0 }
			END { if (!found) print "error\t\t\t" err }'
}
out=$tmp/portfolio.tsv
# FROM=N: go on from the list's N-th level, keeping the rows before it (a
# stopped run resumed)
from=${FROM:-1}
if [ "$from" -gt 1 ] && [ -s "$out" ]; then
	head -n "$from" "$out" > "$out.tmp" && mv "$out.tmp" "$out"
else
	from=1
	printf 'set\tscript\tlevel\tauto\tauto moves\tauto s\tanswered\tbfs\tbfs moves\tbfs s\n' > "$out"
fi
while IFS=$'\t' read -r set script level; do
	a=$(one "$script" "$level" solvable,moves,time,search || true)
	b=$(one "$script" "$level" solvable,moves,time -a bfs | cut -f1-3 || true)
	printf '%s\t%s\t%s\t%s\t%s\n' "$set" "$script" "$level" "$a" "$b" >> "$out"
done < <(tail -n +"$from" "$list")
load_after=$(uptime | sed 's/.*load average: //')

read -r n nerr bfs_yes auto_yes missed extra < <(awk -F'\t' 'NR > 1 { n++
		if ($4 == "error") { e++; next }
		if ($8 == "yes" || $8 == "no") b++; if ($4 == "yes" || $4 == "no") a++
		if (($8 == "yes" || $8 == "no") && $4 != $8) m++
		if (($4 == "yes" || $4 == "no") && $4 != $8) x++ }
	END { print n + 0, e + 0, b + 0, a + 0, m + 0, x + 0 }' "$out")
missed_rows=$(awk -F'\t' 'NR > 1 && $4 != "error" && ($8 == "yes" || $8 == "no") && $4 != $8 {
		k = split($2, p, "/"); printf "| %s | %s | %s | %s | %s (%s s) | %s |\n", $1, p[k], $3, $4, $8, $10, $9 }' "$out")
answered=$(awk -F'\t' 'NR > 1 && $7 ~ /answered/ { split($7, w, ": "); c[w[2]]++ }
	END { for (k in c) printf "%s%s: %d", (s++ ? ", " : ""), k, c[k] }' "$out")
errors=$(awk -F'\t' 'NR > 1 && $4 == "error" { c[$7]++ } END { for (k in c) printf "%d: %s; ", c[k], k }' "$out")

cat > "$tmp/portfolio-section.md" <<EOT
## PuzzleScript: the default search against BFS (issue 21)

Recorded by \`bench/ps_portfolio.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown),
$(nproc) cores, shared with other jobs: load average $load_before at the start, $load_after at the
end.  Every level of the ten demo games and the level each distinct game of the reference's test
suite is tested on, solved twice with \`-t $secs\` in CPU seconds (\`LEVELKIT_CLOCK=cpu\`): \`solve\`
(the default, \`auto\`) and \`solve -a bfs\`.  "Answered" counts, where \`auto\` ran A* and BFS in
turns, which of the two answered.

| levels | not read | answered by BFS | answered by auto | BFS answered, auto not | auto answered, BFS not |
|---:|---:|---:|---:|---:|---:|
| $n | $nerr | $bfs_yes | $auto_yes | $missed | $extra |

Where \`auto\` ran both: ${answered:-none}.  Not read (one message each, both searches): ${errors:-none}.
${missed_rows:+
Levels BFS answered and auto did not:

| set | script | level | auto | BFS | BFS moves |
|---|---|---:|---|---|---:|
$missed_rows}
EOT
if [ -n "${LIST:-}" ]; then
	echo "bench: $n levels of $LIST: $tmp/portfolio-section.md (docs/benchmarks.md untouched)" >&2
	exit 0
fi
write_section puzzlescript-portfolio "$tmp/portfolio-section.md"
echo "bench: wrote docs/benchmarks.md ($missed levels BFS answered and auto did not)" >&2
