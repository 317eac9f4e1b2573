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

. "$(dirname "$0")/cli_lib.sh"
cli_start laser

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

# ---- Refraction's JSON levels: one object per line (.jsonl), or one value
# over several lines (.json); the designer's placement is the solution
# (counts as the answer set oracle gives them, bench/laser/oracle.sh)
JL=$(dirname "$LVL")/laser-refraction.jsonl
JS=$(dirname "$LVL")/laser-refraction.json
# rows FIELDS OPTIONS...: solve's tsv rows on a JSON file (stderr dropped)
rows() {
	f=$1
	shift
	"$SOLVE" "$@" -f tsv --fields "$f" 2>/dev/null | tail -n +2 | tr '\t' ' ' | tr '\n' ';'
}
rc=0
"$SOLVE" "$JL" >/dev/null 2>"$TMP/jl.err" || rc=$?
expect 2 "$rc" "JSON levels: exit status with levels that cannot be read"
expect "$JL:5: pieces[1]: unknown type \"coin\" (source, target, blocker, bender, splitter, combiner);$JL:6: json: column 32: unexpected character;$JL:7: pieces[1] and pieces[2]: the target on cell 95 needs 1/2 on one side and 1/3 on another (its entries are its sides, which sum to one need);" \
	"$(sed 's/^solve: //' "$TMP/jl.err" | tr '\n' ';')" "JSON levels: what is wrong, file and line"
expect "laser-refraction 1 7657 1@2,7;laser-refraction 2 91 -;laser-refraction 3 1 1@2,2;" \
	"$(rows title,solutions,solution --count-limit 100000 "$JL" || true)" \
	"JSON levels: all solutions, and the designer's placement kept"
expect "laser-refraction 1 1;laser-refraction 2 1;laser-refraction 3 1;" \
	"$(rows title,solutions --tidy --count-limit 100 "$JL" || true)" "JSON levels: tidy solutions"
expect "laser-refraction 1 yes 1@4,0 2@4,6;laser-refraction 2 yes 1@9,0;" \
	"$(rows title,verified,solution --verify "$JS")" "JSON: solve --verify checks the designer's placements"
expect "laser-refraction 1 7;laser-refraction 2 81;" "$(rows title,solutions --count-limit 1000 "$JS")" \
	"JSON over several lines: all solutions"
expect "laser-refraction 1 7;laser-refraction 2 1;" "$(rows title,solutions --tidy --count-limit 1000 "$JS")" \
	"JSON over several lines: tidy solutions"
expect "laser-refraction 2 BND E>N;" \
	"$("$SOLVE" "$JS" | awk '/^title:/ { t = substr($0, 8) } /^fixed: . BND / { printf "%s %s %s;", t, $3, $4 }')" \
	"JSON: a piece that is not movable stands fixed"

# ---- Refraction's own levels, when REFRACTION_DIR names a directory holding
# edbutler/infinite-refraction's puzzles/original.txt and brainpop.txt
# (GPL-3.0, not in this repository): every designer's placement verifies,
# 14 of the original game's levels have a target on several sides, and
# tidy counts as the answer set oracle gives them (bench/laser/oracle.sh:
# lines 10, 45, 48, 52 and 54, the last four with such targets)
if [ -n "${REFRACTION_DIR:-}" ] && [ -f "$REFRACTION_DIR/original.txt" ]; then
	for f in original brainpop; do
		"$SOLVE" --verify "$REFRACTION_DIR/$f.txt" -f tsv --fields verified 2>/dev/null | tail -n +2 |
			sort | uniq -c | awk '{ printf "%s %s;", $2, $1 }' >"$TMP/$f.verified"
	done
	expect "yes 61;" "$(cat "$TMP/original.verified")" "Refraction's original levels: the designers' placements verify"
	expect "yes 35;" "$(cat "$TMP/brainpop.verified")" "BrainPOP's levels: the designers' placements verify"
	expect 14 "$("$SOLVE" --verify "$REFRACTION_DIR/original.txt" 2>/dev/null |
		awk '/^title:/ { r++ } /^fixed: . TGT [NESW][NESW]+>/ && !(r in m) { m[r] = 1; n++ } END { print n + 0 }')" \
		"Refraction's original levels: targets on several sides"
	sed -n '10p;45p;48p;52p;54p' "$REFRACTION_DIR/original.txt" >"$TMP/original5.jsonl"
	expect "189;17;2;84;124;" "$(rows solutions --tidy --count-limit 100000 "$TMP/original5.jsonl")" \
		"Refraction's original levels: tidy counts as the oracle's"
