#!/bin/sh
# cli_slide_test.sh - end-to-end tests of the slide games (fruit, skiddy)
# through the commands: solve and rate on the hand-worked fixtures
# levels/fruit.xsb and levels/skiddy.xsb (every expected value is argued in
# the fixtures' comments), filter on the star rating, rate --graph on a
# tiny Sokoban level, and gen fruit / gen skiddy: thresholds met, levels
# re-solved and re-rated independently, same seed same output.
#
# usage: cli_slide_test.sh SOLVE RATE GEN FILTER LEVELS_DIR
set -eu

SOLVE=$1
RATE=$2
GEN=$3
FILTER=$4
LEVELS=$5
FRUIT=$LEVELS/fruit.xsb
SKIDDY=$LEVELS/skiddy.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start slide

analysis_fields='^(solvable|moves|pushes|optimal|states|limit|solution|reachable|dead-ends|dead-end-path|solutions|combo-moves|noncombo-moves|stars|graph): '

# ---------------------------------------------------------------- fruit

run "$TMP/out" "$TMP/err" "$SOLVE" "$FRUIT"
expect 0 "$rc" "solve fruit.xsb"
check_fields "$TMP/out" "S corridor" solvable=yes moves=4 optimal=moves
check_fields "$TMP/out" "Mud trap" solvable=yes moves=1
check_fields "$TMP/out" "Hedgehog" solvable=no moves=-
check_fields "$TMP/out" "One way" solvable=yes moves=1 solution=r
# every solution found replays to a win
run "$TMP/ver" "$TMP/err" "$SOLVE" --verify "$TMP/out"
expect 3 "$(grep -c '^verified: yes$' "$TMP/ver" || true)" "solve --verify fruit"

run "$TMP/out" "$TMP/err" "$RATE" --runs 0 --no-mixedaim "$FRUIT"
expect 0 "$rc" "rate fruit.xsb"
check_fields "$TMP/out" "S corridor" moves=4 optimal=moves reachable=8 dead-ends=0 \
	dead-end-path=- solutions=4 stars=-
check_fields "$TMP/out" "Mud trap" moves=1 reachable=3 dead-ends=1 dead-end-path=d solutions=2
check_fields "$TMP/out" "Hedgehog" solvable=no reachable=3 dead-ends=3 \
	"dead-end-path=(the start)" solutions=-
check_fields "$TMP/out" "One way" moves=1 reachable=3 dead-ends=0 solutions=1

# ---------------------------------------------------------------- skiddy

run "$TMP/out" "$TMP/err" "$SOLVE" "$SKIDDY"
expect 0 "$rc" "solve skiddy.xsb"
check_fields "$TMP/out" "Three stars" moves=1 solution=r
check_fields "$TMP/out" "Two stars" moves=3
check_fields "$TMP/out" "One star" moves=1 solution=r
check_fields "$TMP/out" "No star" moves=2 solution=ur
check_fields "$TMP/out" "Equal" moves=2

run "$TMP/rated" "$TMP/err" "$RATE" --runs 0 --no-mixedaim "$SKIDDY"
expect 0 "$rc" "rate skiddy.xsb"
R=$TMP/rated
check_fields "$R" "Three stars" moves=1 reachable=6 dead-ends=0 solutions=1 stars=3 \
	combo-moves=1 noncombo-moves=3
check_fields "$R" "Two stars" moves=3 reachable=10 dead-ends=0 solutions=4 stars=2 \
	combo-moves=4 noncombo-moves=3
check_fields "$R" "One star" moves=1 reachable=5 dead-ends=0 solutions=1 stars=1 \
	combo-moves=1 noncombo-moves=-
check_fields "$R" "No star" moves=2 reachable=15 dead-ends=2 dead-end-path=l solutions=1 \
	stars=0 combo-moves=2 noncombo-moves=3
check_fields "$R" "Equal" moves=2 reachable=7 dead-ends=0 solutions=2 stars=3 \
	combo-moves=2 noncombo-moves=2

