#!/bin/sh
# cli_honest_test.sh - issue 18's first section: answers that must not get
# lost nor look stronger than they are.
#
#  - tsv: every command writes its own columns whatever its first level
#    holds (unsolvable, undecided, rejected), and --fields with a name there
#    is not is an error;
#  - rate on levels whose runs fail: the difficulty is a lower bound
#    (difficulty: >= X, difficulty-runs), checked against the same runs
#    without the bound; a level no search decided gets its bounds and a
#    lower-bound grade;
#  - limit whenever a search behind a field hit a bound, the other
#    searches' solution when the optimal solve did not finish, rate's
#    solution replayed by solve --verify;
#  - Ctrl-C: the level in progress says limit: interrupted.
#
# usage: cli_honest_test.sh SOLVE RATE TEST_LEVELS_DIR LEVELS_DIR
#
# The sh -c scripts below take their arguments as $1, $2...: the single
# quotes are meant.
# shellcheck disable=SC2016
set -u

SOLVE=$1
RATE=$2
TLEVELS=$3
LEVELS=$4
SMALL=$TLEVELS/small.xsb
MEDIUM=$LEVELS/boxoban-medium-sample.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start honest

# level N FILE: the Nth record of a file (blank-line separated), with its
# blank line
level() {
	awk -v n="$1" 'BEGIN { RS = ""; ORS = "\n\n" } NR == n' "$2"
}

# header FILE: the tsv header, one name a line
header() {
	head -n 1 "$1" | tr '\t' '\n'
}

# has_columns WHAT FILE NAME...: the tsv header has every name
has_columns() {
	what=$1
	file=$2
	shift 2
	for name in "$@"; do
		checks=$((checks + 1))
		header "$file" | grep -q -x -e "$name" || fail "$what: no column '$name' in: $(head -n 1 "$file")"
	done
}

# cell FILE TITLE NAME: the value in the row of that title
cell() {
	awk -F '\t' -v title="$2" -v name="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next }
		$2 == title { print (col ? $col : "NO-COLUMN") }' "$1"
}

# column FILE NAME: the values of a named column, one a line (no header)
column() {
	awk -F '\t' -v name="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next }
		{ print (col ? $col : "NO-COLUMN") }' "$1"
}

# ------------------------------------------------ tsv: the own columns

# Three packs whose first level is unsolvable, undecided (at the bounds
# below) or rejected (no player), each followed by two levels that solve.
{ level 4 "$SMALL"; level 2 "$SMALL"; level 3 "$SMALL"; } >"$TMP/unsolvable.xsb"
{ level 3 "$SMALL"; level 2 "$SMALL"; } >"$TMP/undecided.xsb"
{ printf '; no player\n#####\n# $.#\n#####\n\n'; level 2 "$SMALL"; level 3 "$SMALL"; } >"$TMP/rejected.xsb"
bounds="-d forward --max-states 3 --no-fallback"   # Round the corner needs more, one push does not
# a concept query chooses its own search (forward), and -d is refused with it
cbounds="--max-states 3"

for first in unsolvable undecided rejected; do
	in=$TMP/$first.xsb
	# shellcheck disable=SC2086
	"$SOLVE" $bounds -f tsv "$in" >"$TMP/t" 2>/dev/null
	has_columns "solve, $first first" "$TMP/t" solvable moves pushes optimal states solution limit
	# shellcheck disable=SC2086
	"$RATE" $bounds -k 3 -f tsv "$in" >"$TMP/r" 2>/dev/null
	has_columns "rate, $first first" "$TMP/r" solvable moves pushes optimal difficulty \
		difficulty-sd difficulty-se difficulty-min states-bfs states-astar states-greedy grade \
		difficulty-runs optimum solution limit
	expect_true "rate, $first first: difficulty is column 7, as documented" \
		test "$(head -n 1 "$TMP/r" | cut -f 7)" = difficulty
	# the values stay in their columns: the one push solves within the bounds
	expect_true "rate, $first first: the one push's solution in its column" \
		test "$(cell "$TMP/r" "Level 1: one push" solution)" = R
	expect_true "rate, $first first: the one push's pushes in its column" \
		test "$(cell "$TMP/r" "Level 1: one push" pushes)" = 1
	# shellcheck disable=SC2086
	"$SOLVE" $cbounds --exists 'count(push) >= 1' -f tsv "$in" >"$TMP/t" 2>/dev/null
	has_columns "solve --exists, $first first" "$TMP/t" concept exists solvable example-facts example limit
	# shellcheck disable=SC2086
	"$SOLVE" $cbounds --shortcut 'count(push) >= 2' -f tsv "$in" >"$TMP/t" 2>/dev/null
	has_columns "solve --shortcut, $first first" "$TMP/t" concept requires solvable shortcut-facts shortcut limit
	expect_true "solve --shortcut, $first first: the one push's shortcut in its column" \
		test "$(cell "$TMP/t" "Level 1: one push" shortcut)" = R
