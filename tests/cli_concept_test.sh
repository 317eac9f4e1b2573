#!/bin/sh
# cli_concept_test.sh - the concept queries end to end: solve --shortcut
# and --exists (fields, witnesses, exit statuses), filter --forall and
# --exists, gen --require (every level it writes re-checked by solve
# --shortcut), on the hand-worked levels of levels/concept-sample.xsb and
# the slide fixtures; bad concepts and games without concept queries.
#
# usage: cli_concept_test.sh GEN SOLVE FILTER LEVELS_DIR
set -eu

GEN=$1
SOLVE=$2
FILTER=$3
LEVELS=$4
PACK=$LEVELS/../../levels/concept-sample.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start concept

# tsv_field TSV_FILE ROW COLUMN_NAME: the value in data row ROW (1-based)
tsv_field() {
	awk -F '\t' -v row="$2" -v name="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next }
		NR == row + 1 { print (col ? $col : "NO-COLUMN") }' "$1"
}

# --- solve --shortcut: every solution pushes twice in levels 1 and 2
rc=0
"$SOLVE" --shortcut 'count(push) >= 2' -f tsv "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "shortcut count(push) >= 2"
expect yes "$(tsv_field "$TMP/out" 1 requires)" "corridor requires two pushes"
expect yes "$(tsv_field "$TMP/out" 2 requires)" "two boxes requires two pushes"
expect yes "$(tsv_field "$TMP/out" 3 requires)" "no solution: forall holds vacuously"
expect no "$(tsv_field "$TMP/out" 3 solvable)" "no solution: solvable no"

# ... but not three: the shortcut is the two-push solution, exit 1
rc=0
"$SOLVE" --shortcut 'count(push) >= 3' -f tsv "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 1 "$rc" "shortcut count(push) >= 3"
expect no "$(tsv_field "$TMP/out" 1 requires)" "corridor: a shortcut"
expect RR "$(tsv_field "$TMP/out" 1 shortcut)" "corridor's shortcut"
expect "count(push) == 2" "$(tsv_field "$TMP/out" 1 shortcut-facts)" "corridor's shortcut facts"
expect "count(push) == 2" "$(tsv_field "$TMP/out" 2 shortcut-facts)" "two boxes' shortcut facts"

# the shortcuts replay: solve --verify accepts each as a solution
"$SOLVE" --shortcut 'count(push) >= 3' "$PACK" 2> /dev/null |
	sed 's/^shortcut: /solution: /' | "$SOLVE" --verify -f tsv > "$TMP/out" 2> "$TMP/err" || true
expect yes "$(tsv_field "$TMP/out" 1 verified)" "corridor's shortcut replays"
expect yes "$(tsv_field "$TMP/out" 2 verified)" "two boxes' shortcut replays"
expect 2 "$(tsv_field "$TMP/out" 2 pushes)" "two boxes' shortcut pushes twice"

# length has no upper bound in the corridor (the player steps back)
rc=0
"$SOLVE" --shortcut 'length <= 6' -f tsv "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 1 "$rc" "shortcut length <= 6"
expect "length >= 7" "$(tsv_field "$TMP/out" 1 shortcut-facts)" "corridor: a long solution"

# --- uses(box 2): level 1 has one box only (an error, exit 2, others go on)
rc=0
"$SOLVE" --exists 'uses(box 2)' -f tsv "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 2 "$rc" "exists uses(box 2) with a one-box level"
checks=$((checks + 1))
grep -q "concept-sample.xsb:[0-9]*: no fact 'uses(box 2)'" "$TMP/err" || fail "no message for the one-box level"
expect yes "$(tsv_field "$TMP/out" 1 exists)" "two boxes: some solution uses box 2"
expect no "$(tsv_field "$TMP/out" 2 exists)" "no solution: none uses box 2"

rc=0
"$SOLVE" --shortcut '!uses(box 2)' -f tsv "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect no "$(tsv_field "$TMP/out" 1 requires)" "two boxes: a solution moves box 2"
checks=$((checks + 1))
case $(tsv_field "$TMP/out" 1 shortcut-facts) in
*"count(box 2) >= 1"*) ;;
*) fail "the shortcut of !uses(box 2) should push box 2: $(tsv_field "$TMP/out" 1 shortcut-facts)" ;;
esac

