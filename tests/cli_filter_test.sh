#!/bin/sh
# cli_filter_test.sh - end-to-end tests of the filter command on the
# fixture packs in tests/levels: exit statuses 0, 1 and 2, expressions and
# their errors, --invert, --count, --top/--by/--asc, --progression, --dedupe, missing
# fields, pack headers, -o, tsv and json, and solve | filter pipelines.
#
# usage: cli_filter_test.sh FILTER SOLVE LEVELS_DIR
#
# The sh -c scripts below take their arguments as $1, $2...: the single
# quotes are meant.
# shellcheck disable=SC2016
set -eu

FILTER=$1
SOLVE=$2
LEVELS=$3
PACK=$LEVELS/filter.xsb
DUPS=$LEVELS/filter-dedupe.xsb
SMALL=$LEVELS/small.xsb
BAD=$LEVELS/bad.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start filter

# titles FILE: the titles of a tsv output, comma-separated, in order.
titles() {
	tail -n +2 "$1" | cut -f 2 | tr '\n' ',' | sed 's/,$//'
}

# text_titles FILE: the title of each text record, comma-separated: its
# title field, else its first line without "; ".
text_titles() {
	awk 'BEGIN { RS = ""; FS = "\n" }
	{
		t = $1
		sub(/^; /, "", t)
		for (i = 1; i <= NF; i++)
			if ($i ~ /^title: /) { t = substr($i, 8); break }
		print t
	}' "$1" | tr '\n' ',' | sed 's/,$//'
}

# ---------------------------------------------------------------- help

run "$TMP/out" "$TMP/err" "$FILTER" --help
expect_rc 0 "$rc" "filter --help"
expect_count 1 "$TMP/out" "^usage: filter" "filter --help usage"
expect_count 1 "$TMP/out" "^ *--dedupe " "filter --help lists --dedupe"
expect_empty "$TMP/err" "filter --help stderr"
run "$TMP/out" "$TMP/err" "$FILTER" --version
expect_rc 0 "$rc" "filter --version"
expect_count 1 "$TMP/out" "^filter " "filter --version"

# ---------------------------------------------------------- bad usage

for args in "--bogus" "--format xml" "--top 3" "--top 0 --by pushes" "--top x --by pushes" \
	"--top -1 --by pushes" "--by pushes" "--asc" "--top 2 --by bad,name" "-v --dedupe"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$FILTER" $args "$PACK"
	expect_rc 2 "$rc" "filter $args"
	expect_count 1 "$TMP/err" "^filter: " "filter $args message"
	expect_empty "$TMP/out" "filter $args stdout"
done

# No expression at all.
run "$TMP/out" "$TMP/err" "$FILTER"
expect_rc 2 "$rc" "filter without arguments"
expect_count 1 "$TMP/err" "^filter: no expression given$" "filter without arguments message"

# Parse errors are usage errors with the column, whether or not the
# expression is optional.
run "$TMP/out" "$TMP/err" "$FILTER" '(pushes > 3' "$PACK"
expect_rc 2 "$rc" "unbalanced parenthesis"
expect "filter: expression: column 12: expected ')'" "$(cat "$TMP/err")" "unbalanced parenthesis message"
expect_empty "$TMP/out" "unbalanced parenthesis stdout"
run "$TMP/out" "$TMP/err" "$FILTER" 'pushes' "$PACK"
expect_rc 2 "$rc" "bare field"
expect_count 1 "$TMP/err" "^filter: expression: column 1: 'pushes' is not a condition" "bare field message"
run "$TMP/out" "$TMP/err" "$FILTER" '!pushes == 3' "$PACK"
expect_rc 2 "$rc" "! before a comparison"
expect_count 1 "$TMP/err" "^filter: expression: column 2: expected '(' or has() after '!'" "! before a comparison message"
run "$TMP/out" "$TMP/err" "$FILTER" --dedupe 'pushes >' "$DUPS"
expect_rc 2 "$rc" "--dedupe with a bad expression"
expect "filter: expression: column 9: expected a number, string or field name" \
	"$(cat "$TMP/err")" "--dedupe with a bad expression message"
run "$TMP/out" "$TMP/err" "$FILTER" -e 'a =! 3' "$PACK"
expect_rc 2 "$rc" "-e with a bad expression"
expect_count 1 "$TMP/err" "^filter: expression: column 3: unexpected '=' (use '==')$" "-e message"

