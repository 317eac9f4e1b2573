#!/bin/sh
# cli_comb_test.sh - end-to-end tests of Combination through the commands:
# solve and rate on the hand-worked fixtures levels/comb.xsb (every
# expected value is argued in the fixture's comments), the solver options
# (--count-limit, --no-symmetry, --no-sac, --no-gcc), solve --verify on
# levels/comb-verify.xsb, errors and exit statuses, gen combination (same
# seed same levels on one thread or two, every level unique when solved
# again, its solution verified), filter on unique, and the peaceable
# armies of 10 queens on 8x8 proved impossible (not under the sanitizers,
# where it would take minutes: CMake sets LEVELKIT_SANITIZED=1 for the
# sanitizer build and the test is skipped).
#
# usage: cli_comb_test.sh SOLVE RATE GEN FILTER LEVELS_DIR
set -eu

SOLVE=$1
RATE=$2
GEN=$3
FILTER=$4
LEVELS=$5
COMB=$LEVELS/comb.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start comb

# ---------------------------------------------------------------- solve

run "$TMP/out" "$TMP/err" "$SOLVE" "$COMB"
expect 0 "$rc" "solve comb.xsb"
check_fields "$TMP/out" "One solution" solvable=yes solutions=1 unique=yes solution='#2#1/o2.o'
check_fields "$TMP/out" "Wall" solvable=yes solutions=1 unique=yes solution='1#2'
check_fields "$TMP/out" "Hole" solvable=no solutions=0 unique=no solution=- nodes=1
# the default count limit is 2: enough to say "not unique"
check_fields "$TMP/out" "Blocked" solvable=yes solutions='>= 2' unique=no solution=132
check_fields "$TMP/out" "Armies 5" solvable=yes solutions='>= 2' unique=no
check_fields "$TMP/out" "Armies 5 too many" solvable=no solutions=0 unique=no
expect 6 "$(grep -c '^nodes: [1-9][0-9]*$' "$TMP/out" || true)" "solve: nodes"
# every solution found verifies
run "$TMP/ver" "$TMP/err" "$SOLVE" --verify "$TMP/out"
expect 2 "$rc" "solve --verify: the levels without a solution are errors"
expect 4 "$(grep -c '^verified: yes$' "$TMP/ver" || true)" "solve --verify comb"
expect 2 "$(grep -c 'no solution field to verify' "$TMP/err" || true)" "solve --verify: errors"

# a higher limit counts exactly; a limit of 1 says nothing of uniqueness
run "$TMP/out" "$TMP/err" "$SOLVE" --count-limit 100 "$COMB"
check_fields "$TMP/out" "Blocked" solutions=2 unique=no
check_fields "$TMP/out" "Wall" solutions=1 unique=yes
run "$TMP/out" "$TMP/err" "$SOLVE" --count-limit 1 "$COMB"
check_fields "$TMP/out" "One solution" solvable=yes solutions='>= 1' unique=-
# without symmetry breaking the wall level has two solutions (either
# colour on the left); SAC and GCC change nothing in the counts
for opts in "--no-symmetry" "--no-symmetry --no-sac" "--no-symmetry --no-gcc" \
	"--no-symmetry --no-sac --no-gcc"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$SOLVE" --count-limit 100 $opts "$COMB"
	expect 0 "$rc" "solve $opts"
	check_fields "$TMP/out" "Wall" solutions=2 unique=no
	check_fields "$TMP/out" "One solution" solutions=1 unique=yes
	check_fields "$TMP/out" "Blocked" solutions=2
	check_fields "$TMP/out" "Armies 5 too many" solvable=no
done
run "$TMP/out" "$TMP/err" "$SOLVE" --no-sac --no-gcc --count-limit 100 "$COMB"
check_fields "$TMP/out" "Wall" solutions=1 unique=yes
# a bound on the nodes: unknown, and the limit named
run "$TMP/out" "$TMP/err" "$SOLVE" --max-states 5 "$COMB"
expect 0 "$rc" "solve --max-states 5"
check_fields "$TMP/out" "Armies 5 too many" solvable=unknown limit=states
check_fields "$TMP/out" "Wall" solvable=yes limit=-

# ----------------------------------------------------------------- rate