# filter keeps the two three-star levels, in order
run "$TMP/three" "$TMP/err" "$FILTER" 'stars == 3' "$R"
expect 0 "$rc" "filter 'stars == 3'"
expect "Three stars|Equal" "$(values "$TMP/three" title | paste -s -d '|' -)" "filter 'stars == 3'"
run "$TMP/out" "$TMP/err" "$FILTER" -c 'stars >= 1 && stars < 3' "$R"
expect "2" "$(cat "$TMP/out")" "filter 'stars >= 1 && stars < 3' -c"
# unrated levels have no stars: an error (docs/filter.md), unless has() asks
run "$TMP/out" "$TMP/err" "$FILTER" 'stars == 3' "$SKIDDY"
expect 2 "$rc" "filter 'stars == 3' on unrated levels"
run "$TMP/out" "$TMP/err" "$FILTER" 'has(stars) && stars == 3' "$SKIDDY"
expect 1 "$rc" "filter 'has(stars) && stars == 3' on unrated levels keeps none"

# ----------------------------------------------------- a tiny Sokoban

# The box goes right onto the goal, or is pushed into the corner from the
# right (the player walks d r r u first): five dead states, one per
# player square, in the raw moves graph.
printf '#####\n#@$.#\n#   #\n#####\n' >"$TMP/soko.xsb"
run "$TMP/out" "$TMP/err" "$RATE" --graph --plain -m moves --runs 0 --no-mixedaim "$TMP/soko.xsb"
expect 0 "$rc" "rate --graph sokoban"
expect 11 "$(values "$TMP/out" reachable)" "sokoban reachable"
expect 5 "$(values "$TMP/out" dead-ends)" "sokoban dead-ends"
expect drruL "$(values "$TMP/out" dead-end-path)" "sokoban dead-end-path"
expect 1 "$(values "$TMP/out" solutions)" "sokoban solutions"
# without --graph, Sokoban is not analysed
run "$TMP/out" "$TMP/err" "$RATE" --runs 0 --no-mixedaim "$TMP/soko.xsb"
expect "" "$(values "$TMP/out" dead-ends)" "sokoban without --graph"

# ------------------------------------------------------------ gen fruit

# -t 0: no time bound, only gen's state bound, so that the output cannot
# depend on the machine (docs/gen.md); -j 1: the output does not depend on
# it (checked below) and one thread wastes no speculative candidates.
run "$TMP/fruit" "$TMP/err" "$GEN" fruit -n 5 --min-moves 6 --no-dead-ends --seed 3 -t 0 -j 1
expect 0 "$rc" "gen fruit"
expect 5 "$(grep -c '^game: fruit$' "$TMP/fruit" || true)" "gen fruit: levels"
expect 5 "$(grep -c '^dead-ends: 0$' "$TMP/fruit" || true)" "gen fruit: dead-ends 0"
expect 5 "$(values "$TMP/fruit" moves | awk '$1 >= 6' | wc -l | tr -d ' ')" "gen fruit: moves >= 6"
# re-solved from scratch, the moves agree
grep -v -E "$analysis_fields" "$TMP/fruit" >"$TMP/bare" || true
expect 0 "$(grep -c '^moves: ' "$TMP/bare" || true)" "gen fruit: stripped"
run "$TMP/solved" "$TMP/err" "$SOLVE" -a bfs "$TMP/bare"
expect 0 "$rc" "solve gen fruit"
expect "$(values "$TMP/fruit" moves)" "$(values "$TMP/solved" moves)" "gen fruit: solve's moves"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/fruit"
expect 5 "$(grep -c '^verified: yes$' "$TMP/out" || true)" "gen fruit: solutions replay"
# Same seed, same output, on one thread or two (smaller boards: quick even
# under the sanitizers); the first index of -n 3 is the level of -n 1.
run "$TMP/f1" "$TMP/err" "$GEN" fruit -n 3 --size 6x6 --min-moves 4 --seed 3 -t 0 -j 1
expect 3 "$(grep -c '^game: fruit$' "$TMP/f1" || true)" "gen fruit --size 6x6: levels"
run "$TMP/f2" "$TMP/err" "$GEN" fruit -n 3 --size 6x6 --min-moves 4 --seed 3 -t 0 -j 2
checks=$((checks + 1))
cmp -s "$TMP/f1" "$TMP/f2" || fail "gen fruit: same seed, different output"
run "$TMP/f3" "$TMP/err" "$GEN" fruit -n 1 --size 6x6 --min-moves 4 --seed 3 -t 0
expect "$(awk 'BEGIN { RS = "" } NR == 1' "$TMP/f1")" "$(awk 'BEGIN { RS = "" } NR == 1' "$TMP/f3")" \
	"gen fruit: index 0 alone"