# A missing file: status 2, and the files that exist are still read.
run "$TMP/out" "$TMP/err" "$FILTER" 'has(pushes)' "$TMP/no-such-file.xsb" "$PACK"
expect_rc 2 "$rc" "missing file"
expect_count 1 "$TMP/err" "^filter: .*no-such-file.xsb" "missing file message"
expect_count 5 "$TMP/out" "^pushes: " "missing file then a good one"

# ------------------------------------------------ expressions, statuses

# Some levels kept: 0, with the pack's header passed through first.
run "$TMP/out" "$TMP/err" "$FILTER" 'has(pushes) && pushes >= 7' "$PACK"
expect_rc 0 "$rc" "pushes >= 7"
expect_empty "$TMP/err" "pushes >= 7 stderr"
expect "filter test pack,Bravo,Delta,Echo" "$(text_titles "$TMP/out")" "pushes >= 7 levels"
head -n 4 "$PACK" >"$TMP/want"
head -n 4 "$TMP/out" >"$TMP/got"
expect_same "$TMP/want" "$TMP/got" "header passed through"
# Kept records come out byte for byte as they went in.
sed -n '35,43p' "$PACK" >"$TMP/want"
grep -A 8 '^; Delta$' "$TMP/out" >"$TMP/got"
expect_same "$TMP/want" "$TMP/got" "kept record unchanged"

# None kept: 1, and the header is still written.
run "$TMP/out" "$TMP/err" "$FILTER" 'has(pushes) && pushes > 1000' "$PACK"
expect_rc 1 "$rc" "no level kept"
expect_empty "$TMP/err" "no level kept stderr"
expect "filter test pack" "$(text_titles "$TMP/out")" "no level kept: header only"

# Numbers compare as numbers, text as text; names ignore case.
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv 'has(difficulty) && difficulty > 100' "$PACK"
expect "Delta,Foxtrot" "$(titles "$TMP/out")" "numeric comparison (900 > 100)"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv 'has(grade) && grade >= "hard"' "$PACK"
expect "Alpha,Delta,Foxtrot" "$(titles "$TMP/out")" "text comparison"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv 'SOLVABLE == "yes"' "$PACK"
expect_rc 0 "$rc" "case-insensitive name"
expect "Alpha,Bravo,Delta,Echo,Foxtrot" "$(titles "$TMP/out")" "case-insensitive name"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv 'has(difficulty-sd) && difficulty-sd < 4' "$PACK"
expect "Bravo" "$(titles "$TMP/out")" "name with '-'"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv 'title == "Bravo" || title == "Echo"' "$PACK"
expect "Bravo,Echo" "$(titles "$TMP/out")" "title from a field or a comment"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv 'record >= 6' "$PACK"
expect "Echo,Foxtrot" "$(titles "$TMP/out")" "record number"

# A missing field is an error naming the record and its line; the other
# records are still decided.
run "$TMP/out" "$TMP/err" "$FILTER" 'pushes > 3' "$PACK"
expect_rc 2 "$rc" "missing field"
expect "filter: $PACK:28: record 4 has no field 'pushes' (this record's fields: title, solvable, record)" "$(cat "$TMP/err")" "missing field message"
expect "filter test pack,Bravo,Delta,Echo,Foxtrot" "$(text_titles "$TMP/out")" "missing field: other records"
# A misspelt field fails on every record: said once, with the names the
# record has and the nearest one, and the others counted (issue 18).
run "$TMP/out" "$TMP/err" sh -c '"$1" "$2" | "$3" "pushs >= 2"' sh "$SOLVE" "$SMALL" "$FILTER"
expect_rc 2 "$rc" "misspelt field"
expect_count 2 "$TMP/err" "." "misspelt field: two lines"
expect_count 1 "$TMP/err" "^filter: <stdin>:[0-9]*: record 2 has no field 'pushs' (did you mean 'pushes'? this record's fields: title, solvable, moves, pushes, .*)$" "misspelt field: first record, with the names"
expect_count 1 "$TMP/err" "^filter: 4 more records had no field 'pushs' (not reported one by one)$" "misspelt field: the others counted"
# ... unless has() guards it.
run "$TMP/out" "$TMP/err" "$FILTER" 'has(pushes) && pushes > 3' "$PACK"
expect_rc 0 "$rc" "has() guard"
expect_empty "$TMP/err" "has() guard stderr"
expect "filter test pack,Bravo,Delta,Echo,Foxtrot" "$(text_titles "$TMP/out")" "has() guard"
run "$TMP/out" "$TMP/err" "$FILTER" '!has(pushes) || pushes < 6' "$PACK"
expect_rc 0 "$rc" "!has() || guard"
expect "filter test pack,Alpha,Charlie,Foxtrot" "$(text_titles "$TMP/out")" "!has() || guard"