done
# what they say about the first level
"$RATE" -k 3 -f tsv "$TMP/unsolvable.xsb" >"$TMP/t" 2>/dev/null
expect_true "rate: the unsolvable first level" test "$(column "$TMP/t" solvable | head -n 1)" = no
expect_true "rate: the unsolvable first level has no grade" test -z "$(column "$TMP/t" grade | head -n 1)"
expect_true "rate: the second level's solution in its column" test "$(column "$TMP/t" solution | sed -n 2p)" = R
# shellcheck disable=SC2086
"$RATE" $bounds -k 3 -f tsv "$TMP/undecided.xsb" >"$TMP/t" 2>/dev/null
expect_true "rate: the undecided first level" test "$(column "$TMP/t" solvable | head -n 1)" = unknown
expect_true "rate: the undecided first level's limit" test "$(column "$TMP/t" limit | head -n 1)" = states
expect_true "rate: the undecided first level's bound" \
	test "$(column "$TMP/t" states-bfs | head -n 1 | cut -c 1-3)" = ">= "

# solve --verify: a first record without a solution (rejected), and one
# whose solution fails (verified: no, no lengths)
"$SOLVE" "$TMP/unsolvable.xsb" >"$TMP/solved.xsb" 2>/dev/null
"$SOLVE" --verify -f tsv "$TMP/solved.xsb" >"$TMP/t" 2>/dev/null
has_columns "solve --verify, a first level without solution" "$TMP/t" verified moves pushes verify-error
sed '0,/^solution: R$/s//solution: L/' "$TMP/solved.xsb" | "$SOLVE" --verify -f tsv >"$TMP/t" 2>/dev/null
has_columns "solve --verify, a first solution that fails" "$TMP/t" verified moves pushes verify-error
expect_true "solve --verify: the second level's moves" test "$(column "$TMP/t" moves | sed -n 2p)" = 5

# json writes what the record holds: the first level's own answer, the
# second level's fields
# shellcheck disable=SC2086
"$RATE" $bounds -k 3 -f json "$TMP/undecided.xsb" >"$TMP/j" 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
	expect_true "rate -f json on an undecided first level" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows[0]["solvable"] == "unknown" and rows[0]["limit"] == "states", rows[0]
assert rows[0]["states-bfs"].startswith(">= "), rows[0]
assert rows[1]["solvable"] == "yes" and rows[1]["moves"] == 1 and rows[1]["solution"] == "R", rows[1]
' "$TMP/j"
fi

# --fields: a name that is no field is an error, before any work
for cmd in "$SOLVE" "$RATE"; do
	name=$(basename "$cmd")
	rc=0
	"$cmd" -f tsv --fields record,mvoes "$SMALL" >"$TMP/out" 2>"$TMP/err" || rc=$?
	expect_true "$name --fields record,mvoes: exit status $rc" test "$rc" = 2
	expect_true "$name --fields record,mvoes: nothing written" test ! -s "$TMP/out"
	expect_true "$name --fields record,mvoes: the message names it and the fields there are" \
		grep -q "^$name: --fields: no field 'mvoes' (the fields here: record, title, solvable, moves" "$TMP/err"
	# fields of the input and of the command are fine
	rc=0
	"$cmd" -f tsv --fields record,states,Solvable,limit "$TMP/solved.xsb" >"$TMP/out" 2>"$TMP/err" || rc=$?
	expect_true "$name --fields with an input field: exit status $rc" test "$rc" = 0