else
	echo "cli_laser: REFRACTION_DIR not set: Refraction's own levels not checked" >&2
fi

# ---- facts over powers: "practises 1/12 + 1/12" (tests/levels/laser-twelfths.xsb)
TW=$(dirname "$LVL")/laser-twelfths.xsb
expect "twelfths yes;" "$(tsv title,verified "$SOLVE" --verify "$TW")" "the intended solution verifies"
expect "twelfths yes into(1/12 + 1/12) == 1, into(combiner 1/6) == 1;" \
	"$(tsv title,exists,example-facts "$SOLVE" --tidy --exists 'into(1/12 + 1/12) >= 1 && into(combiner 1/6) == 1' "$TW")" \
	"solve --exists over powers"
expect "twelfths no uses(combiner) == 1, into(1/12 + 1/12) == 0;" \
	"$(tsv title,requires,shortcut-facts "$SOLVE" --tidy --shortcut '!uses(combiner) || into(1/12 + 1/12) >= 1' "$TW" || true)" \
	"solve --shortcut: a combiner whose sum is lost is a shortcut of into(1/12 + 1/12)"
rc=0
"$SOLVE" --shortcut 'into(1/12 +)' "$TW" >/dev/null 2>"$TMP/err" || rc=$?
expect 2 "$rc" "a fact over powers that does not parse is an error"

# ---- gen laser: monolithic as the paper states it, symmetric blockers,
# targets on several sides
"$GEN" laser -n 2 --seed 4 --size 6x6 --preset monolithic --param sources=2 --param targets=1-2 \
	--param 'pieces=1 SP2, 2 CMB2, 3 BND' >"$TMP/mono.txt" 2>/dev/null
expect "yes all;yes all;" "$(tsvof "$TMP/mono.txt" requires,requires-over)" "gen laser --preset monolithic: over all solutions"
expect "$(tsv solutions "$SOLVE" --tidy --count-limit 100000 "$TMP/mono.txt")" \
	"$(tsv solutions "$SOLVE" --count-limit 100000 "$TMP/mono.txt")" \
	"monolithic: every solution is tidy (it uses every given piece)"
"$GEN" laser -n 2 --seed 4 --size 7x7 --preset six-benders --param symmetry=lr --param blockers=6 >"$TMP/sym.txt" 2>/dev/null
expect "2" "$(grep -c '^requires: yes$' "$TMP/sym.txt")" "gen laser --param symmetry=lr"
checks=$((checks + 1))
awk 'BEGIN { RS = "" } { n = split($0, L, "\n"); for (i = 1; i <= n; i++) if (L[i] ~ /^[.#A-Za-z]+$/ && L[i] !~ /:/) {
	row = L[i]; w = length(row)
	for (x = 1; x <= w; x++) if (substr(row, x, 1) == "#" && substr(row, w + 1 - x, 1) != "#") bad++ } }
	END { exit bad > 0 }' "$TMP/sym.txt" || fail "gen laser --param symmetry=lr: blockers not mirrored"
"$GEN" laser -n 3 --seed 4 --size 5x5 --param target-sides=3 --param sources=2 >"$TMP/sides.txt" 2>/dev/null
checks=$((checks + 1))
grep -q '^fixed: . TGT [NESW][NESW][NESW]*> ' "$TMP/sides.txt" || fail "gen laser --param target-sides=3: no target on several sides"
expect "yes;yes;yes;" "$(sed '/^solution:/d; s/^intended:/solution:/' "$TMP/sides.txt" | "$SOLVE" --verify -f tsv --fields verified | tail -n +2 | tr '\n' ';')" \
	"gen laser --param target-sides: the intended solutions verify"

cli_end