run "$TMP/rated" "$TMP/err" "$RATE" "$COMB"
expect 0 "$rc" "rate comb.xsb"
R=$TMP/rated
check_fields "$R" "One solution" solvable=yes solutions=1 unique=yes
# Every order takes two nodes: the root, then the first square's piece,
# which forces the rest (a wrong colour fails in propagation, no node).
check_fields "$R" "Wall" difficulty=2.0 difficulty-sd=0.0 difficulty-se=0.0 nodes-static=2
check_fields "$R" "Hole" solvable=no difficulty=- difficulty-sd=- difficulty-se=- nodes-static=1
check_fields "$R" "Armies 5 too many" solvable=no difficulty=-
expect 4 "$(values "$R" difficulty | grep -c '^[0-9][0-9]*\.[0-9]$' || true)" "rate: difficulty"
expect 4 "$(values "$R" difficulty-sd | grep -c '^[0-9][0-9]*\.[0-9]$' || true)" "rate: difficulty-sd"
# the standard error is the deviation over the square root of the 50 runs
values "$R" difficulty-sd > "$TMP/sd"
values "$R" difficulty-se > "$TMP/se"
expect 4 "$(paste "$TMP/sd" "$TMP/se" |
	awk '$1 != "-" { d = $1 / sqrt(50) - $2; if (d < 0.06 && d > -0.06) n++ } END { print n + 0 }')" \
	"rate: difficulty-se = difficulty-sd / sqrt(runs)"
expect 4 "$(values "$R" grade | grep -c . || true)" "rate: grade"
# the single method: one solve in the static order, its nodes the difficulty
# (in the paper's model: solve --paper-model --static-order finds the same)
run "$TMP/out" "$TMP/err" "$RATE" --single "$COMB"
expect 0 "$rc" "rate --single"
check_fields "$TMP/out" "Armies 5" difficulty=264.0 nodes-static=264 difficulty-method=single difficulty-sd=- \
	difficulty-se=-
run "$TMP/out2" "$TMP/err" "$SOLVE" --paper-model --static-order --count-limit 1 "$COMB"
check_fields "$TMP/out2" "Armies 5" nodes=264
# every grade is the band of its rating (docs/rating.md: two units a band)
expect "" "$(paste "$(values "$TMP/out" rating >"$TMP/ra"; echo "$TMP/ra")" \
	"$(values "$TMP/out" grade >"$TMP/gr"; echo "$TMP/gr")" |
	awk 'function band(x, b) { b = int(x / 2 + 0.5) + 1; if (b > 6) b = 6; if (x < 1) b = 1; return b }
	     # the rating is printed rounded: one within 0.05 of the edge of a band may be in either
	     { split("trivial easy medium hard very-hard extreme", g, " ");
	       if (g[band($1 - 0.05)] != $2 && g[band($1 + 0.049)] != $2) print }')" "rate --single: grade from the rating"
expect 4 "$(grep -c . "$TMP/gr" || true)" "rate --single: a rating and a grade for each solvable level"
check_fields "$TMP/out" "Hole" difficulty=- difficulty-method=-
# the same seed, the same figures; --runs 0 leaves the difficulty out
run "$TMP/rated2" "$TMP/err" "$RATE" "$COMB"
checks=$((checks + 1))
cmp -s "$R" "$TMP/rated2" || fail "rate: same seed, different output"
run "$TMP/out" "$TMP/err" "$RATE" --runs 0 "$COMB"
expect 0 "$(grep -c '^difficulty' "$TMP/out" || true)" "rate --runs 0"
check_fields "$TMP/out" "One solution" unique=yes

# -------------------------------------------------------------- verify

run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$LEVELS/comb-verify.xsb"
# some of its solutions are wrong on purpose: exit 1, like sha256sum -c
expect 1 "$rc" "solve --verify comb-verify.xsb"
check_fields "$TMP/out" "Right" verified=yes verify-error=-
check_fields "$TMP/out" "Right, rows cut where only walls and holes remain" verified=yes
check_fields "$TMP/out" "Right, mirrored" verified=yes
check_fields "$TMP/out" "Attack" verified=no
check_fields "$TMP/out" "Count" verified=no
check_fields "$TMP/out" "On a wall" verified=no
check_fields "$TMP/out" "Short row" verified=no
expect 4 "$(grep -c '^verify-error: ' "$TMP/out" || true)" "verify: errors written"
expect attack "$(field "$TMP/out" Attack verify-error | grep -o attack)" "verify: the attack named"

# -------------------------------------------------------------- errors

printf 'title: Bad cell\ngame: combination\npieces: 1 red rook\n..\n.x\n' >"$TMP/bad.xsb"
printf '\ntitle: No pieces\ngame: combination\n..\n' >>"$TMP/bad.xsb"
printf '\ntitle: Bad kind\ngame: combination\npieces: 1 red king\n..\n' >>"$TMP/bad.xsb"
printf '\ntitle: Good\ngame: combination\npieces: 1 red rook\n..\n' >>"$TMP/bad.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/bad.xsb"
expect 2 "$rc" "solve bad.xsb"
expect 1 "$(grep -c '^title: ' "$TMP/out" || true)" "solve bad.xsb: the good level written"
expect 1 "$(grep -c 'bad.xsb:5:.*column 2' "$TMP/err" || true)" "solve bad.xsb: bad cell"
expect 1 "$(grep -c 'bad.xsb:7:.*no pieces field' "$TMP/err" || true)" "solve bad.xsb: no pieces"
expect 1 "$(grep -c "bad.xsb:13:.*'king'" "$TMP/err" || true)" "solve bad.xsb: bad kind"
run "$TMP/out" "$TMP/err" "$SOLVE" --count-limit x "$COMB"
expect 2 "$rc" "solve --count-limit x"