done

# --------------------------------------------- grades from failed runs

# Forward runs under a state bound are the same searches as without it,
# cut short: a run that solves is the run without the bound, and one that
# fails would have explored more.  So each bound rate writes is at most
# what the runs give without the bound, and its grade no higher.
rate_fields="record,solvable,difficulty,difficulty-sd,difficulty-runs,grade,limit"
"$RATE" -d forward -k 8 --no-mixedaim --max-states 100 -f tsv --fields "$rate_fields" "$MEDIUM" \
	>"$TMP/bounded" 2>/dev/null
"$RATE" -d forward -k 8 --no-mixedaim -f tsv --fields "$rate_fields" "$MEDIUM" >"$TMP/free" 2>/dev/null
expect_true "rate: some level has some runs that fail and some that solve" \
	awk -F '\t' 'NR > 1 && $5 ~ /^[1-7]\/8$/ { n++ } END { exit !n }' "$TMP/bounded"
expect_true "rate: a level with failed runs has a lower bound, the runs, no spread and a bound grade" \
	awk -F '\t' 'NR > 1 && $5 != "" {
		if ($3 !~ /^>= [0-9.]+$/ || $4 != "" || $5 !~ /^[0-8]\/8$/ || $7 !~ /states/) bad = 1
		if ($6 !~ /^>= / && $6 != "extreme" && $6 != "unknown") bad = 1
	} NR > 1 && $5 == "" && ($3 !~ /^[0-9.]+$/ || $4 == "") { bad = 1 }
	END { exit bad }' "$TMP/bounded"
expect_true "rate: every bound is at most the difficulty without the bound, its grade no higher" \
	awk -F '\t' '
	function band(x) { return x < 10 ? 0 : x < 100 ? 1 : x < 1000 ? 2 : x < 10000 ? 3 : x < 100000 ? 4 : 5 }
	function rank(g) { return g == "trivial" ? 0 : g == "easy" ? 1 : g == "medium" ? 2 : g == "hard" ? 3 : g == "very-hard" ? 4 : 5 }
	FNR == 1 { next }
	NR == FNR { free[$1] = $3; freegrade[$1] = $6; next }
	{
		if ($3 ~ /^>= /) {
			b = substr($3, 4) + 0
			if (b > free[$1] + 0.05) { print "record " $1 ": " $3 " above " free[$1]; bad = 1 }
			g = $6; sub(/^>= /, "", g)
			if ($6 != "unknown" && rank(g) > rank(freegrade[$1])) { print "record " $1 ": " $6 " above " freegrade[$1]; bad = 1 }
		} else if ($3 != free[$1]) { print "record " $1 ": " $3 " is not " free[$1]; bad = 1 }
	}
	END { exit bad }' "$TMP/free" "$TMP/bounded"

# A level no search decides: its bounds, and a grade that is one.
level 2 "$MEDIUM" >"$TMP/one.xsb"
"$RATE" --max-states 20 -k 5 "$TMP/one.xsb" >"$TMP/out" 2>/dev/null
expect_true "rate, undecided: solvable unknown" grep -q '^solvable: unknown$' "$TMP/out"
expect_true "rate, undecided: limit states" grep -q '^limit: states$' "$TMP/out"
expect_true "rate, undecided: states-bfs is a bound" grep -q '^states-bfs: >= [1-9][0-9]*$' "$TMP/out"
expect_true "rate, undecided: states-greedy is a bound" grep -q '^states-greedy: >= [1-9][0-9]*$' "$TMP/out"
expect_true "rate, undecided: difficulty-min is a bound" grep -q '^difficulty-min: >= [1-9][0-9]*$' "$TMP/out"
expect_true "rate, undecided: difficulty is a bound over the 5 runs" grep -q '^difficulty: >= [0-9.]*$' "$TMP/out"
expect_true "rate, undecided: no run solved" grep -q '^difficulty-runs: 0/5$' "$TMP/out"
expect_true "rate, undecided: a bound grade" grep -q -E '^grade: (>= [a-z-]+|extreme|unknown)$' "$TMP/out"
expect_true "rate, undecided: no spread" sh -c '! grep -q "^difficulty-s[de]:" "$1"' sh "$TMP/out"