run "$TMP/f4" "$TMP/err" "$GEN" fruit -n 3 --size 6x6 --min-moves 4 --seed 4 -t 0
checks=$((checks + 1))
! cmp -s "$TMP/f1" "$TMP/f4" || fail "gen fruit: seeds 3 and 4 give the same levels"

# the obstacle fields, to filter on: every level has them, the density is
# the stones over the open cells of its own grid, and filter keeps exactly
# the levels at or below a density
expect 5 "$(grep -c '^obstacles: [0-9]*$' "$TMP/fruit" || true)" "gen fruit: obstacles"
awk 'BEGIN { RS = "" } { n = split($0, line, "\n"); open = 0; stones = 0; d = ""
	for (i = 1; i <= n; i++) {
		if (line[i] ~ /^obstacle-density: /) d = substr(line[i], 19)
		if (line[i] ~ /^[#a-zO~HNESW. ]+$/ && line[i] ~ /#/) {
			open += gsub(/[^#]/, "&", line[i]); stones += gsub(/O/, "O", line[i]) }
	}
	if (sprintf("%.3f", stones / open) != d) { print "record " NR ": " d " but " stones "/" open; bad = 1 } }
	END { exit bad }' "$TMP/fruit" || fail "gen fruit: obstacle-density is stones over open cells"
checks=$((checks + 1))
run "$TMP/sparse" "$TMP/err" "$FILTER" 'obstacle-density <= 0.05' "$TMP/fruit"
expect "$(values "$TMP/fruit" obstacle-density | awk '$1 <= 0.05' | wc -l | tr -d ' ')" \
	"$(grep -c '^game: fruit$' "$TMP/sparse" || true)" "filter on obstacle-density"

# ----------------------------------------------------------- gen skiddy

run "$TMP/skiddy" "$TMP/err" "$GEN" skiddy -n 3 --stars 3 --seed 2 -t 0
expect 0 "$rc" "gen skiddy"
expect 3 "$(grep -c '^game: skiddy$' "$TMP/skiddy" || true)" "gen skiddy: levels"
expect 3 "$(grep -c '^stars: 3$' "$TMP/skiddy" || true)" "gen skiddy: stars 3"
grep -v -E "$analysis_fields" "$TMP/skiddy" >"$TMP/bare" || true
expect 0 "$(grep -c '^stars: ' "$TMP/bare" || true)" "gen skiddy: stripped"
run "$TMP/rerated" "$TMP/err" "$RATE" --runs 0 --no-mixedaim "$TMP/bare"
expect 0 "$rc" "rate gen skiddy"
expect "3 3 3" "$(values "$TMP/rerated" stars | paste -s -d ' ' -)" "gen skiddy: rate's stars"
expect "$(values "$TMP/skiddy" combo-moves)" "$(values "$TMP/rerated" combo-moves)" \
	"gen skiddy: rate's combo-moves"
run "$TMP/skiddy2" "$TMP/err" "$GEN" skiddy -n 3 --stars 3 --seed 2 -t 0
checks=$((checks + 1))
cmp -s "$TMP/skiddy" "$TMP/skiddy2" || fail "gen skiddy: same seed, different output"
run "$TMP/skiddy3" "$TMP/err" "$GEN" skiddy -n 3 --stars 3 --seed 5 -t 0
checks=$((checks + 1))
! cmp -s "$TMP/skiddy" "$TMP/skiddy3" || fail "gen skiddy: seeds 2 and 5 give the same levels"

cli_end