# -e: the expression as an option, every operand a file.
run "$TMP/out" "$TMP/err" "$FILTER" -c -e 'has(pushes)' "$PACK" "$PACK"
expect_rc 0 "$rc" "-e"
expect "10" "$(cat "$TMP/out")" "-e with two files"

# ------------------------------------------------------------ --invert

run "$TMP/out" "$TMP/err" "$FILTER" -f tsv -v 'has(grade)' "$PACK"
expect_rc 0 "$rc" "-v"
expect "Charlie" "$(titles "$TMP/out")" "-v has(grade)"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --invert 'has(grade) && grade == "easy"' "$PACK"
expect "Alpha,Charlie,Delta,Foxtrot" "$(titles "$TMP/out")" "--invert"
run "$TMP/out" "$TMP/err" "$FILTER" -v 'has(pushes) || !has(pushes)' "$PACK"
expect_rc 1 "$rc" "-v of a tautology"
# A record whose evaluation fails is neither kept nor inverted.
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv -v 'pushes > 3' "$PACK"
expect_rc 2 "$rc" "-v with a missing field"
expect "Alpha" "$(titles "$TMP/out")" "-v with a missing field"

# ------------------------------------------------------------- --count

run "$TMP/out" "$TMP/err" "$FILTER" --count 'has(pushes) && pushes >= 7' "$PACK"
expect_rc 0 "$rc" "--count"
expect "3" "$(cat "$TMP/out")" "--count"
run "$TMP/out" "$TMP/err" "$FILTER" -c 'has(pushes) && pushes > 1000' "$PACK"
expect_rc 1 "$rc" "-c none"
expect "0" "$(cat "$TMP/out")" "-c none"
run "$TMP/out" "$TMP/err" "$FILTER" -c -f json 'pushes > 3' "$PACK"
expect_rc 2 "$rc" "-c with an error"
expect "4" "$(cat "$TMP/out")" "-c with an error"

# --------------------------------------------------------- --top, --by

run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 3 --by difficulty 'has(difficulty)' "$PACK"
expect_rc 0 "$rc" "--top 3"
expect "Foxtrot,Delta,Bravo" "$(titles "$TMP/out")" "--top 3 --by difficulty"
# Ties (Bravo and Echo: 40) keep their input order.
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 4 --by difficulty 'has(difficulty)' "$PACK"
expect "Foxtrot,Delta,Bravo,Echo" "$(titles "$TMP/out")" "--top 4: tie in input order"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 4 --by difficulty --asc 'has(difficulty)' "$PACK"
expect "Alpha,Bravo,Echo,Delta" "$(titles "$TMP/out")" "--top 4 --asc"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 100 --by Difficulty --asc 'has(difficulty)' "$PACK"
expect "Alpha,Bravo,Echo,Delta,Foxtrot" "$(titles "$TMP/out")" "--top more than there are"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 1 --by pushes -v '!has(pushes)' "$PACK"
expect "Delta" "$(titles "$TMP/out")" "--top 1 after -v"
# Against a stable sort, on 300 levels with many ties: the bounded heap
# must keep exactly the first K of the sorted order.
awk 'BEGIN { for (i = 1; i <= 300; i++)
	printf "; L%d\n#####\n#@$.#\n#####\nscore: %d.%d\n\n", i, (i * 37) % 23, i % 3 }' >"$TMP/many.xsb"