# ------------------------------------------- limit, and the solutions

# The optimal solve is cut by the state bound on some levels that another
# search solves: the record has that solution, says whether it is optimal,
# and names the bound; every field that is not a value comes with a limit.
# (50 states: with the player-aware bound A* proves at 100 states every
# level the search for any solution then solves.)
"$RATE" -k 0 --max-states 50 "$MEDIUM" >"$TMP/rated" 2>/dev/null
expect_true "rate: a level solved by another search, not proved optimal, says why" \
	awk 'BEGIN { RS = "" } /\nsolvable: yes\n/ && /\noptimal: no\n/ && /\nsolution: / && /\nlimit: states(\n|$)/ { n++ }
	END { exit !n }' "$TMP/rated"
# the bound on the optimum the cut optimal solve left is no more than the
# optimum solve finds without the bound
"$SOLVE" -f tsv --fields record,pushes "$MEDIUM" >"$TMP/optimum" 2>/dev/null
awk 'BEGIN { RS = "" } { n++ } /\noptimum: >= [0-9]+ pushes(\n|$)/ {
	match($0, /\noptimum: >= [0-9]+/); print n, substr($0, RSTART + 13, RLENGTH - 13) }' "$TMP/rated" >"$TMP/floors"
expect_true "rate: some level has a bound on its optimum" test -s "$TMP/floors"
expect_true "rate: every bound on the optimum is at most the optimum" \
	awk 'NR == FNR { if (FNR > 1) optimum[$1] = $2; next } { if ($2 > optimum[$1]) { print "record " $1 ": " $2 " > " optimum[$1]; bad = 1 } }
	END { exit bad }' "$TMP/optimum" "$TMP/floors"
# the thesis's "no solution within 11 moves": a stopped BFS's finished depth,
# below the optimum on every level (and the bound it gives, at most it)
"$RATE" -a bfs -k 0 --no-mixedaim -d forward --max-states 100 "$MEDIUM" >"$TMP/bfs-cut" 2>/dev/null
awk 'BEGIN { RS = "" } { n++ } /\nno-solution-within: [0-9]+ pushes(\n|$)/ {
	match($0, /\nno-solution-within: [0-9]+/); print n, substr($0, RSTART + 21, RLENGTH - 21) }' "$TMP/bfs-cut" >"$TMP/depths"
expect_true "rate -a bfs: some level has no solution within a depth" test -s "$TMP/depths"
expect_true "rate -a bfs: every such depth is below the optimum" \
	awk 'NR == FNR { if (FNR > 1) optimum[$1] = $2; next } { if ($2 >= optimum[$1]) { print "record " $1 ": " $2 " >= " optimum[$1]; bad = 1 } }
	END { exit bad }' "$TMP/optimum" "$TMP/depths"
expect_true "rate -a bfs: the depth's bound on the optimum beside it" \
	awk 'BEGIN { RS = "" } /\nno-solution-within: / { match($0, /\nno-solution-within: [0-9]+/); d = substr($0, RSTART + 21, RLENGTH - 21)
	if (!match($0, /\noptimum: >= [0-9]+/) || substr($0, RSTART + 13, RLENGTH - 13) + 0 < d + 1) bad = 1 } END { exit bad }' "$TMP/bfs-cut"
expect_true "rate: every bound or unknown comes with a limit" \
	awk 'BEGIN { RS = "" } /: (>=|<=) |: unknown\n|: unknown$/ && !/\nlimit: / { bad = 1 } END { exit bad }' "$TMP/rated"
expect_true "rate: every solved level has a solution" \
	awk 'BEGIN { RS = "" } /\nsolvable: yes\n/ && !/\nsolution: / { bad = 1 } END { exit bad }' "$TMP/rated"
