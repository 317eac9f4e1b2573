#!/bin/sh
# cli_test.sh - end-to-end tests of the solve and rate commands on the
# fixture packs in tests/levels: exit codes, "prog: file:line: message"
# errors, stdin and -o, -j 2 against -j 1, tsv and json output, solve |
# rate, solve --verify, grid-less records and the lossless text round trip.
#
# usage: cli_test.sh SOLVE RATE LEVELS_DIR
#
# The sh -c scripts below take their arguments as $1, $2...: the single
# quotes are meant.
# shellcheck disable=SC2016
set -eu

SOLVE=$1
RATE=$2
LEVELS=$3
SMALL=$LEVELS/small.xsb
BAD=$LEVELS/bad.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start cli

added='^(solvable|moves|pushes|optimal|states|limit|solution): '

# ---------------------------------------------------------------- help

for prog in "$SOLVE" "$RATE"; do
	name=$(basename "$prog")
	run "$TMP/out" "$TMP/err" "$prog" --help
	expect_rc 0 "$rc" "$name --help"
	expect_count 1 "$TMP/out" "^usage: $name" "$name --help"
	expect_empty "$TMP/err" "$name --help stderr"
	run "$TMP/out" "$TMP/err" "$prog" --version
	expect_rc 0 "$rc" "$name --version"
	expect_count 1 "$TMP/out" "$name" "$name --version"
	expect_empty "$TMP/err" "$name --version stderr"
done

# Every technique the Sokoban source registers is listed in --without's
# help, and the list is whole (it once ended at "unparked-turn," in a
# fixed buffer, hiding the rest).
SOKO_SRC=$LEVELS/../../src/games/sokoban/sokoban_level.c
if [ -f "$SOKO_SRC" ]; then
	"$SOLVE" --help | tr -s ' \n' ' ' >"$TMP/help1"
	sed -n 's/.*--without <a,b,\.\.\.> \([^)]*)\).*/\1/p' "$TMP/help1" >"$TMP/without"
	expect_count 1 "$TMP/without" ')$' "solve --help: --without's list closes"
	sed -n 's/^[[:space:]]*\[SOKO_T_[A-Z_0-9]*\] = { "\([a-z0-9-]*\)".*/\1/p' "$SOKO_SRC" >"$TMP/names"
	[ -s "$TMP/names" ] || fail "no technique names found in $SOKO_SRC"
	while read -r tech; do
		checks=$((checks + 1))
		grep -q "[ :]$tech[,)]" "$TMP/without" || fail "solve --help: --without does not list $tech"
	done <"$TMP/names"
fi

# ---------------------------------------------------------- bad usage

for args in "--bogus" "-a dfs" "--format xml" "-j x" \
	"--max-memory lots" "--timeout soon" "-d sideways" "--max-states -3"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$SOLVE" $args "$SMALL"
	expect_rc 2 "$rc" "solve $args"
	expect_count 1 "$TMP/err" "^solve: " "solve $args message"
	expect_empty "$TMP/out" "solve $args stdout"
done
# A metric or heuristic no game has is as bad an option as an unknown
# algorithm: one usage error, not one error per level.
for args in "-m steps" "--heuristic nope"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$SOLVE" $args "$SMALL"
	expect_rc 2 "$rc" "solve $args"
done
run "$TMP/out" "$TMP/err" "$RATE" --runs-algo dfs "$SMALL"
expect_rc 2 "$rc" "rate --runs-algo dfs"
run "$TMP/out" "$TMP/err" "$RATE" --runs -1 "$SMALL"
expect_rc 2 "$rc" "rate --runs -1"

# A missing file: status 2, and the files that exist are still done.
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/no-such-file.xsb"
expect_rc 2 "$rc" "solve missing file"
expect_count 1 "$TMP/err" "^solve: .*no-such-file.xsb" "solve missing file message"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/no-such-file.xsb" "$SMALL"
expect_rc 2 "$rc" "solve missing file then a good one"
expect_count 5 "$TMP/out" "^solvable: " "solve missing file then a good one"

# ------------------------------------------------------ a good pack

