#!/bin/sh
# cli_gen_test.sh - end-to-end tests of the gen command: reproducible runs
# (same seed twice, -j 1 against -j 2), shards that merge into the run they
# split, --resume after a file cut in the middle of a record and after an
# interrupted run (SIGINT: status 130, whole records), resume errors,
# solve --verify and an independent solve against gen's own fields, push
# thresholds, usage errors (status 2), the transformer (--from, --rules)
# and --suggest.
#
# usage: cli_gen_test.sh GEN SOLVE LEVELS_DIR [FILTER]
#
# With FILTER the merged shards are deduplicated by `filter --dedupe`;
# without it they are only sorted by their index field.
#
# The sh -c scripts below take their arguments as $1, $2...: the single
# quotes are meant.
# shellcheck disable=SC2016
set -eu

GEN=$1
SOLVE=$2
LEVELS=$3
FILTER=${4:-}
FROM=$LEVELS/gen-from.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start gen

# watchdog SECS PID: kill PID after SECS seconds unless the watchdog, whose
# process id lands in $dog, is stopped first (kill "$dog"; it then takes
# its sleep with it).
watchdog() {
	(
		trap 'kill "$nap" 2>/dev/null; exit 0' TERM
		sleep "$1" &
		nap=$!
		wait "$nap" && kill -KILL "$2"
	) >/dev/null 2>&1 &
	dog=$!
}

# run_limited SECS OUT ERR CMD...: like run, but the command is killed
# after SECS seconds, so that a run that never ends fails its checks
# instead of hanging the test.
run_limited() {
	secs=$1
	out=$2
	err=$3
	shift 3
	"$@" >"$out" 2>"$err" </dev/null &
	pid=$!
	watchdog "$secs" "$pid"
	rc=0
	wait "$pid" || rc=$?
	kill "$dog" 2>/dev/null || true
}

# by_index FILE: one line per level record, "INDEX<TAB>the record's lines
# joined by |", sorted by index.
by_index() {
	awk 'BEGIN { RS = "" }
	     /(^|\n)index: / {
		idx = $0; sub(/.*(^|\n)index: /, "", idx); sub(/\n.*/, "", idx)
		rec = $0; gsub(/\n/, "|", rec)
		print idx "\t" rec
	     }' "$1" | sort -t "$(printf '\t')" -k1,1n
}

# field_values FILE FIELD: the values of FIELD, one a line.
field_values() {
	sed -n "s/^$2: //p" "$1"
}
# all_between FILE FIELD LO HI: there are FIELD values, all in [LO, HI].
all_between() {
	vals=$(field_values "$1" "$2")
	[ -n "$vals" ] || return 1
	echo "$vals" | awk -v lo="$3" -v hi="$4" '$1 < lo || $1 > hi { bad = 1 } END { exit bad }'
}

