#!/bin/sh
# cli_ps_rows_test.sh - a PuzzleScript game whose map rows start with ';'
# (the record format's comment mark): the records indent the rows by one
# space so that they stay a grid through pipes, the game ignores the
# indent (PuzzleScript trims map rows), and -f puzzlescript writes the
# rows as the script has them, but refuses the levels of other games
# (their characters mean other things in a script's legend), once.
#
# usage: cli_ps_rows_test.sh SOLVE FILTER LEVELS_DIR
set -eu

SOLVE=$1
FILTER=$2
SCRIPT=$3/ps-semicolon.txt
TMP=$(mktemp -d "${TMPDIR:-/tmp}/levelkit-psrows.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
failures=0

check() {   # WHAT COMMAND...: the command must succeed
	what=$1
	shift
	if ! "$@"; then
		echo "FAIL: $what" >&2
		failures=$((failures + 1))
	fi
}

"$SOLVE" "$SCRIPT" > "$TMP/solved.txt"
check "the level is solved in 2 moves" grep -q '^moves: 2$' "$TMP/solved.txt"
check "its rows are indented" grep -q '^ ;Pc\.t;$' "$TMP/solved.txt"
"$SOLVE" --verify -f tsv --fields title,verified < "$TMP/solved.txt" > "$TMP/verified.tsv"
check "the solution replays from the piped record" grep -q 'yes$' "$TMP/verified.tsv"
"$FILTER" 'moves == 2' -f puzzlescript "$TMP/solved.txt" > "$TMP/levels.txt"
check "-f puzzlescript writes the rows as in the script" grep -q '^;Pc\.t;$' "$TMP/levels.txt"

# other games' levels are refused: said once, counted, exit status 2, the
# PuzzleScript level of the same input still written (and nothing solved
# before being refused)
printf 'title: S1\n#####\n#@$.#\n#####\n\ntitle: S2\n######\n#@$ .#\n######\n\ntitle: F\ngame: fruit\n#####\n#a.a#\n#####\n' \
	> "$TMP/others.xsb"
rc=0
"$FILTER" 'record >= 0' -f puzzlescript "$TMP/others.xsb" "$TMP/solved.txt" > "$TMP/mixed.txt" 2> "$TMP/err" || rc=$?
check "filter -f puzzlescript on other games exits 2" [ "$rc" = 2 ]
check "the PuzzleScript level is still written" grep -q '^;Pc\.t;$' "$TMP/mixed.txt"
check "no Sokoban row is written" [ "$(grep -c '#@\$' "$TMP/mixed.txt")" = 0 ]
check "the refusal is said once" [ "$(grep -c 'mean other things' "$TMP/err")" = 1 ]
check "the refusal names the file, line and game" grep -q "others.xsb:1: .*this is a sokoban level" "$TMP/err"
check "the refused levels are counted" grep -q '3 levels in all were not written' "$TMP/err"
rc=0
"$SOLVE" -t 5 -f puzzlescript "$TMP/others.xsb" > /dev/null 2> "$TMP/err" || rc=$?
check "solve -f puzzlescript on other games exits 2" [ "$rc" = 2 ]
check "solve refuses once" [ "$(grep -c 'mean other things' "$TMP/err")" = 1 ]

[ "$failures" = 0 ]