run "$TMP/solved" "$TMP/err" "$SOLVE" "$SMALL"
expect_rc 0 "$rc" "solve small.xsb"
expect_empty "$TMP/err" "solve small.xsb stderr"
expect_count 5 "$TMP/solved" "^solvable: " "solve small.xsb"
expect_count 1 "$TMP/solved" "^solvable: no$" "solve small.xsb unsolvable"
expect_count 4 "$TMP/solved" "^solution: " "solve small.xsb solutions"
expect_count 1 "$TMP/solved" "^solution: R$" "level 1 solution"
expect_count 1 "$TMP/solved" "^solution: RRR$" "level 4 (run-length) solution"
expect_count 4 "$TMP/solved" "^optimal: pushes$" "optimal field"

# Text round trip: without the fields solve adds, the output is the input.
grep -v -E "$added" "$TMP/solved" >"$TMP/stripped" || true
expect_same "$SMALL" "$TMP/stripped" "text round trip"
# The header record (no grid) comes out first and unchanged.
head -n 3 "$SMALL" >"$TMP/want"
head -n 3 "$TMP/solved" >"$TMP/got"
expect_same "$TMP/want" "$TMP/got" "grid-less record"
expect_count 1 "$TMP/solved" "^note: keep me$" "other fields kept"

# Moves metric: level 5 takes 8 moves (see test_sokoban.c).
run "$TMP/out" "$TMP/err" "$SOLVE" -m moves -a bfs "$SMALL"
expect_rc 0 "$rc" "solve -m moves"
expect_count 4 "$TMP/out" "^optimal: moves$" "solve -m moves optimal"
expect_count 1 "$TMP/out" "^moves: 8$" "solve -m moves level 5"

# One switch per technique: --without turns one off alone, --stats counts
# each (levels 2 and 5 have pushes onto dead squares); an unknown name
# is a usage error.
run "$TMP/out" "$TMP/err" "$SOLVE" --stats "$SMALL"
expect_rc 0 "$rc" "solve --stats"
expect_count 2 "$TMP/out" "^pruned-dead-squares: [1-9]" "dead squares counted"
expect_count 5 "$TMP/out" "^pruned-pi-corrals: " "pi-corrals counter written"
run "$TMP/out" "$TMP/err" "$SOLVE" --stats --without dead-squares,pi-corrals "$SMALL"
expect_rc 0 "$rc" "solve --without"
expect_count 5 "$TMP/out" "^pruned-dead-squares: 0$" "--without dead-squares"
expect_count 4 "$TMP/out" "^optimal: pushes$" "--without: still optimal"
expect_count 1 "$TMP/out" "^solvable: no$" "--without: unsolvable level stays so"
run "$TMP/out" "$TMP/err" "$SOLVE" --without freez "$SMALL"
expect_rc 2 "$rc" "solve --without unknown"
expect_count 1 "$TMP/err" "^solve: unknown technique 'freez'" "--without unknown message"
# --with turns on a technique that is off by default (room connectivity:
# one link between the two rooms of this level, counted only when on;
# --without wins); a technique that is on by default is a usage error.
printf '##########\n#@  ##   #\n# $ ##   #\n#  $   ..#\n##########\n' >"$TMP/rooms.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" -a any --without greedy-first --stats "$TMP/rooms.xsb"
expect_count 1 "$TMP/out" "^room-links: 0$" "room-connectivity off by default"
run "$TMP/out" "$TMP/err" "$SOLVE" -a any --without greedy-first --with room-connectivity --stats "$TMP/rooms.xsb"
expect_rc 0 "$rc" "solve --with"
expect_count 1 "$TMP/out" "^room-links: 1$" "--with room-connectivity"
expect_count 1 "$TMP/out" "^solvable: yes$" "--with: solved"
run "$TMP/out" "$TMP/err" "$SOLVE" -a any --without greedy-first,room-connectivity --with room-connectivity --stats "$TMP/rooms.xsb"
expect_count 1 "$TMP/out" "^room-links: 0$" "--without wins over --with"
run "$TMP/out" "$TMP/err" "$SOLVE" --with freeze "$SMALL"
expect_rc 2 "$rc" "solve --with on by default"
expect_count 1 "$TMP/err" "^solve: --with: no off-by-default technique 'freeze'" "--with message"

# stdin, as no file and as '-'.
run "$TMP/out" "$TMP/err" sh -c 'cat "$1" | "$2"' sh "$SMALL" "$SOLVE"
expect_rc 0 "$rc" "cat | solve"
expect_same "$TMP/solved" "$TMP/out" "cat | solve"
run "$TMP/out" "$TMP/err" sh -c '"$2" - <"$1"' sh "$SMALL" "$SOLVE"
expect_rc 0 "$rc" "solve -"
expect_same "$TMP/solved" "$TMP/out" "solve -"