awk 'BEGIN { RS = ""; ORS = "\n\n" } /\nsolution: / { print }' "$TMP/rated" >"$TMP/with-solution"
rc=0
"$SOLVE" --verify "$TMP/with-solution" >"$TMP/verified" 2>"$TMP/err" || rc=$?
expect_true "rate | solve --verify: exit status $rc" test "$rc" = 0
expect_true "rate | solve --verify: every solution replays" \
	test "$(grep -c '^verified: yes$' "$TMP/verified")" = "$(grep -c '^solution: ' "$TMP/with-solution")"

# rate writes its solution: rate | solve --verify on the whole small pack
# (the unsolvable level has none: reported, exit 2)
rc=0
"$RATE" -k 2 "$SMALL" 2>/dev/null | "$SOLVE" --verify >"$TMP/verified" 2>"$TMP/err" || rc=$?
expect_true "rate small.xsb | solve --verify: four solutions replay" test "$(grep -c '^verified: yes$' "$TMP/verified")" = 4
expect_true "rate small.xsb | solve --verify: the unsolvable level has none" grep -q "no solution field" "$TMP/err"

# A solution rate did not prove optimal does not replace one the record has.
"$SOLVE" "$TMP/one.xsb" >"$TMP/one-solved.xsb" 2>/dev/null
"$RATE" -k 0 --max-states 200 "$TMP/one-solved.xsb" >"$TMP/out" 2>/dev/null
expect_true "rate keeps an earlier optimal solution" \
	test "$(grep '^solution: ' "$TMP/out")" = "$(grep '^solution: ' "$TMP/one-solved.xsb")"
expect_true "rate keeps its optimal claim" grep -q '^optimal: pushes$' "$TMP/out"

# ------------------------------------------------------------- Ctrl-C

# The pack forty times over in the raw space by moves: far more than the
# second before the signal, however fast the machine.
for _ in $(seq 40); do cat "$LEVELS/boxoban-hard-sample.xsb"; echo; done >"$TMP/many.xsb"
"$RATE" -a bfs -m moves --plain -t 60 "$TMP/many.xsb" >"$TMP/cut" 2>"$TMP/err" &
pid=$!
# The signal comes once the first level is written (the pack's comment
# header comes before it), so that a level is in
# progress however slow the machine (a fixed sleep could come before the
# first level began under the sanitizers on a loaded machine).
for _ in $(seq 600); do
	grep -q '^solvable: ' "$TMP/cut" 2>/dev/null && break
	sleep 0.1
done
kill -INT $pid
rc=0
wait $pid || rc=$?
expect_true "rate after Ctrl-C: exit status $rc" test "$rc" = 130
# A signal that falls between two levels (after one is written, before the
# next has begun: a window of microseconds) leaves no level in progress;
# then every record written is whole and the run simply stops short.
if awk 'BEGIN { RS = "" } END { print }' "$TMP/cut" | grep -q '^limit: .*interrupted$'; then
	expect_true "rate after Ctrl-C: the level in progress says so" true
else
	expect_true "rate after Ctrl-C: between levels, the run stops short" \
		test "$(grep -c '^solvable: ' "$TMP/cut")" -lt "$(grep -c '^; Boxoban hard/' "$TMP/many.xsb")"
	expect_true "rate after Ctrl-C: between levels, the last level was answered" \
		sh -c 'awk "BEGIN { RS = \"\" } END { print }" "$1" | grep -q "^solvable: yes$"' sh "$TMP/cut"
fi
# The grade is read off the rating (docs/rating.md), whose effort feature
# comes from the first ten runs: where the signal came after them, the
# rating stands and so does its grade; else both are bounds.
awk 'BEGIN { RS = "" } END { print }' "$TMP/cut" >"$TMP/cut-last"
if grep -q -E '^rating: [0-9.]+$' "$TMP/cut-last"; then
	expect_true "rate after Ctrl-C: a rating that stands has its grade" \
		grep -q -E '^grade: (trivial|easy|medium|hard|very-hard|extreme)$' "$TMP/cut-last"
else
	expect_true "rate after Ctrl-C: and has a grade that is no value" \
		grep -q -E '^grade: (unknown|>= .*|extreme)$' "$TMP/cut-last"
fi
expect_true "rate after Ctrl-C: only that level was interrupted" \
	test "$(grep -c 'interrupted' "$TMP/cut")" -le 1

cli_end