run "$TMP/all" "$TMP/err" "$FILTER" -f tsv 'score > -1' "$TMP/many.xsb"
expect_rc 0 "$rc" "300 levels"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/all")" -eq 301 ] || fail "300 levels: expected header + 300 rows"
tail -n +2 "$TMP/all" | sort -t "$(printf '\t')" -k3,3gr -s | head -n 17 | cut -f 2 | tr '\n' ',' |
	sed 's/,$//' >"$TMP/want"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 17 --by score "$TMP/many.xsb"
expect_rc 0 "$rc" "--top 17 of 300"
titles "$TMP/out" >"$TMP/got"
expect_same "$TMP/want" "$TMP/got" "--top 17 of 300 against sort"
tail -n +2 "$TMP/all" | sort -t "$(printf '\t')" -k3,3g -s | head -n 40 | cut -f 2 | tr '\n' ',' |
	sed 's/,$//' >"$TMP/want"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 40 --by score --asc "$TMP/many.xsb"
titles "$TMP/out" >"$TMP/got"
expect_same "$TMP/want" "$TMP/got" "--top 40 --asc of 300 against sort"
# --progression: on 300 levels by score, 20 of them in chapters of 5: the
# easiest first, the hardest last, rising within a chapter, three dips
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --fields score --progression 20 --by score "$TMP/many.xsb"
expect_rc 0 "$rc" "--progression 20 of 300"
tail -n +2 "$TMP/out" >"$TMP/curve"
expect 20 "$(wc -l <"$TMP/curve" | tr -d ' ')" "--progression 20: how many"
expect "$(tail -n +2 "$TMP/all" | cut -f 3 | sort -g | head -n 1)" "$(head -n 1 "$TMP/curve")" \
	"--progression: the easiest first"
expect "$(tail -n +2 "$TMP/all" | cut -f 3 | sort -g | tail -n 1)" "$(tail -n 1 "$TMP/curve")" \
	"--progression: the hardest last"
expect 3 "$(awk 'NR > 1 && $1 < last { n++ } { last = $1 } END { print n + 0 }' "$TMP/curve")" \
	"--progression: three dips"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --fields score --progression 20 --chapter 0 --by score "$TMP/many.xsb"
expect 0 "$(tail -n +2 "$TMP/out" | awk 'NR > 1 && $1 < last { n++ } { last = $1 } END { print n + 0 }')" \
	"--progression --chapter 0: no dips"
# difficulty by default; a level without it is an error
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --progression 3 'has(difficulty)' "$PACK"
expect_rc 0 "$rc" "--progression by difficulty"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --progression 3 "$PACK"
expect_rc 2 "$rc" "--progression: a level without difficulty"
for args in "--progression 0" "--progression 2001" "--progression 3 --top 2 --by score" "--chapter 3"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$FILTER" $args "$TMP/many.xsb"
	expect_rc 2 "$rc" "usage: $args"
done
# The text output: headers first, then the kept levels in order.
run "$TMP/out" "$TMP/err" "$FILTER" --top 2 --by pushes --asc 'solvable == "yes"' "$PACK"
expect_rc 0 "$rc" "--top text"
expect "filter test pack,Alpha,Foxtrot" "$(text_titles "$TMP/out")" "--top text"
run "$TMP/out" "$TMP/err" "$FILTER" -c --top 2 --by pushes 'has(pushes)' "$PACK"
expect "2" "$(cat "$TMP/out")" "--top --count"
# The expression is optional; a record without the field is an error.
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 3 --by difficulty "$PACK"
expect_rc 2 "$rc" "--top without the field"
expect "filter: $PACK:28: record 4 has no field 'difficulty' (this record's fields: title, solvable, record)" "$(cat "$TMP/err")" "--top without the field message"
expect "Foxtrot,Delta,Bravo" "$(titles "$TMP/out")" "--top without the field: the others"
# So is a value that is not a number.
run "$TMP/out" "$TMP/err" "$FILTER" --top 3 --by grade 'has(grade)' "$PACK"
expect_rc 2 "$rc" "--by a text field"
expect_count 1 "$TMP/err" "^filter: $PACK:5: record 2: field 'grade' is not a number: 'trivial'$" "--by a text field message"
expect_count 5 "$TMP/err" "is not a number" "--by a text field: every level"

# ------------------------------------------------------------ --dedupe