# -o FILE, and -o onto the input file itself.
run "$TMP/out" "$TMP/err" "$SOLVE" -o "$TMP/written" "$SMALL"
expect_rc 0 "$rc" "solve -o"
expect_empty "$TMP/out" "solve -o stdout"
expect_same "$TMP/solved" "$TMP/written" "solve -o"
cp "$SMALL" "$TMP/inplace.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" -o "$TMP/inplace.xsb" "$TMP/inplace.xsb"
expect_rc 0 "$rc" "solve -o onto its input"
expect_same "$TMP/solved" "$TMP/inplace.xsb" "solve -o onto its input"

# -j 2 gives the same output as -j 1, errors and order included.
for _ in 1 2 3 4; do cat "$SMALL" "$BAD"; done >"$TMP/many.xsb"
run "$TMP/j1" "$TMP/j1err" "$SOLVE" -j 1 "$TMP/many.xsb"
rc1=$rc
run "$TMP/j2" "$TMP/j2err" "$SOLVE" -j 2 "$TMP/many.xsb"
expect_rc "$rc1" "$rc" "solve -j 2 status"
expect_same "$TMP/j1" "$TMP/j2" "solve -j 2 stdout"
expect_same "$TMP/j1err" "$TMP/j2err" "solve -j 2 stderr"
run "$TMP/j1" "$TMP/j1err" "$RATE" -j 1 --runs 3 "$SMALL"
run "$TMP/j2" "$TMP/j2err" "$RATE" -j 2 --runs 3 "$SMALL"
expect_same "$TMP/j1" "$TMP/j2" "rate -j 2 stdout"

# ------------------------------------------------------------ formats

run "$TMP/tsv" "$TMP/err" "$SOLVE" --format tsv "$SMALL"
expect_rc 0 "$rc" "solve --format tsv"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/tsv")" -eq 6 ] || fail "tsv: $(wc -l <"$TMP/tsv") lines, expected header + 5"
expect_count 1 "$TMP/tsv" "^record	title	" "tsv header"
checks=$((checks + 1))
head -n 1 "$TMP/tsv" | tr '\t' '\n' | grep -q -x solvable || fail "tsv header lacks solvable"
checks=$((checks + 1))
awk -F '\t' 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$TMP/tsv" ||
	fail "tsv rows differ in their number of columns"
expect_count 1 "$TMP/tsv" "^3	Round the corner	" "tsv title field"
expect_count 1 "$TMP/tsv" "^2	Level 1: one push	" "tsv title comment"

run "$TMP/json" "$TMP/err" "$SOLVE" -f json "$SMALL"
expect_rc 0 "$rc" "solve -f json"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/json")" -eq 5 ] || fail "json: expected one line per level"
expect_count 5 "$TMP/json" '"solvable":' "json solvable"
if command -v python3 >/dev/null 2>&1; then
	checks=$((checks + 1))
	python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$TMP/json" ||
		fail "json lines do not parse"
	checks=$((checks + 1))
	python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert [r["record"] for r in rows] == [2, 3, 4, 5, 6], rows
assert rows[0]["solution"] == "R" and rows[0]["moves"] == 1, rows[0]
assert rows[2]["solvable"] == "no" and "solution" not in rows[2], rows[2]
' <"$TMP/json" || fail "json content"
else
	echo "python3 not found: skipping the json parse check"
fi

# --------------------------------------------------------- solve | rate

