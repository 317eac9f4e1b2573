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
. "$(dirname "$0")/cli_lib.sh"
cli_start psrows

"$SOLVE" "$SCRIPT" > "$TMP/solved.txt"
expect_true "the level is solved in 2 moves" grep -q '^moves: 2$' "$TMP/solved.txt"
expect_true "its rows are indented" grep -q '^ ;Pc\.t;$' "$TMP/solved.txt"
"$SOLVE" --verify -f tsv --fields title,verified < "$TMP/solved.txt" > "$TMP/verified.tsv"
expect_true "the solution replays from the piped record" grep -q 'yes$' "$TMP/verified.tsv"
"$FILTER" 'moves == 2' -f puzzlescript "$TMP/solved.txt" > "$TMP/levels.txt"
expect_true "-f puzzlescript writes the rows as in the script" grep -q '^;Pc\.t;$' "$TMP/levels.txt"

# other games' levels are refused: said once, counted, exit status 2, the
# PuzzleScript level of the same input still written (and nothing solved
# before being refused)
printf 'title: S1\n#####\n#@$.#\n#####\n\ntitle: S2\n######\n#@$ .#\n######\n\ntitle: F\ngame: fruit\n#####\n#a.a#\n#####\n' \
	> "$TMP/others.xsb"
rc=0
"$FILTER" 'record >= 0' -f puzzlescript "$TMP/others.xsb" "$TMP/solved.txt" > "$TMP/mixed.txt" 2> "$TMP/err" || rc=$?
expect_true "filter -f puzzlescript on other games exits 2" [ "$rc" = 2 ]
expect_true "the PuzzleScript level is still written" grep -q '^;Pc\.t;$' "$TMP/mixed.txt"
expect_true "no Sokoban row is written" [ "$(grep -c '#@\$' "$TMP/mixed.txt")" = 0 ]
expect_true "the refusal is said once" [ "$(grep -c 'mean other things' "$TMP/err")" = 1 ]
expect_true "the refusal names the file, line and game" grep -q "others.xsb:1: .*this is a sokoban level" "$TMP/err"
expect_true "the refused levels are counted" grep -q '3 levels in all were not written' "$TMP/err"
rc=0
"$SOLVE" -t 5 -f puzzlescript "$TMP/others.xsb" > /dev/null 2> "$TMP/err" || rc=$?
expect_true "solve -f puzzlescript on other games exits 2" [ "$rc" = 2 ]
expect_true "solve refuses once" [ "$(grep -c 'mean other things' "$TMP/err")" = 1 ]

cli_end