# --- filter --forall / --exists
rc=0
"$FILTER" --forall 'count(push) >= 2' "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "filter --forall count(push) >= 2"
expect "2" "$(grep -c '^title:' "$TMP/out")" "forall keeps the solvable levels"
checks=$((checks + 1))
grep -q '^title: no solution' "$TMP/out" && fail "forall kept the level without solution"
rc=0
"$FILTER" --forall 'count(push) >= 3' "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 1 "$rc" "filter --forall count(push) >= 3 keeps none"
rc=0
"$FILTER" --exists 'length >= 8 && pushes == 2' "$PACK" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "filter --exists"
expect "2" "$(grep -c '^title:' "$TMP/out")" "exists: long two-push solutions"

# -j: the queries on two workers, the output in input order as with one
"$FILTER" --exists 'uses(box 2)' "$PACK" "$PACK" > "$TMP/j1" 2> /dev/null || true
"$FILTER" --exists 'uses(box 2)' -j 2 "$PACK" "$PACK" > "$TMP/j2" 2> /dev/null || true
checks=$((checks + 1))
cmp -s "$TMP/j1" "$TMP/j2" || fail "filter --exists -j 2 differs from -j 1"
expect 2 "$(grep -c '^title: two boxes' "$TMP/j2")" "-j 2 keeps the level of each file"
rc=0
"$FILTER" -j 2 'moves >= 1' "$PACK" > /dev/null 2> "$TMP/err" || rc=$?
expect_rc 2 "$rc" "-j without a concept"

# --- the slide games' facts
rc=0
"$SOLVE" --shortcut combo -f tsv "$LEVELS/skiddy.xsb" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 1 "$rc" "skiddy shortcut combo"
expect yes "$(awk -F '\t' '$2 == "One star" { print $4 }' "$TMP/out")" \
	"One star: its only win is a combo"
expect noncombo "$(awk -F '\t' '$2 == "Two stars" { print $6 }' "$TMP/out")" \
	"Two stars: a plain win exists"
rc=0
"$SOLVE" --exists 'uses(mud)' -f tsv "$LEVELS/fruit.xsb" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect no "$(awk -F '\t' '$2 == "Mud trap" { print $4 }' "$TMP/out")" \
	"Mud trap: the mud only loses fruit"

# --- gen --require: each level it writes is proved, and solve agrees
rc=0
"$GEN" sokoban -n 3 --seed 5 -j 2 --require 'count(push) >= 12' -o "$TMP/g.xsb" 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "gen sokoban --require"
expect 3 "$(grep -c '^requires: yes' "$TMP/g.xsb")" "gen wrote the proof"
rc=0
"$SOLVE" --shortcut 'count(push) >= 12' -f tsv "$TMP/g.xsb" > "$TMP/out" 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "solve re-checks gen's levels"
expect 3 "$(awk -F '\t' 'NR > 1 && $4 == "yes"' "$TMP/out" | wc -l | tr -d ' ')" "every level requires it"
rc=0
"$GEN" skiddy -n 2 --seed 2 -j 1 --require combo -o "$TMP/s.xsb" 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "gen skiddy --require combo"
rc=0
"$SOLVE" --shortcut combo "$TMP/s.xsb" > /dev/null 2> "$TMP/err" || rc=$?
expect_rc 0 "$rc" "skiddy levels re-checked"

# --- errors
rc=0
"$SOLVE" --shortcut 'count(push) >=' "$PACK" > /dev/null 2> "$TMP/err" || rc=$?
expect_rc 2 "$rc" "bad concept"
checks=$((checks + 1))
grep -q "bad concept" "$TMP/err" || fail "bad concept: no message"
rc=0
"$SOLVE" --shortcut 'count(push) >= 2' --verify "$PACK" > /dev/null 2> "$TMP/err" || rc=$?
expect_rc 2 "$rc" "--shortcut with --verify"
rc=0
"$GEN" combination -n 1 --require 'length > 3' > /dev/null 2> "$TMP/err" || rc=$?
expect_rc 2 "$rc" "gen --require on a game without concept queries"
rc=0
"$GEN" sokoban --from "$PACK" --suggest 2 --candidates 10 --require 'count(push) >= 2' > /dev/null 2> "$TMP/err" || rc=$?
# with --suggest it keeps only proved suggestions (cli_suggest checks them): no usage error
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "gen --require with --suggest: exit status $rc"
rc=0
"$SOLVE" --shortcut 'count(jump) >= 1' "$PACK" > /dev/null 2> "$TMP/err" || rc=$?
expect_rc 2 "$rc" "a fact the game does not have"

cli_end