# ------------------------------------------------------------------ gen

# -t 0: no time bound, so the output cannot depend on the machine; one
# thread and two give the same levels.
run "$TMP/g1" "$TMP/err" "$GEN" combination -n 5 --seed 3 -t 0 -j 1
expect 0 "$rc" "gen combination"
expect 5 "$(grep -c '^game: combination$' "$TMP/g1" || true)" "gen: levels"
expect 5 "$(grep -c '^unique: yes$' "$TMP/g1" || true)" "gen: unique"
# settings: only what means something to a constraint solver
expect 5 "$(grep -c '^settings: tries=10000 nodes=300000 time=0$' "$TMP/g1" || true)" \
	"gen combination: settings without a search algorithm or direction"
run "$TMP/g2" "$TMP/err" "$GEN" combination -n 5 --seed 3 -t 0 -j 2
checks=$((checks + 1))
cmp -s "$TMP/g1" "$TMP/g2" || fail "gen combination: same seed, different output"
# at least 6 pieces each
expect 5 "$(values "$TMP/g1" pieces | awk -F', ' '{ n = 0; for (i = 1; i <= NF; i++) n += $i; if (n >= 6) k++ } END { print k + 0 }')" \
	"gen: 6 pieces or more"
# solved again from the bare levels: unique, and the solutions verify
grep -v -E '^(solvable|solutions|unique|nodes|limit): ' "$TMP/g1" >"$TMP/bare" || true
run "$TMP/solved" "$TMP/err" "$SOLVE" "$TMP/bare"
expect 0 "$rc" "solve gen"
expect 5 "$(grep -c '^unique: yes$' "$TMP/solved" || true)" "gen: unique when solved again"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/solved"
expect 5 "$(grep -c '^verified: yes$' "$TMP/out" || true)" "gen: solutions verify"
# filter on unique; the five are distinct
run "$TMP/out" "$TMP/err" "$FILTER" -c 'unique == "yes"' "$TMP/solved"
expect 5 "$(cat "$TMP/out")" "filter 'unique == \"yes\"'"
run "$TMP/out" "$TMP/err" "$FILTER" -c 'unique == "yes"' "$TMP/rated"
expect 2 "$(cat "$TMP/out")" "filter 'unique == \"yes\"' on comb.xsb"
run "$TMP/out" "$TMP/err" "$FILTER" --dedupe --count "$TMP/g1"
expect 5 "$(cat "$TMP/out")" "filter --dedupe gen"
# --harder is --param harder=1: the same levels (two builds to pick from and
# a short climb, not four and the default: the sanitizer build is slow, and
# test_comb_gen checks the bias)
run "$TMP/h1" "$TMP/err" "$GEN" combination -n 2 --seed 4 --harder -p pick=2 -p climb=3 -j 1
expect 0 "$rc" "gen combination --harder"
run "$TMP/h2" "$TMP/err" "$GEN" combination -n 2 --seed 4 -p harder=1 -p pick=2 -p climb=3 -j 1
checks=$((checks + 1))
cmp -s "$TMP/h1" "$TMP/h2" || fail "gen --harder differs from -p harder=1"
expect 2 "$(grep -c '^unique: yes$' "$TMP/h1" || true)" "gen --harder: unique"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 1 --easier
expect 2 "$rc" "gen sokoban --easier"
expect 1 "$(grep -c "does not apply to sokoban (it applies to combination)" "$TMP/err" || true)" "gen sokoban --easier: message names the games"
run "$TMP/out" "$TMP/err" "$GEN" combination -n 1 -p colour=2
expect 2 "$rc" "gen combination -p colour=2"
expect 1 "$(grep -c "no parameter 'colour'" "$TMP/err" || true)" "gen -p colour=2: message"

# ---------------------------------------------- 10 queens each on 8x8

case ${LEVELKIT_SANITIZED:-0} in
1)
	echo "skipped: armies of 10 queens on 8x8 (sanitizer build)" ;;
*)
	run "$TMP/out" "$TMP/err" "$SOLVE" -t 120 "$LEVELS/comb-armies8.xsb"
	expect 0 "$rc" "solve comb-armies8.xsb"
	check_fields "$TMP/out" "Armies 8, 9 each" solvable=yes
	check_fields "$TMP/out" "Armies 8, 10 each" solvable=no solutions=0 ;;
esac

cli_end