run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --dedupe "$DUPS"
expect_rc 0 "$rc" "--dedupe"
expect_empty "$TMP/err" "--dedupe stderr"
expect "A,B,C: A with a box moved,D: A with a wall added" "$(titles "$TMP/out")" "--dedupe"
run "$TMP/out" "$TMP/err" "$FILTER" -c --dedupe "$DUPS" "$DUPS"
expect "4" "$(cat "$TMP/out")" "--dedupe across files"
run "$TMP/out" "$TMP/err" sh -c 'cat "$1" | "$2" -c --dedupe' sh "$DUPS" "$FILTER"
expect_rc 0 "$rc" "cat | filter --dedupe"
expect "4" "$(cat "$TMP/out")" "cat | filter --dedupe"
run "$TMP/out" "$TMP/err" sh -c '"$2" -c --dedupe - <"$1"' sh "$DUPS" "$FILTER"
expect "4" "$(cat "$TMP/out")" "filter --dedupe -"
# The expression comes first: A itself is filtered out, so its first
# turned copy is the one kept.
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --dedupe 'keep == "yes"' "$DUPS"
expect "A turned,B,C: A with a box moved,D: A with a wall added" "$(titles "$TMP/out")" "expression, then --dedupe"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --dedupe -v 'keep == "yes"' "$DUPS"
expect "A" "$(titles "$TMP/out")" "--dedupe -v"
# --dedupe, then --top: the copies of Foxtrot count once.
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --dedupe --top 3 --by difficulty 'has(difficulty)' "$PACK" "$PACK"
expect "Foxtrot,Delta,Bravo" "$(titles "$TMP/out")" "--dedupe, then --top"
run "$TMP/out" "$TMP/err" "$FILTER" -f tsv --top 3 --by difficulty 'has(difficulty)' "$PACK" "$PACK"
expect "Foxtrot,Foxtrot,Delta" "$(titles "$TMP/out")" "--top without --dedupe"
# The header is passed through once per file in text output.
run "$TMP/out" "$TMP/err" "$FILTER" --dedupe "$DUPS"
expect_count 1 "$TMP/out" "^; dedupe test pack" "--dedupe header"
# A level that does not load is reported and skipped.
run "$TMP/out" "$TMP/err" "$FILTER" --dedupe "$BAD"
expect_rc 2 "$rc" "--dedupe bad.xsb"
checks=$((checks + 1))
cat >"$TMP/want" <<EOF
filter: $BAD:12: grid rows interrupted by a comment or field line
filter: $BAD:15: level has no player
filter: $BAD:22: unknown sokoban cell 'x' in column 2
EOF
expect_same "$TMP/want" "$TMP/err" "--dedupe bad.xsb messages"
expect "bad pack,good level,good again" "$(text_titles "$TMP/out")" "--dedupe bad.xsb levels"
# Without --dedupe levels are not loaded: only the malformed record fails.
run "$TMP/out" "$TMP/err" "$FILTER" -c 'has(x) || 1 == 1' "$BAD"
expect_rc 2 "$rc" "malformed record"
expect "4" "$(cat "$TMP/out")" "malformed record: the others"
expect_count 1 "$TMP/err" "^filter: $BAD:12: grid rows interrupted" "malformed record message"

# ------------------------------------------------------------ formats

run "$TMP/tsv" "$TMP/err" "$FILTER" --format tsv 'has(pushes) && pushes >= 7' "$PACK"
expect_rc 0 "$rc" "tsv"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/tsv")" -eq 4 ] || fail "tsv: $(wc -l <"$TMP/tsv") lines, expected header + 3"
expect_count 1 "$TMP/tsv" "^record	title	" "tsv header"
expect_count 1 "$TMP/tsv" "^3	Bravo	" "tsv row"
expect_count 0 "$TMP/tsv" "filter test pack" "tsv leaves the header record out"

run "$TMP/json" "$TMP/err" "$FILTER" -f json 'has(pushes) && pushes >= 7' "$PACK"
expect_rc 0 "$rc" "json"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/json")" -eq 3 ] || fail "json: expected one line per kept level"
expect_count 3 "$TMP/json" '"pushes":' "json pushes"
if command -v python3 >/dev/null 2>&1; then
	checks=$((checks + 1))
	python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert [r["record"] for r in rows] == [3, 5, 6], rows
