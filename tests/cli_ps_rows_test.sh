#!/bin/sh
# cli_ps_rows_test.sh - a PuzzleScript game whose map rows start with ';'
# (the record format's comment mark): the records indent the rows by one
# space so that they stay a grid through pipes, the game ignores the
# indent (PuzzleScript trims map rows), and -f puzzlescript writes the
# rows as the script has them.
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

[ "$failures" = 0 ]