# ends_with_blank_line FILE
ends_with_blank_line() {
	[ "$(tail -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = "0a0a" ]
}

solved_fields='^(solvable|moves|pushes|optimal|states|limit|solution): '

# ---------------------------------------------------------------- help

run "$TMP/out" "$TMP/err" "$GEN" --help
expect_rc 0 "$rc" "gen --help"
expect_count 1 "$TMP/out" "^usage: gen" "gen --help usage line"

# ---------------------------------------------------------- bad usage

for args in "" "chess" "sokoban --shard 3/3" "sokoban --shard 1/0" "sokoban --size 2x2" \
	"sokoban --size big" "sokoban --param nope=1" "sokoban --param boxes=0" \
	"sokoban -g nope" "sokoban --bogus" "sokoban extra" "sokoban -n many" \
	"sokoban --rules $TMP/no-such.rules" "sokoban --rules $LEVELS/gen-bad.rules" \
	"sokoban -f puzzlescript" "fruit -f puzzlescript" "sokoban --title T"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$GEN" $args -n 1
	expect_rc 2 "$rc" "gen $args"
	expect_count 0 "$TMP/out" "^generator: " "gen $args: no level written"
	checks=$((checks + 1))
	grep -q "^gen: " "$TMP/err" || fail "gen $args: no 'gen: ' message"
done
run "$TMP/out" "$TMP/err" "$GEN" sokoban --rules "$LEVELS/gen-bad.rules" -n 1
expect_count 1 "$TMP/err" "gen-bad.rules:3: unknown object 'Diamond'" "bad rules file: file and line"

# ------------------------------------------------------ reproducible

run "$TMP/a" "$TMP/err" "$GEN" sokoban -n 20 --seed 3
expect_rc 0 "$rc" "gen -n 20 --seed 3"
expect_count 20 "$TMP/a" "^generator: backward$" "gen -n 20: levels"
expect_count 20 "$TMP/a" "^seed: 3$" "gen -n 20: seed field"
expect_count 20 "$TMP/a" "^solvable: yes$" "gen -n 20: solvable"
run "$TMP/b" "$TMP/err" "$GEN" sokoban -n 20 --seed 3
expect_same "$TMP/a" "$TMP/b" "gen --seed 3 twice"
expect_count 1 "$TMP/err" "^gen: 20 levels written .*; seed 3, next index 20$" "the summary says the seed"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 2
expect_count 1 "$TMP/err" "; seed 1, next index" "the summary says the default seed"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 2 --seed 5 --shard 2/3
expect_count 1 "$TMP/err" "; seed 5, shard 2/3, next index" "the summary says the seed and the shard"
run "$TMP/j1" "$TMP/err" "$GEN" sokoban -n 20 --seed 3 -j 1
run "$TMP/j2" "$TMP/err" "$GEN" sokoban -n 20 --seed 3 -j 2
expect_same "$TMP/j1" "$TMP/j2" "gen -j 1 and -j 2"
expect_same "$TMP/a" "$TMP/j1" "gen -j 1 and the default"
run "$TMP/c" "$TMP/err" "$GEN" sokoban -n 20 --seed 4
checks=$((checks + 1))
! cmp -s "$TMP/a" "$TMP/c" || fail "gen --seed 3 and --seed 4 give the same levels"

# ------------------------------------------------------ solve agrees

run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/a"
expect_rc 0 "$rc" "solve --verify on gen's output"
expect_count 20 "$TMP/out" "^verified: yes$" "solve --verify: every solution replays"
# An independent A* solve of the bare levels finds the same optimal pushes.
grep -v -E "$solved_fields" "$TMP/a" >"$TMP/bare" || true
expect_count 0 "$TMP/bare" "^pushes: " "stripped levels"
run "$TMP/solved" "$TMP/err" "$SOLVE" -a astar -m pushes "$TMP/bare"
expect_rc 0 "$rc" "solve the stripped levels"
field_values "$TMP/a" pushes >"$TMP/p-gen"
field_values "$TMP/solved" pushes >"$TMP/p-solve"
expect_same "$TMP/p-gen" "$TMP/p-solve" "gen's pushes against solve's"
expect_count 20 "$TMP/p-solve" "." "solve found every level's pushes"

# --------------------------------------------------------- thresholds

run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 10 --seed 5 --min-pushes 15
expect_rc 0 "$rc" "gen --min-pushes 15"
expect_count 10 "$TMP/out" "^generator: " "gen --min-pushes 15: levels"
expect_true "gen --min-pushes 15: every level has >= 15 pushes" \
	all_between "$TMP/out" pushes 15 1000000
grep -v -E "$solved_fields" "$TMP/out" | "$SOLVE" >"$TMP/solved"
expect_true "gen --min-pushes 15: solve agrees" all_between "$TMP/solved" pushes 15 1000000
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 10 --seed 5 --max-pushes 6
expect_rc 0 "$rc" "gen --max-pushes 6"
expect_true "gen --max-pushes 6: every level has <= 6 pushes" all_between "$TMP/out" pushes 1 6

# -------------------------------------------------------------- shards

run "$TMP/n30" "$TMP/err" "$GEN" sokoban -n 30 --seed 7
for k in 0 1 2; do
	run "$TMP/s$k" "$TMP/err" "$GEN" sokoban -n 10 --seed 7 --shard "$k/3"
	expect_rc 0 "$rc" "gen --shard $k/3"
	expect_count 10 "$TMP/s$k" "^generator: " "gen --shard $k/3: levels"
	expect_true "gen --shard $k/3: indices are $k mod 3" sh -c \
		'sed -n "s/^index: //p" "$1" | awk -v k="$2" "\$1 % 3 != k { bad = 1 } END { exit bad }"' \
		sh "$TMP/s$k" "$k"
done
cat "$TMP/s0" "$TMP/s1" "$TMP/s2" >"$TMP/merged"
if [ -n "$FILTER" ]; then
	run "$TMP/merged-dedup" "$TMP/err" "$FILTER" --dedupe "$TMP/merged"
	expect_rc 0 "$rc" "filter --dedupe on the merged shards"
	mv "$TMP/merged-dedup" "$TMP/merged"
fi
by_index "$TMP/merged" >"$TMP/merged-sorted"
by_index "$TMP/n30" >"$TMP/n30-sorted"
expect_count 30 "$TMP/n30-sorted" "." "gen -n 30: records"
expect_same "$TMP/n30-sorted" "$TMP/merged-sorted" "shards 0/3 1/3 2/3 merged against -n 30"

# -------------------------------------------------------------- resume

# A file cut in the middle of its last record.
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 10 --seed 8 -o "$TMP/r"
expect_rc 0 "$rc" "gen -n 10 -o"
total=$(wc -c <"$TMP/r")
last=$(awk 'BEGIN { RS = "" } { n = length($0) } END { print n }' "$TMP/r")
head -c $((total - last / 2 - 2)) "$TMP/r" >"$TMP/r.cut"
mv "$TMP/r.cut" "$TMP/r"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 25 --seed 8 --resume "$TMP/r" -o "$TMP/r"
expect_rc 0 "$rc" "gen --resume a cut file"
expect_count 1 "$TMP/err" "cut short" "gen --resume a cut file: says it drops the record"
run "$TMP/straight" "$TMP/err" "$GEN" sokoban -n 25 --seed 8
expect_same "$TMP/straight" "$TMP/r" "resumed after a cut against a straight run"
# Resuming a finished run to a larger count, and to the count it has.
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 10 --seed 8 -o "$TMP/r2"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 25 --seed 8 --resume "$TMP/r2" -o "$TMP/r2"
expect_same "$TMP/straight" "$TMP/r2" "resumed from a whole file against a straight run"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 25 --seed 8 --resume "$TMP/r2" -o "$TMP/r2"
expect_rc 0 "$rc" "gen --resume a finished run"
expect_same "$TMP/straight" "$TMP/r2" "resuming a finished run adds nothing"
# A shard resumed.
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 4 --seed 8 --shard 1/3 -o "$TMP/r3"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 8 --seed 8 --shard 1/3 --resume "$TMP/r3" -o "$TMP/r3"
run "$TMP/want" "$TMP/err" "$GEN" sokoban -n 8 --seed 8 --shard 1/3
expect_same "$TMP/want" "$TMP/r3" "a shard resumed against a straight shard"

# Resume errors: another seed, another shard.
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 12 --seed 9 --resume "$TMP/r2" -o "$TMP/other"
expect_rc 2 "$rc" "gen --resume a file of another seed"
expect_count 1 "$TMP/err" "^gen: $TMP/r2:[0-9][0-9]*: .*seed" "another seed: file:line message"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 12 --seed 8 --shard 2/3 --resume "$TMP/r2"
expect_rc 2 "$rc" "gen --resume a file of another shard"
expect_count 1 "$TMP/err" "^gen: $TMP/r2:[0-9][0-9]*: .*shard" "another shard: file:line message"

# ------------------------------------------------------- interrupted

# interrupt NAME ARGS...: start a long run writing to $TMP/NAME, interrupt
# it once it has written something, then resume it to a few more levels
# and compare with a straight run.  Whenever the interrupt lands, the
# file must hold whole records that a straight run would have written.
# (The long run uses one job, the others every core: the levels do not
# depend on it.)
interrupt() {
	name=$1
	shift
	f=$TMP/$name
	"$GEN" sokoban -n 100000 -j 1 "$@" -o "$f" 2>"$TMP/err" </dev/null &
	pid=$!
	# a watchdog, in case the interrupt is lost
	watchdog 120 "$pid"
	# wait for a first level (the signal handlers are in place by then),
	# in tenths of seconds where sleep takes them
	i=0
	while [ ! -s "$f" ] && [ "$i" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.1 2>/dev/null || sleep 1
		i=$((i + 1))
	done
	sleep 0.3 2>/dev/null || sleep 1
	kill -INT "$pid" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	kill "$dog" 2>/dev/null || true
	expect_rc 130 "$rc" "gen $* interrupted"
	expect_true "gen $* interrupted: the file ends with a blank line" ends_with_blank_line "$f"
	expect_count 1 "$TMP/err" "interrupted" "gen $* interrupted: says so"
	n=$(grep -c "^generator: " "$f" || true)
	checks=$((checks + 1))
	[ "$n" -gt 0 ] || fail "gen $* interrupted: nothing written"
	run "$TMP/straight" "$TMP/err2" "$GEN" sokoban -n $((n + 3)) "$@"
	head -c "$(wc -c <"$f")" "$TMP/straight" >"$TMP/prefix"
	expect_same "$TMP/prefix" "$f" "gen $* interrupted: what was written"
	run "$TMP/out" "$TMP/err2" "$GEN" sokoban -n $((n + 3)) "$@" --resume "$f" -o "$f"
	expect_rc 0 "$rc" "gen $* resumed after the interrupt"
	expect_same "$TMP/straight" "$f" "gen $* resumed after the interrupt against a straight run"
}
interrupt int20 --min-pushes 20
# Without a threshold every candidate is accepted, also one whose
# exploration the interrupt cut short: it must not be written.
interrupt int0 --seed 2

# ------------------------------------------------------- transformer

run "$TMP/t" "$TMP/err" "$GEN" sokoban --from "$FROM" -n 3 --param steps=5
expect_rc 0 "$rc" "gen --from"
expect_count 3 "$TMP/t" "^generator: transform$" "gen --from: levels"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/t"
expect_count 3 "$TMP/out" "^verified: yes$" "gen --from: solutions replay"
grep -v -E "$solved_fields" "$TMP/t" | "$SOLVE" >"$TMP/solved"
field_values "$TMP/t" pushes >"$TMP/p-gen"
field_values "$TMP/solved" pushes >"$TMP/p-solve"
expect_same "$TMP/p-gen" "$TMP/p-solve" "gen --from: pushes against solve's"
run "$TMP/t2" "$TMP/err" "$GEN" sokoban --from "$FROM" -n 3 --param steps=5
expect_same "$TMP/t" "$TMP/t2" "gen --from twice"
run "$TMP/t" "$TMP/err" "$GEN" sokoban --from "$FROM" --rules "$LEVELS/gen-move.rules" -n 3 \
	--param steps=5
expect_rc 0 "$rc" "gen --from --rules FILE"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/t"
expect_count 3 "$TMP/out" "^verified: yes$" "gen --rules FILE: solutions replay"
# Every preset makes levels; pull wants every crate on a target, as in
# the random rooms made without --from.
for preset in walls move pair mix pull push; do
	start="--from $FROM"
	[ "$preset" != pull ] || start="--size 7x7 --param boxes=2"
	# shellcheck disable=SC2086
	run_limited 60 "$TMP/t" "$TMP/err" "$GEN" sokoban $start --rules "$preset" -n 2 \
		--param steps=5
	expect_rc 0 "$rc" "gen --rules $preset"
	expect_count 2 "$TMP/t" "^solvable: yes$" "gen --rules $preset: levels"
done

# ----------------------------------------------------------- suggest

run "$TMP/out" "$TMP/err" "$GEN" sokoban --suggest 2 --candidates 200 --from "$FROM" \
	--rules move -o "$TMP/sugg"
expect_rc 0 "$rc" "gen --suggest"
nrank=$(grep -c "^rank: " "$TMP/sugg" || true)
checks=$((checks + 1))
if [ "$nrank" -lt 1 ] || [ "$nrank" -gt 2 ]; then
	fail "gen --suggest 2: $nrank ranked records"
fi
expect_count 1 "$TMP/sugg" "^rank: 1$" "gen --suggest: rank 1"
[ "$nrank" -lt 2 ] || expect_count 1 "$TMP/sugg" "^rank: 2$" "gen --suggest: rank 2"
expect_count "$nrank" "$TMP/sugg" "^solvable: yes$" "gen --suggest: solvable"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/sugg"
expect_count "$nrank" "$TMP/out" "^verified: yes$" "gen --suggest: solutions replay"
grep -v -E "$solved_fields" "$TMP/sugg" | "$SOLVE" >"$TMP/solved"
expect_count "$nrank" "$TMP/solved" "^solvable: yes$" "gen --suggest: solve agrees"

# -m, --plain and --heuristic take effect in gen: the transformer ranks its
# suggestions in the state space they choose.  In the pruned push space the
# fixture's levels take a handful of states; move by move with no pruning
# (MixedAim's own space) they take tens, and other levels come out on top.
run "$TMP/push" "$TMP/err" "$GEN" sokoban --from "$FROM" --suggest 3 --candidates 40 -t 0 \
	--max-states 200000 --seed 3
run "$TMP/move" "$TMP/err" "$GEN" sokoban --from "$FROM" --suggest 3 --candidates 40 -t 0 \
	--max-states 200000 --seed 3 --plain -m moves
last_block() { awk 'BEGIN { RS = "" } { last = $0 } END { print last }' "$1"; }
# MixedAim's adaptive time limit (8 times the best candidates' time) can cut
# one of the three searches on a loaded or sanitized build; difficulty-min is
# then written as a bound ("<= 682", the other two searches' least count),
# whose number is what is compared here.
push_best=$(last_block "$TMP/push" | sed -n 's/^difficulty-min: \(<= \)\{0,1\}//p' | sort -n | tail -n 1)
move_best=$(last_block "$TMP/move" | sed -n 's/^difficulty-min: \(<= \)\{0,1\}//p' | sort -n | tail -n 1)
checks=$((checks + 1))
[ -n "$push_best" ] && [ -n "$move_best" ] && [ "$move_best" -gt "$push_best" ] ||
	fail "gen --plain -m moves: hardest suggestion $move_best states, push space $push_best"
checks=$((checks + 1))
[ "$(last_block "$TMP/push" | grep -v -E '^(difficulty-min|states-|moves|pushes|optimal|solution|solvable|rank|from):')" != \
  "$(last_block "$TMP/move" | grep -v -E '^(difficulty-min|states-|moves|pushes|optimal|solution|solvable|rank|from):')" ] ||
	fail "gen --plain -m moves: the same suggestions as in the push space"
run "$TMP/m" "$TMP/err" "$GEN" sokoban -n 3 -m moves --seed 5 -t 0 --max-states 200000
expect_count 3 "$TMP/m" "^optimal: moves$" "gen -m moves: solutions optimal in moves"
expect_count 3 "$TMP/m" "^settings: .* metric=moves" "gen -m moves: in the settings"

# A run asked for more levels than its space holds ends (Lights Out on 2x2
# has 16 starts, 15 of them solvable): it gives up after a long run of
# duplicates, with exit status 1 and the levels it found.
rc=0
timeout 120 "$GEN" lightsout --size 2x2 -n 30 --seed 1 -j 2 >"$TMP/lo" 2>"$TMP/err" || rc=$?
expect_rc 1 "$rc" "gen lightsout --size 2x2 -n 30: more than its space holds"
expect_count 1 "$TMP/err" "levels in a row were duplicates" "gen on an exhausted space: says why it stopped"
expect_true "gen on an exhausted space: wrote levels" grep -q "^game: lightsout" "$TMP/lo"

cli_end
