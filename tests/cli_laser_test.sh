#!/bin/sh
# cli_laser_test.sh - the laser game through the commands, on the three
# example levels of levels/laser-examples.xsb (counts known from SPEC.md and
# the answer set program of ../shared/laser: split 12 solutions, 1 tidy, none
# without a firing splitter; combine 17641, 13 tidy, a shortcut with one
# bender; big10 55 tidy) and SPEC.md's example 1 as a .lvl file
# (levels/laser-split.lvl): solve (counts, --tidy, --count-limit), the .lvl
# import, solve --verify (which targets are satisfied), rate (both
# methods), solve --shortcut / --exists and filter --forall / --exists,
# gen laser (the same seed the same levels; --require's levels re-checked by
# the independent shortcut query; a request proved impossible), and the
# SVG drawing.
#
# usage: cli_laser_test.sh SOLVE RATE GEN FILTER LEVELS_DIR TEST_LEVELS_DIR
set -eu

SOLVE=$1
RATE=$2
GEN=$3
FILTER=$4
EX=$5/laser-examples.xsb
LVL=$6/laser-split.lvl

TMP=$(mktemp -d "${TMPDIR:-/tmp}/levelkit-laser.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
failures=0
checks=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# expect WANT GOT WHAT
expect() {
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$2', expected '$1'"
}

# tsv FIELDS CMD...: the command's tsv rows (no header), fields joined by ' '.
tsv() {
	f=$1
	shift
	"$@" -f tsv --fields "$f" | tail -n +2 | tr '\t' ' ' | tr '\n' ';'
}

# tsvof FILE FIELDS: the file's records as tsv rows, like tsv.
tsvof() {
	tsv "$2" "$FILTER" -e '!has(nosuchfield)' "$1"
}

# ---- solve: counts, all and tidy
expect "split 12;combine 17641;big10 >= 100000;" \
	"$(tsv title,solutions "$SOLVE" --count-limit 100000 "$EX")" "solve --count-limit: all solutions"
expect "split 1;combine 13;big10 55;" \
	"$(tsv title,solutions "$SOLVE" --tidy --count-limit 1000 "$EX")" "solve --tidy: tidy solutions"
expect "split yes >= 1;combine yes >= 1;big10 yes >= 1;" \
	"$(tsv title,solvable,solutions "$SOLVE" --tidy --count-limit 1 "$EX")" "solve --tidy --count-limit 1"
expect "split yes no;combine yes no;big10 yes no;" \
	"$(tsv title,solvable,unique "$SOLVE" "$EX")" "solve: solvable, not unique"

# ---- a .lvl file read directly
expect "laser-split 12;" "$(tsv title,solutions "$SOLVE" --count-limit 100 "$LVL")" "solve on a .lvl file"
expect "laser-split 1;" "$(tsv title,solutions "$SOLVE" --tidy --count-limit 100 "$LVL")" \
	"solve --tidy on a .lvl file"

# ---- verify: a solution found, and one that misses a target
"$SOLVE" "$EX" >"$TMP/solved.txt"
expect "split yes;combine yes;big10 yes;" "$(tsv title,verified "$SOLVE" --verify "$TMP/solved.txt")" \
	"solve --verify of solve's solutions"
expect "split target B (4,0): 1/2 of 1/2, satisfied; target C (0,4): 1/2 of 1/2, satisfied; tidy;" \
	"$(tsv title,verify-note "$SOLVE" --verify "$TMP/solved.txt" | sed 's/;combine.*/;/')" \
	"solve --verify: which targets are satisfied"
sed 's/^solution: 1@4,2 2@4,4$/solution: 1@4,2/' "$TMP/solved.txt" >"$TMP/half.txt"
rc=0
"$SOLVE" --verify "$TMP/half.txt" >"$TMP/half.out" || rc=$?
expect 1 "$rc" "solve --verify: exit status when a solution fails"
expect "split no target B (4,0): 1/2 of 1/2, satisfied; target C (0,4): nothing of 1/2, not satisfied;" \
	"$(tsvof "$TMP/half.out" title,verified,verify-error | sed 's/;combine.*/;/')" \
	"solve --verify: the target that is not satisfied"

# ---- rate: both methods
# the single method is one solve in the fixed order: its difficulty is
# nodes-static, the multiple method's a mean over shuffled solves
out=$(tsv title,difficulty-method "$RATE" --single "$EX")
expect "split single;combine single;big10 single;" "$out" "rate --single"
"$RATE" --single "$EX" >"$TMP/single.txt"
expect "$(tsvof "$TMP/single.txt" nodes-static)" \
	"$(tsvof "$TMP/single.txt" difficulty | sed 's/\.0;/;/g')" "rate --single: difficulty is nodes-static"
out=$(tsv title,grade "$RATE" --runs 5 "$EX" | sed 's/ [a-z-]*;/ graded;/g')
expect "split graded;combine graded;big10 graded;" "$out" "rate (multiple method)"

# ---- concepts
expect "split yes;" "$(tsv title,requires "$SOLVE" --shortcut 'uses(splitter)' "$EX" | sed 's/;combine.*/;/')" \
	"split: no solution without a firing splitter"
out=$(tsv title,requires,shortcut,shortcut-facts "$SOLVE" --tidy --shortcut 'uses(splitter)' "$EX" || true)
expect "split yes  ;combine no 2@4,0 uses(splitter) == 0;big10 yes  ;" "$out" \
	"solve --tidy --shortcut 'uses(splitter)'"
rc=0
"$SOLVE" --tidy --shortcut 'uses(splitter)' "$EX" >/dev/null || rc=$?
expect 1 "$rc" "solve --shortcut: exit status when a level has a shortcut"
out=$(tsv title,requires,shortcut-facts "$SOLVE" --tidy --shortcut 'count(bender) >= 2' "$EX" || true)
expect "combine no count(bender) == 1;" "$(echo "$out" | tr ';' '\n' | grep combine | sed 's/$/;/')" \
	"combine's one-bender shortcut"
out=$(tsv title,exists,example "$SOLVE" --tidy --exists 'count(bender) == 1 && !uses(splitter)' "$EX" || true)
expect "split no ;combine yes 2@4,0;big10 no ;" "$out" "solve --exists"
expect "split;big10;" "$(tsv title "$FILTER" --tidy --forall 'uses(splitter)' "$EX")" \
	"filter --forall"
expect "combine;" "$(tsv title "$FILTER" --tidy --exists '!uses(splitter)' "$EX")" "filter --exists"
rc=0
"$SOLVE" --shortcut 'uses(nosuchpiece)' "$EX" >/dev/null 2>"$TMP/err" || rc=$?
expect 2 "$rc" "a concept over an unknown fact is an error"

# ---- gen laser
"$GEN" laser -n 3 --seed 7 -j 1 --size 6x6 --preset six-benders >"$TMP/g1.txt" 2>/dev/null
"$GEN" laser -n 3 --seed 7 -j 2 --size 6x6 --preset six-benders >"$TMP/g2.txt" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/g1.txt" "$TMP/g2.txt" || fail "gen laser: the same seed on one thread or two"
expect "3" "$(grep -c '^requires: yes$' "$TMP/g1.txt")" "gen laser --preset: requires: yes"
expect "3" "$(grep -c '^requires-over: tidy$' "$TMP/g1.txt")" "gen laser: requires-over"
expect "0" "$(grep -c '^settings: .*\(algo\|direction\|states\)=' "$TMP/g1.txt")" \
	"gen laser: no search algorithm, direction or state bound in the settings"
expect "yes;yes;yes;" "$(tsv requires "$SOLVE" --tidy --shortcut 'count(bender) >= 6' "$TMP/g1.txt")" \
	"gen laser --preset six-benders: re-checked by the shortcut query"
expect "yes all;yes all;yes all;" \
	"$(tsv requires,requires-over "$SOLVE" --shortcut 'count(bender) >= 6' "$TMP/g1.txt")" \
	"solve --shortcut over all solutions rewrites requires-over"
sed '/^solution:/d; s/^intended:/solution:/' "$TMP/g1.txt" >"$TMP/intended.txt"
expect "yes;yes;yes;" "$(tsv verified "$SOLVE" --verify "$TMP/intended.txt")" \
	"gen laser: the intended solutions are solutions"
"$GEN" laser -n 2 --seed 3 --size 7x7 --require 'uses(SP2) && count(bender) >= 3' \
	--param 'pieces=1 SP2, 5 BND' --param targets=2 >"$TMP/g3.txt" 2>/dev/null
expect "yes;yes;" "$(tsv requires "$SOLVE" --tidy --shortcut 'uses(SP2) && count(bender) >= 3' "$TMP/g3.txt")" \
	"gen laser --require: re-checked by the shortcut query"
rc=0
"$GEN" laser -n 1 --require 'count(bender) >= 6' --param 'pieces=5 BND' >/dev/null 2>"$TMP/err" || rc=$?
expect 2 "$rc" "gen laser: a request proved impossible"
checks=$((checks + 1))
grep -q 'proved: no solution made of these pieces satisfies the concept' "$TMP/err" ||
	fail "gen laser: the proof is said ($(cat "$TMP/err"))"

# ---- the drawing: beams with their powers
"$SOLVE" -f svg "$LVL" >"$TMP/split.svg"
checks=$((checks + 1))
grep -q '>1/2<' "$TMP/split.svg" || fail "svg: the beams' powers"

# ---- the text drawing: coloured text shows the solution's beams as comments
"$SOLVE" --color always "$LVL" | sed 's/\x1b\[[0-9;]*m//g' >"$TMP/split.ansi"
checks=$((checks + 1))
grep -q '^; beam: 1/2 from 4,2 heading N into B TGT at 4,0$' "$TMP/split.ansi" ||
	fail "coloured text: the beams with their powers"
checks=$((checks + 1))
grep -q '^; A---1$' "$TMP/split.ansi" || fail "coloured text: the board with the pieces placed"

# ---- the same text without colour: -f ansi --color never (no escapes)
"$SOLVE" -f ansi --color never "$LVL" >"$TMP/split.plain"
checks=$((checks + 1))
grep -q "$(printf '\033')" "$TMP/split.plain" && fail "plain text view: escape sequences"
checks=$((checks + 1))
grep -q '^; beam: 1/2 from 4,2 heading N into B TGT at 4,0$' "$TMP/split.plain" ||
	fail "plain text view: the beams with their powers"

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