run "$TMP/rated" "$TMP/err" sh -c '"$1" "$2" | "$3" --runs 4' sh "$SOLVE" "$SMALL" "$RATE"
expect_rc 0 "$rc" "solve | rate"
expect_empty "$TMP/err" "solve | rate stderr"
expect_count 4 "$TMP/rated" "^solution: " "solve | rate keeps the solution"
expect_count 4 "$TMP/rated" "^grade: " "solve | rate grades"
expect_count 4 "$TMP/rated" "^difficulty: " "solve | rate difficulty"
expect_count 4 "$TMP/rated" "^difficulty-min: " "solve | rate difficulty-min"
expect_count 1 "$TMP/rated" "^solvable: no$" "solve | rate unsolvable"
expect_count 1 "$TMP/rated" "^note: keep me$" "solve | rate other fields"
expect_count 5 "$TMP/rated" "^states: " "solve | rate states from solve"
run "$TMP/out" "$TMP/err" "$RATE" --runs 0 --no-mixedaim "$SMALL"
expect_rc 0 "$rc" "rate --runs 0 --no-mixedaim"
# neither published measure, but the rating still (its own effort runs)
expect_count 0 "$TMP/out" "^difficulty: " "rate --runs 0 --no-mixedaim: no difficulty"
expect_count 4 "$TMP/out" "^grade: " "rate --runs 0 --no-mixedaim: the rating's grade still"
expect_count 4 "$TMP/out" "^optimal: pushes$" "rate optimal"
run "$TMP/out" "$TMP/err" "$RATE" --single --no-mixedaim "$SMALL"
expect_rc 0 "$rc" "rate --single"
expect_count 4 "$TMP/out" "^difficulty-method: single$" "rate --single method"
expect_count 0 "$TMP/out" "^difficulty-s[de]: " "rate --single has no spread"
expect_count 4 "$TMP/out" "^grade: " "rate --single grades"

# ------------------------------------------------------- solve --verify

run "$TMP/verified" "$TMP/err" "$SOLVE" --verify "$TMP/solved"
# The unsolvable level has no solution to verify: reported, left out (an
# error: exit 2).
expect_rc 2 "$rc" "solve --verify"
expect_count 4 "$TMP/verified" "^verified: yes$" "solve --verify"
expect_count 0 "$TMP/verified" "^verified: no" "solve --verify"
expect_count 1 "$TMP/err" "^solve: $TMP/solved:[0-9][0-9]*: no solution field" "verify without solution"
# Corrupt two solutions: one illegal, one legal but not solving.
sed -e 's/^solution: R$/solution: L/' -e 's/^solution: RRR$/solution: RR/' "$TMP/solved" >"$TMP/corrupt"
run "$TMP/verified" "$TMP/err" "$SOLVE" --verify "$TMP/corrupt"
# Solutions that fail make the exit status 1, like sha256sum -c; the record
# without a solution still makes it 2.
expect_rc 2 "$rc" "solve --verify corrupted, with an error"
grep -v '^solvable: no$' "$TMP/corrupt" | awk 'BEGIN { RS = ""; ORS = "\n\n" } /solution: / { print }' >"$TMP/corrupt2"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/corrupt2"
expect_rc 1 "$rc" "solve --verify corrupted"
expect_count 2 "$TMP/verified" "^verified: yes$" "verify corrupted"
expect_count 2 "$TMP/verified" "^verified: no$" "verify corrupted"
expect_count 2 "$TMP/verified" "^verify-error: " "verify corrupted errors"
expect_count 1 "$TMP/verified" "^verify-error: .*wall" "verify corrupted: walks into a wall"

# ------------------------------------------------------ malformed records

run "$TMP/out" "$TMP/err" "$SOLVE" "$BAD"
expect_rc 2 "$rc" "solve bad.xsb"
checks=$((checks + 1))
cat >"$TMP/want" <<EOF
solve: $BAD:12: grid rows interrupted by a comment or field line
solve: $BAD:15: level has no player
solve: $BAD:22: unknown sokoban cell 'x' in column 2
EOF
expect_same "$TMP/want" "$TMP/err" "solve bad.xsb messages"
expect_count 2 "$TMP/out" "^solvable: yes$" "solve bad.xsb: the good levels"
expect_count 1 "$TMP/out" "^; bad pack$" "solve bad.xsb: the header"
expect_count 0 "$TMP/out" "^; oops$" "solve bad.xsb: malformed record left out"
expect_count 0 "$TMP/out" "^; no player$" "solve bad.xsb: invalid level left out"
expect_count 0 "$TMP/out" "^#x  #$" "solve bad.xsb: invalid level left out"

run "$TMP/out" "$TMP/err" sh -c 'cat "$1" | "$2"' sh "$BAD" "$SOLVE"
expect_rc 2 "$rc" "cat bad.xsb | solve"
expect_count 1 "$TMP/err" "^solve: <stdin>:12: grid rows interrupted" "stdin error message"
run "$TMP/out" "$TMP/err" "$RATE" --runs 2 "$BAD"
expect_rc 2 "$rc" "rate bad.xsb"
expect_count 1 "$TMP/err" "^rate: $BAD:15: level has no player" "rate error message"
expect_count 2 "$TMP/out" "^grade: " "rate bad.xsb: the good levels"

cli_end