assert [r["pushes"] for r in rows] == [12, 30, 7], rows
assert rows[0]["title"] == "Bravo", rows[0]
' <"$TMP/json" || fail "json content"
else
	echo "python3 not found: skipping the json parse check"
fi

# -o FILE, and -o onto the input file itself.
run "$TMP/want" "$TMP/err" "$FILTER" 'has(pushes) && pushes >= 7' "$PACK"
run "$TMP/out" "$TMP/err" "$FILTER" -o "$TMP/written" 'has(pushes) && pushes >= 7' "$PACK"
expect_rc 0 "$rc" "-o"
expect_empty "$TMP/out" "-o stdout"
expect_same "$TMP/want" "$TMP/written" "-o"
cp "$PACK" "$TMP/inplace.xsb"
run "$TMP/out" "$TMP/err" "$FILTER" -o "$TMP/inplace.xsb" 'has(pushes) && pushes >= 7' "$TMP/inplace.xsb"
expect_rc 0 "$rc" "-o onto its input"
expect_same "$TMP/want" "$TMP/inplace.xsb" "-o onto its input"
run "$TMP/out" "$TMP/err" "$FILTER" -c -o "$TMP/count" 'has(pushes)' "$PACK"
expect "5" "$(cat "$TMP/count")" "-c -o"
run "$TMP/out" "$TMP/err" "$FILTER" -o "$TMP/no-such-dir/x" 'has(pushes)' "$PACK"
expect_rc 2 "$rc" "-o into a missing directory"

# --------------------------------------------------------- solve | filter

run "$TMP/out" "$TMP/err" sh -c '"$1" "$2" | "$3" "has(pushes) && pushes >= 3"' sh "$SOLVE" "$SMALL" "$FILTER"
expect_rc 0 "$rc" "solve | filter"
expect_empty "$TMP/err" "solve | filter stderr"
expect_count 1 "$TMP/out" "^solution: RRR$" "solve | filter: level 4"
expect_count 1 "$TMP/out" "^solvable: " "solve | filter: one level"
expect_count 1 "$TMP/out" "^; levelkit test pack$" "solve | filter: header"
run "$TMP/out" "$TMP/err" sh -c '"$1" "$2" | "$3" -c "solvable == \"yes\" && pushes >= 2"' sh "$SOLVE" "$SMALL" "$FILTER"
expect_rc 0 "$rc" "solve | filter -c"
expect "3" "$(cat "$TMP/out")" "solve | filter -c"
# The unsolvable level has no pushes: an error on stdin, with its line.
run "$TMP/out" "$TMP/err" sh -c '"$1" "$2" | "$3" "pushes >= 5"' sh "$SOLVE" "$SMALL" "$FILTER"
expect_rc 2 "$rc" "solve | filter 'pushes >= 5'"
expect_count 1 "$TMP/err" "^filter: <stdin>:[0-9][0-9]*: record 4 has no field 'pushes' (this record's fields: .*)$" "solve | filter on stdin"
expect_count 0 "$TMP/out" "^solvable: " "solve | filter 'pushes >= 5': none"
# filter | solve: the kept records are valid input for the next command.
run "$TMP/out" "$TMP/err" sh -c '"$3" "!has(note)" "$2" | "$1" -f tsv' sh "$SOLVE" "$SMALL" "$FILTER"
expect_rc 0 "$rc" "filter | solve"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/out")" -eq 5 ] || fail "filter | solve: expected header + 4 rows"

# One reading loop for every filter: an input that cannot be read (a
# directory) is said, and the inputs after it are still read, with or
# without concept queries on several workers.
run "$TMP/out" "$TMP/err" "$FILTER" -c 'has(title) || !has(title)' "$SMALL" / "$SMALL"
expect_rc 2 "$rc" "filter over an unreadable input"
expect "10" "$(cat "$TMP/out")" "filter reads the inputs after an unreadable one"
expect_count 1 "$TMP/err" "^filter: /: read error: " "filter says which input it could not read"
run "$TMP/out" "$TMP/err" "$FILTER" --forall 'count(push) >= 1' -j 2 -c "$SMALL" / "$SMALL"
expect_rc 2 "$rc" "filter --forall -j 2 over an unreadable input"
expect "8" "$(cat "$TMP/out")" "filter --forall -j 2 reads the inputs after an unreadable one"

cli_end
