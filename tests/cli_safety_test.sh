#!/bin/sh
# cli_safety_test.sh - regression tests of issue 10 (the commands tried as
# a new user would): no command loses a user's data (resume, -o onto an
# input, -o onto another file), nothing hangs on bad rules, Ctrl-C ends a
# pipeline quietly with 130, one exit-status table, write errors said as
# such, numbers checked, control bytes escaped, options that do not apply
# refused, tsv columns that stay put, and what gen writes (record numbers,
# settings, Combination's solution, named rejections, no solved starts).
#
# usage: cli_safety_test.sh GEN SOLVE RATE FILTER LEVELS_DIR
#
# The sh -c scripts below take their arguments as $1, $2...: the single
# quotes are meant.
# shellcheck disable=SC2016
set -eu

GEN=$1
SOLVE=$2
RATE=$3
FILTER=$4
LEVELS=$5
SMALL=$LEVELS/small.xsb
BAD=$LEVELS/bad.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start safety

# ------------------------------------------------- resume never deletes

cp "$SMALL" "$TMP/hand.xsb"
cp "$SMALL" "$TMP/hand.orig"
run "$TMP/out" "$TMP/err" "$GEN" sokoban --resume "$TMP/hand.xsb" -n 3 -o "$TMP/hand.xsb"
expect_rc 2 "$rc" "resume a hand-made pack"
expect_same "$TMP/hand.orig" "$TMP/hand.xsb" "resume a hand-made pack: file untouched"
expect_count 1 "$TMP/err" "not written by gen" "resume a hand-made pack: says why"

printf 'just some notes\nabout nothing\n' >"$TMP/notes.txt"
cp "$TMP/notes.txt" "$TMP/notes.orig"
run "$TMP/out" "$TMP/err" "$GEN" sokoban --resume "$TMP/notes.txt" -n 3 -o "$TMP/notes.txt"
expect_rc 2 "$rc" "resume a plain text file"
expect_same "$TMP/notes.orig" "$TMP/notes.txt" "resume a plain text file: untouched"

run "$TMP/run.xsb" "$TMP/err" "$GEN" sokoban -n 3 --seed 5
expect_rc 0 "$rc" "gen -n 3"
# a hand-made level appended, with and without the blank line after it
for tail in clean torn; do
	cp "$TMP/run.xsb" "$TMP/mixed.xsb"
	if [ $tail = clean ]; then
		printf '; mine\n#####\n#@$.#\n#####\n\n' >>"$TMP/mixed.xsb"
	else
		printf '; mine\n#####\n#@$.#\n#####' >>"$TMP/mixed.xsb"
	fi
	cp "$TMP/mixed.xsb" "$TMP/mixed.orig"
	run "$TMP/out" "$TMP/err" "$GEN" sokoban --seed 5 --resume "$TMP/mixed.xsb" -n 6 -o "$TMP/mixed.xsb"
	expect_rc 2 "$rc" "resume a gen file with a hand-made level ($tail)"
	expect_same "$TMP/mixed.orig" "$TMP/mixed.xsb" "resume with a hand-made level ($tail): untouched"
done

# json and tsv output cannot be resumed
for fmt in json tsv; do
	run "$TMP/run.$fmt" "$TMP/err" "$GEN" sokoban -n 2 --seed 5 -f $fmt
	cp "$TMP/run.$fmt" "$TMP/run.$fmt.orig"
	run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 4 --seed 5 -f $fmt --resume "$TMP/run.$fmt" -o "$TMP/run.$fmt"
	expect_rc 2 "$rc" "resume -f $fmt"
	expect_same "$TMP/run.$fmt.orig" "$TMP/run.$fmt" "resume -f $fmt: untouched"
	run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 4 --seed 5 --resume "$TMP/run.$fmt" -o "$TMP/run.$fmt"
	expect_rc 2 "$rc" "resume a $fmt file as text"
	expect_same "$TMP/run.$fmt.orig" "$TMP/run.$fmt" "resume a $fmt file as text: untouched"
done

# the settings of the run must be the same
run "$TMP/p25.xsb" "$TMP/err" "$GEN" sokoban -n 2 --seed 5 --min-pushes 12
cp "$TMP/p25.xsb" "$TMP/p25.orig"
for changed in "" "--size 9x9 --min-pushes 12" "-p boxes=3 --min-pushes 12" "--min-pushes 13"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 4 --seed 5 $changed --resume "$TMP/p25.xsb" -o "$TMP/p25.xsb"
	expect_rc 2 "$rc" "resume with other settings '$changed'"
	expect_count 1 "$TMP/err" "other settings" "resume with other settings '$changed': says so"
	expect_same "$TMP/p25.orig" "$TMP/p25.xsb" "resume with other settings '$changed': untouched"
done
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 4 --seed 5 --min-pushes 12 --resume "$TMP/p25.xsb" -o "$TMP/p25.xsb"
expect_rc 0 "$rc" "resume with the same settings"
run "$TMP/straight" "$TMP/err" "$GEN" sokoban -n 4 --seed 5 --min-pushes 12
expect_same "$TMP/straight" "$TMP/p25.xsb" "resumed run equals a straight run"

# a torn tail that is not the next level of this run is left alone
cp "$TMP/run.xsb" "$TMP/torn.xsb"
printf '; sokoban backward 5-99\n####' >>"$TMP/torn.xsb"
cp "$TMP/torn.xsb" "$TMP/torn.orig"
run "$TMP/out" "$TMP/err" "$GEN" sokoban --seed 5 --resume "$TMP/torn.xsb" -n 5 -o "$TMP/torn.xsb"
expect_rc 2 "$rc" "resume over a torn tail that is not ours"
expect_same "$TMP/torn.orig" "$TMP/torn.xsb" "torn tail not ours: untouched"

# ---------------------------------------------- -o over an existing file

cp "$TMP/run.xsb" "$TMP/night.xsb"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 2 --seed 9 -o "$TMP/night.xsb"
expect_rc 2 "$rc" "gen -o over an existing file"
expect_same "$TMP/run.xsb" "$TMP/night.xsb" "gen -o over an existing file: untouched"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 2 --seed 9 -o "$TMP/night.xsb" --force
expect_rc 0 "$rc" "gen -o --force"
expect_count 2 "$TMP/night.xsb" "^seed: 9$" "gen -o --force replaces"
cp "$SMALL" "$TMP/other.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/run.xsb" -o "$TMP/other.xsb"
expect_rc 2 "$rc" "solve -o over another file"
expect_same "$SMALL" "$TMP/other.xsb" "solve -o over another file: untouched"

# -o onto an input keeps every record, the failed ones with an error field
cp "$BAD" "$TMP/inplace.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" -t 2 "$TMP/inplace.xsb" -o "$TMP/inplace.xsb"
expect_rc 2 "$rc" "solve -o onto its input with bad records"
grep -v -E '^(error|solvable|moves|pushes|optimal|states|solution|limit): ' "$TMP/inplace.xsb" >"$TMP/stripped"
expect_same "$BAD" "$TMP/stripped" "solve -o onto its input: every line kept, in order"
expect_count 3 "$TMP/inplace.xsb" "^error: " "solve -o onto its input: failed records marked"
expect_count 2 "$TMP/inplace.xsb" "^solvable: yes$" "solve -o onto its input: good levels solved"
cp "$BAD" "$TMP/inplace2.xsb"
run "$TMP/out" "$TMP/err" "$RATE" -k 2 -t 2 "$TMP/inplace2.xsb" -o "$TMP/inplace2.xsb"
expect_count 3 "$TMP/inplace2.xsb" "^error: " "rate -o onto its input: failed records kept"
cp "$BAD" "$TMP/inplace3.xsb"
run "$TMP/out" "$TMP/err" "$FILTER" 'has(x)' "$TMP/inplace3.xsb" -o "$TMP/inplace3.xsb" -f tsv
expect_rc 2 "$rc" "filter -o onto its input as tsv"
expect_same "$BAD" "$TMP/inplace3.xsb" "filter -o onto its input as tsv: untouched"
# a UTF-8 byte order mark before the pack: nothing lost either way
printf '\357\273\277' >"$TMP/bom.xsb"
cat "$SMALL" >>"$TMP/bom.xsb"
n_before=$(grep -c '^#' "$TMP/bom.xsb")
run "$TMP/out" "$TMP/err" "$SOLVE" -t 2 "$TMP/bom.xsb" -o "$TMP/bom.xsb"
expect_count "$n_before" "$TMP/bom.xsb" "^#" "solve -o onto a pack with a BOM: every grid row kept"

# an SLC collection is XML, not records: replacing it would lose its form
for slc in "$LEVELS"/packs/*.slc; do
	[ -f "$slc" ] || continue
	cp "$slc" "$TMP/coll.slc"
	run "$TMP/out" "$TMP/err" "$SOLVE" -t 2 "$TMP/coll.slc" -o "$TMP/coll.slc"
	expect_rc 2 "$rc" "solve -o onto an SLC collection"
	expect_same "$slc" "$TMP/coll.slc" "solve -o onto an SLC collection: untouched"
	break
done

# ------------------------------------------------------ no hang on rules

printf ')' >"$TMP/paren.rules"
run "$TMP/out" "$TMP/err" timeout 10 "$GEN" sokoban -g transform --rules "$TMP/paren.rules" -n 1
expect_rc 2 "$rc" "rules ')'"
expect_count 1 "$TMP/err" "paren.rules:1: unmatched ')'" "rules ')': file:line message"
printf '(a comment) [Wall] -> [] )' >"$TMP/paren2.rules"
run "$TMP/out" "$TMP/err" timeout 10 "$GEN" sokoban -g transform --rules "$TMP/paren2.rules" -n 1
expect_rc 2 "$rc" "rules with a stray ')'"

# -------------------------------------------------- Ctrl-C on a pipeline

if command -v setsid >/dev/null 2>&1; then
	for cmd in solve rate filter; do
		case $cmd in
		solve) c=$SOLVE ;;
		rate) c=$RATE ;;
		filter) c="$FILTER has(seed)" ;;
		esac
		rm -f "$TMP/int.rc"
		# the shell setsid starts leads the pipeline's process group,
		# the group a terminal's Ctrl-C goes to
		setsid sh -c 'echo $$ >"$3/int.pgid"; "$1" sokoban -n 1000000 -j 1 2>/dev/null | $2 >/dev/null 2>"$3/int.err"; echo $? >"$3/int.rc"' \
			sh "$GEN" "$c" "$TMP" &
		sleep 1
		kill -INT "-$(cat "$TMP/int.pgid")" 2>/dev/null || true
		i=0
		while [ ! -s "$TMP/int.rc" ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		if [ ! -s "$TMP/int.rc" ]; then
			kill -KILL "-$(cat "$TMP/int.pgid")" 2>/dev/null || true
			echo none >"$TMP/int.rc"
		fi
		wait || true
		expect_rc 130 "$(cat "$TMP/int.rc")" "Ctrl-C on gen | $cmd"
		checks=$((checks + 1))
		[ ! -s "$TMP/int.err" ] || fail "Ctrl-C on gen | $cmd: says $(cat "$TMP/int.err")"
	done
else
	echo "setsid not found: skipping the Ctrl-C tests"
fi

# -------------------------------------------------------- exit statuses

run "$TMP/solved" "$TMP/err" "$SOLVE" "$SMALL"
grep -v '^solvable: no$' "$TMP/solved" |
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /solution: / { print }' >"$TMP/good"
sed 's/^solution: R$/solution: RL/' "$TMP/good" >"$TMP/after"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/good"
expect_rc 0 "$rc" "verify good solutions"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/after"
expect_rc 1 "$rc" "verify a solution with a move after the win"
expect_count 1 "$TMP/out" "^verify-error: the level is solved after move 1" "verify: moves after the win"
run "$TMP/out" "$TMP/err" "$FILTER" 'has(nothing)' "$SMALL"
expect_rc 1 "$rc" "filter keeps nothing"
run "$TMP/out" "$TMP/err" "$FILTER" 'has(title) || 1 == 1' "$BAD"
expect_rc 2 "$rc" "filter on a malformed record"
run "$TMP/out" "$TMP/err" "$SOLVE" "$BAD"
expect_rc 2 "$rc" "solve on a malformed record"
run "$TMP/out" "$TMP/err" "$FILTER" --dedupe "$TMP/missing-a.xsb" "$TMP/missing-b.xsb"
expect_rc 2 "$rc" "filter --dedupe missing files"
expect_count 2 "$TMP/err" "missing-.\.xsb" "filter --dedupe missing files: names them"
expect_count 0 "$TMP/err" "expression" "filter --dedupe missing files: no expression error"

if [ -w /dev/full ]; then
	run "$TMP/out" "$TMP/err" sh -c '"$1" sokoban -n 3 >/dev/full' sh "$GEN"
	expect_rc 2 "$rc" "gen > /dev/full"
	expect_count 1 "$TMP/err" "stopped by a write error" "gen > /dev/full: says so"
	expect_count 0 "$TMP/err" "interrupted" "gen > /dev/full: not called an interruption"
fi

# -------------------------------------------------------- numbers checked

for bad in "--max-memory 99999999999T" "--max-memory nan" "--max-memory inf" "--max-memory 1e300" \
	"--timeout nan" "--timeout inf" "--size 4294967306x10" "--size 0x5" "--min-pushes nan" \
	"--shard -1/3" "-n -1"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 1 $bad
	expect_rc 2 "$rc" "gen $bad"
done
run "$TMP/out" "$TMP/err" "$SOLVE" --max-memory 1e300 "$SMALL"
expect_rc 2 "$rc" "solve --max-memory 1e300"

# ----------------------------------------------- control bytes escaped

# (a bare CR ends a line, as in old Mac files; an escape byte is the
# kind that garbles a terminal)
printf '#####\n#@$\033.#\n#####\n' >"$TMP/esc.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/esc.xsb"
expect_rc 2 "$rc" "a grid with an escape byte"
expect_count 1 "$TMP/err" "'\\\\x1b'" "an escape byte is written as \\x1b"
checks=$((checks + 1))
if od -An -c "$TMP/err" | grep -q '033'; then
	fail "a raw escape byte reached stderr"
fi

# ------------------------------------------ options that do not apply

for combo in "sokoban --stars 3" "fruit --min-pushes 3" "combination --min-moves 3" \
	"fruit --from $SMALL" "combination --no-dead-ends" "skiddy --min-pushes 2"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" timeout 20 "$GEN" $combo -n 1
	expect_rc 2 "$rc" "gen $combo"
	expect_count 1 "$TMP/err" "does not apply to" "gen $combo: names the games"
done

# ------------------------------------------------------------ tsv columns

run "$TMP/r1" "$TMP/err" "$RATE" -k 3 -f tsv "$SMALL"
run "$TMP/r2" "$TMP/err" sh -c '"$1" "$2" | "$3" -k 3 -f tsv' sh "$SOLVE" "$SMALL" "$RATE"
checks=$((checks + 1))
[ "$(head -n 1 "$TMP/r1" | cut -f 7)" = difficulty ] || fail "rate -f tsv: column 7 is $(head -n 1 "$TMP/r1" | cut -f 7)"
checks=$((checks + 1))
[ "$(head -n 1 "$TMP/r2" | cut -f 7)" = difficulty ] || fail "solve | rate -f tsv: column 7 is $(head -n 1 "$TMP/r2" | cut -f 7)"
expect_count 0 "$TMP/r1" "stars" "rate -f tsv on sokoban: no slide-game columns"
run "$TMP/r3" "$TMP/err" "$RATE" -k 3 -f tsv --fields title,grade "$SMALL"
checks=$((checks + 1))
[ "$(head -n 1 "$TMP/r3")" = "$(printf 'title\tgrade')" ] || fail "rate --fields: header $(head -n 1 "$TMP/r3")"
run "$TMP/g" "$TMP/err" "$GEN" sokoban -n 3 -f tsv
checks=$((checks + 1))
[ "$(cut -f 1 "$TMP/g" | tr '\n' ' ')" = "record 1 2 3 " ] || fail "gen -f tsv: records $(cut -f 1 "$TMP/g" | tr '\n' ' ')"

# ------------------------------------------------------ what gen writes

run "$TMP/g" "$TMP/err" "$GEN" combination -n 2 -t 0
expect_count 2 "$TMP/g" "^solution: " "gen combination writes the solution"
expect_count 0 "$TMP/err" "too-short" "gen combination: no too-short rejections"
run "$TMP/g" "$TMP/err" "$GEN" fruit -n 1 --max-states 30 --max-tries 30
expect_count 1 "$TMP/err" "state-bound" "gen: the state bound is named"
expect_count 0 "$TMP/err" "timeout" "gen: a state bound is not called timeout"
run "$TMP/g" "$TMP/err" "$GEN" sokoban -n 20 --seed 11
expect_count 0 "$TMP/g" "^moves: 0$" "gen sokoban: no solved starts"
run "$TMP/rated" "$TMP/err" "$RATE" -k 5 "$TMP/g"
expect_count 0 "$TMP/rated" "^grade: trivial$" "gen sokoban: no trivial levels by default"
run "$TMP/g" "$TMP/err" "$GEN" sokoban --from "$SMALL" --rules pull -n 3 --param steps=5
expect_count 0 "$TMP/g" "^moves: 0$" "pull preset: no solved starts"
run "$TMP/g" "$TMP/err" "$GEN" sokoban --from "$LEVELS/gen-from.xsb" --suggest 2 --candidates 30 -t 1
expect_rc 0 "$rc" "gen --suggest --candidates"
expect_count 0 "$TMP/err" "until interrupted" "gen --suggest with a limit: no warning"
checks=$((checks + 1))
grep -q "^from: $LEVELS/gen-from.xsb record " "$TMP/g" || fail "gen --suggest: no from field"

# ================================================ issue 18, sections 2 and 4

# ------------------------------------------------------- an endless line

# The reader stops at 16 MiB per line instead of taking all memory: the
# run is bounded in memory when the system lets us bound it (an address
# space limit breaks the sanitizers' runtime, which is checked first).
limit=
if sh -c 'ulimit -v 400000 && exec "$1" --version' sh "$SOLVE" >/dev/null 2>&1; then
	limit="ulimit -v 400000 &&"
fi
run "$TMP/out" "$TMP/err" timeout 60 sh -c "$limit"' exec "$1" /dev/zero' sh "$SOLVE"
expect_rc 2 "$rc" "solve /dev/zero"
expect_line "solve: /dev/zero:1: line too long (limit 16777216 bytes)" "$TMP/err" "solve /dev/zero: message"
run "$TMP/out" "$TMP/err" timeout 60 sh -c "$limit"' head -c 20000000 /dev/zero | "$1" -k 1' sh "$RATE"
expect_rc 2 "$rc" "rate on an endless stdin line"
expect_line "rate: <stdin>:1: line too long (limit 16777216 bytes)" "$TMP/err" "rate on stdin: message"
# a pack whose third record holds a line too long: the levels before it
# are solved, and -o onto the pack leaves it as it was
{ cat "$SMALL"; printf '\n; long\n'; head -c 17000000 /dev/zero | tr '\0' '#'; printf '\n'; } >"$TMP/long.xsb"
cp "$TMP/long.xsb" "$TMP/long.orig"
long_line=$(($(wc -l <"$SMALL") + 3))
run "$TMP/out" "$TMP/err" timeout 60 "$SOLVE" -t 2 "$TMP/long.xsb"
expect_rc 2 "$rc" "solve a pack with a line too long"
expect_count 5 "$TMP/out" "^solvable: " "a line too long: the levels before it solved"
expect_line "solve: $TMP/long.xsb:$long_line: line too long (limit 16777216 bytes)" "$TMP/err" \
	"a line too long: file and line"
run "$TMP/out" "$TMP/err" timeout 60 "$SOLVE" -t 2 "$TMP/long.xsb" -o "$TMP/long.xsb"
expect_rc 2 "$rc" "solve -o onto a pack with a line too long"
expect_same "$TMP/long.orig" "$TMP/long.xsb" "a line too long: the input is not replaced"
rm -f "$TMP/long.xsb" "$TMP/long.orig" "$TMP"/long.xsb.tmp*

# whole-file readers (gen's --rules and --resume) stop a device or pipe
# at 64 MiB
for opt in --rules --resume; do
	run "$TMP/out" "$TMP/err" timeout 60 sh -c "$limit"' exec "$1" sokoban "$2" /dev/zero -n 1' sh "$GEN" "$opt"
	expect_rc 2 "$rc" "gen $opt /dev/zero"
	expect_count 1 "$TMP/err" "^gen: /dev/zero: .*: File too large$" "gen $opt /dev/zero: says why"
done

# What memory is spent is the input's own: a record of long lines held
# whole runs out under a small limit, and the message names the program.
if [ -n "$limit" ]; then
	run "$TMP/out" "$TMP/err" timeout 60 sh -c '
		{ printf "Comment:\n"; i=0; while [ $i -lt 12 ]; do head -c 16000000 /dev/zero | tr "\0" x; echo; i=$((i + 1)); done; } |
		{ ulimit -v 150000 && exec "$1"; }' sh "$SOLVE"
	expect_count 1 "$TMP/err" "^solve: out of memory allocating [0-9]* bytes$" "out of memory: the program's name"
fi

# ------------------------------------ -o: no empty file, none replaced

for cmd in solve rate filter; do
	case $cmd in
	solve) c="$SOLVE" ;;
	rate) c="$RATE" ;;
	filter) c="$FILTER --dedupe" ;;
	esac
	rm -f "$TMP/left.xsb"
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" $c "$TMP/missing.xsb" -o "$TMP/left.xsb"
	expect_rc 2 "$rc" "$cmd missing.xsb -o"
	checks=$((checks + 1))
	[ ! -e "$TMP/left.xsb" ] || fail "$cmd missing.xsb -o left a file behind"
done
: >"$TMP/empty-out.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" "$SMALL" -o "$TMP/empty-out.xsb"
expect_rc 2 "$rc" "solve -o over an empty file"
expect_count 0 "$TMP/empty-out.xsb" "." "solve -o over an empty file: untouched"
run "$TMP/out" "$TMP/err" "$SOLVE" "$SMALL" -o "$TMP/empty-out.xsb" --force
expect_rc 0 "$rc" "solve -o --force over an empty file"
expect_count 5 "$TMP/empty-out.xsb" "^solvable: " "solve -o --force over an empty file: written"
: >"$TMP/empty-gen.xsb"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 1 -o "$TMP/empty-gen.xsb"
expect_rc 2 "$rc" "gen -o over an empty file"
# a run that writes no level leaves no file of its own
rm -f "$TMP/none.xsb"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 1 --size 5x5 --max-tries 5 -o "$TMP/none.xsb"
expect_rc 1 "$rc" "gen that gives up"
checks=$((checks + 1))
[ ! -e "$TMP/none.xsb" ] || fail "gen that wrote no level left its file behind"

# --fields: a name that is no field is an error for every command (gen
# and filter as solve and rate), and a bad --fields leaves no file: not
# a new -o file, not a .tmp beside an input it would have replaced
for cmd in solve rate filter gen; do
	case $cmd in
	solve) c="$SOLVE $SMALL" ;;
	rate) c="$RATE -k 2 $SMALL" ;;
	filter) c="$FILTER has(title) $SMALL" ;;
	gen) c="$GEN sokoban -n 1 --seed 3" ;;
	esac
	for list in record,mvoes 'a b'; do
		rm -f "$TMP/fields.tsv"
		# shellcheck disable=SC2086
		run "$TMP/out" "$TMP/err" $c -f tsv --fields "$list" -o "$TMP/fields.tsv"
		expect_rc 2 "$rc" "$cmd --fields $list"
		checks=$((checks + 1))
		[ ! -e "$TMP/fields.tsv" ] || fail "$cmd --fields $list -o: left a file behind"
	done
	expect_count 1 "$TMP/err" "^$cmd: --fields: 'a b' is not a field name$" "$cmd --fields 'a b': says so"
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" $c -f tsv --fields record,mvoes
	expect_count 1 "$TMP/err" "^$cmd: --fields: no field 'mvoes' (the fields here: record, title" \
		"$cmd --fields record,mvoes: names the fields there are"
	expect_count 0 "$TMP/out" "." "$cmd --fields record,mvoes: nothing written"
done
for cmd in solve rate filter; do
	case $cmd in
	solve) c="$SOLVE" ;;
	rate) c="$RATE -k 2" ;;
	filter) c="$FILTER has(title)" ;;
	esac
	cp "$SMALL" "$TMP/in.xsb"
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" $c "$TMP/in.xsb" -f tsv --fields record,mvoes -o "$TMP/in.xsb" --force
	expect_rc 2 "$rc" "$cmd --fields record,mvoes -o onto its input"
	expect_same "$SMALL" "$TMP/in.xsb" "$cmd --fields record,mvoes -o onto its input: input untouched"
	expect_count 0 "$TMP/err" "left as it was" "$cmd --fields record,mvoes -o onto its input: no output to point to"
	checks=$((checks + 1))
	! ls "$TMP"/in.xsb.tmp* >/dev/null 2>&1 || fail "$cmd --fields record,mvoes -o onto its input: a .tmp left"
done

# ------------------------------------------------------- no levels read

: >"$TMP/empty.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/empty.xsb"
expect_rc 1 "$rc" "solve empty.xsb"
expect_line "solve: $TMP/empty.xsb: no levels read" "$TMP/err" "solve empty.xsb: says so"
run "$TMP/out" "$TMP/err" "$RATE"
expect_rc 1 "$rc" "rate on empty stdin"
expect_line "rate: <stdin>: no levels read" "$TMP/err" "rate on empty stdin: says so"
printf '; a header only\n' >"$TMP/header.xsb"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/header.xsb" "$TMP/empty.xsb"
expect_rc 1 "$rc" "solve on a header and an empty file"
expect_line "solve: no levels read from the 2 inputs" "$TMP/err" "solve on two inputs: says so"
expect_count 1 "$TMP/out" "^; a header only$" "solve on a header: the header passes"
printf 'record\ttitle\tsolvable\n1\t1\tyes\n' >"$TMP/table.tsv"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/table.tsv"
expect_rc 1 "$rc" "solve --verify on a tsv table"
expect_line "solve: $TMP/table.tsv:1: a table (-f tsv) holds no levels: give the records (-f text) instead" \
	"$TMP/err" "solve --verify on a tsv table: says why"
expect_count 1 "$TMP/out" "^1	1	yes$" "solve --verify on a tsv table: the table passes"

# ----------------------------------------------- contradictory thresholds

for bad in "--min-pushes 5 --max-pushes 3" "--min-moves 9 --max-moves 8" "--difficulty 5:1" \
	"--min-difficulty 5 --max-difficulty 1" "--size 4x4" "-g transform --size 4x4" "--max-pushes -1"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" timeout 5 "$GEN" sokoban -n 1 $bad
	expect_rc 2 "$rc" "gen sokoban $bad: refused at once"
	expect_count 0 "$TMP/err" "tried" "gen sokoban $bad: nothing tried"
done
run "$TMP/out" "$TMP/err" "$GEN" sokoban --min-pushes 5 --max-pushes 3
expect_count 1 "$TMP/err" "min-pushes 5 is above --max-pushes 3" "empty band: named"
run "$TMP/out" "$TMP/err" "$GEN" sokoban --size 4x4
expect_count 1 "$TMP/err" "the smallest square size that can is 5x5" "--size 4x4: the smallest size"
run "$TMP/out" "$TMP/err" timeout 60 "$GEN" sokoban -n 1 --size 5x5 -p boxes=1 --min-pushes 1
expect_rc 0 "$rc" "gen sokoban --size 5x5 (the smallest size said) makes a level"

# ------------------------------------------- options that do not apply

run "$TMP/out" "$TMP/err" "$SOLVE" --tidy -t 2 "$SMALL"
expect_rc 0 "$rc" "solve --tidy on Sokoban: still solved"
expect_line "solve: --tidy applied to no level read (it applies to laser)" "$TMP/err" \
	"solve --tidy on Sokoban: said once"
expect_count 1 "$TMP/err" "." "solve --tidy on Sokoban: one line"
run "$TMP/out" "$TMP/err" "$RATE" -k 2 --runs-algo bfs --no-symmetry "$LEVELS/../../levels/combination-sample.xsb"
expect_line "rate: --runs-algo applied to no level read (it applies to sokoban, fruit, skiddy, puzzlescript and lightsout)" \
	"$TMP/err" "rate --runs-algo on Combination"
expect_count 0 "$TMP/err" "no-symmetry" "rate --no-symmetry on Combination: it applies"
run "$TMP/out" "$TMP/err" "$SOLVE" --count-limit 0 "$SMALL"
expect_rc 2 "$rc" "solve --count-limit 0"
run "$TMP/out" "$TMP/err" "$SOLVE" --verify -a bfs -t 3 "$SMALL"
expect_rc 2 "$rc" "solve --verify -a bfs"
expect_count 1 "$TMP/err" "^solve: -a and -t do not apply to --verify" "solve --verify -a: names both as typed"
run "$TMP/out" "$TMP/err" "$SOLVE" --shortcut 'count(push) >= 2' -m moves "$SMALL"
expect_rc 2 "$rc" "solve --shortcut -m"
run "$TMP/out" "$TMP/err" "$FILTER" --tidy 'has(title)' "$SMALL"
expect_rc 2 "$rc" "filter --tidy without --forall"
run "$TMP/out" "$TMP/err" "$FILTER" -t 5 'has(title)' "$SMALL"
expect_rc 2 "$rc" "filter -t without --forall"
for combo in "combination -a bfs" "combination -m moves" "laser --plain" "fruit -m pushes" \
	"fruit --heuristic matching" "sokoban --tidy" "sokoban --count-limit 5"; do
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" timeout 5 "$GEN" $combo -n 1
	expect_rc 2 "$rc" "gen $combo: refused at once"
done
run "$TMP/out" "$TMP/err" "$GEN" sokoban --from "$LEVELS/gen-from.xsb" --suggest 2 -n 5
expect_rc 2 "$rc" "gen --suggest -n"
expect_count 1 "$TMP/err" "^gen: -n does not apply to --suggest" "gen --suggest -n: says -n"

# -------------------------------------------------------------- messages

run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/missing.xsb"
expect_line "solve: $TMP/missing.xsb: cannot open: No such file or directory" "$TMP/err" "cannot open: file first, once"
mkdir -p "$TMP/adir"
run "$TMP/out" "$TMP/err" "$SOLVE" "$TMP/adir"
expect_line "solve: $TMP/adir: read error: Is a directory" "$TMP/err" "a directory: file once"
run "$TMP/out" "$TMP/err" "$GEN" sokoban --from "$TMP/mine.xsb" -n 1
expect_line "gen: $TMP/mine.xsb: cannot open: No such file or directory" "$TMP/err" "gen --from missing: file once"
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 1 --seed 3
expect_count 1 "$TMP/err" "^gen: 1 level written (1 in all), .* 0 duplicates dropped, 0 indices failed" "gen: singular and plural"
run "$TMP/p12.xsb" "$TMP/err" "$GEN" sokoban -n 1 --seed 5 --min-pushes 12
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 2 --seed 5 --min-pushes 13 --resume "$TMP/p12.xsb" -o "$TMP/p12.xsb"
expect_rc 2 "$rc" "resume with other settings"
expect_count 0 "$TMP/err" '\\n' "resume with other settings: no literal \\n"
expect_count 1 "$TMP/err" "the file's: .*; this run's: " "resume with other settings: both settings on one line"
run "$TMP/run.tsv" "$TMP/err" "$GEN" sokoban -n 1 --seed 5 -f tsv
run "$TMP/out" "$TMP/err" "$GEN" sokoban -n 2 --seed 5 --resume "$TMP/run.tsv" -o "$TMP/run.tsv"
expect_line "gen: $TMP/run.tsv: this is tsv, not gen's text output; --resume continues only a run written as text (the default -f), and leaves this file as it is" \
	"$TMP/err" "resume a tsv file: says what it is"

# the progress line, on a terminal (script(1) gives one)
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	printf '; one\n#####\n#@$.#\n#####\n' >"$TMP/one.xsb"
	script -qec "'$SOLVE' '$TMP/one.xsb' >/dev/null" /dev/null </dev/null 2>/dev/null |
		tr '\r' '\n' >"$TMP/progress" || true
	checks=$((checks + 1))
	grep -q "solve: 1 level solved" "$TMP/progress" || fail "progress: no '1 level solved'"
	expect_count 0 "$TMP/progress" "1 levels" "progress: no '1 levels'"
fi

# ----------------------------------------------------------------- --help

# every --help fits 80 columns, the front command's too (levelkit is
# beside the commands); the lines of rate's table of fields fit 73,
# since the man page keeps them as they are, indented by 7 more
for c in "$GEN" "$SOLVE" "$RATE" "$FILTER" "${SOLVE%/*}/levelkit"; do
	name=${c##*/}
	run "$TMP/help" "$TMP/err" "$c" --help
	expect_count 0 "$TMP/help" '^.\{81,\}$' "$name --help: lines over 80 columns"
done
run "$TMP/help" "$TMP/err" "$RATE" --help
sed -n '/^Rate each level/,/^$/p' "$TMP/help" >"$TMP/desc"
expect_count 0 "$TMP/desc" '^ .\{73,\}$' "rate --help: table lines over 73 columns"
expect_count 0 "$TMP/help" "solve:" "rate --help: no other command's option"
run "$TMP/out" "$TMP/err" "$RATE" --static-order "$SMALL"
expect_rc 2 "$rc" "rate --static-order: refused (rate's measures take the reading order)"
expect_line "rate: --static-order does not apply to rate (its measures take the squares in reading order, as the paper did)" \
	"$TMP/err" "rate --static-order: says why"
for c in "$GEN" "$SOLVE" "$RATE" "$FILTER"; do
	name=${c##*/}
	run "$TMP/help" "$TMP/err" "$c" --help
	# an option's description goes on under itself, not at column 0
	awk '/^    -h, --help/ { exit } /^    (-[[:alnum:]], |    )--/ { on = 1 } on' "$TMP/help" |
		grep -v '^$' | grep -v '^[A-Z]' >"$TMP/opts"
	expect_count 0 "$TMP/opts" '^[^ ]' "$name --help: option descriptions back at column 0"
	expect_count 0 "$TMP/opts" '^ \{1,29\}[^ -]' "$name --help: option descriptions not under themselves"
done
run "$TMP/help" "$TMP/err" "$SOLVE" --help
expect_count 0 "$TMP/help" "gen:" "solve --help: no other command's defaults"
expect_count 1 "$TMP/help" "time per search (default 30 s)" "solve --help: its own timeout"
run "$TMP/help" "$TMP/err" "$GEN" --help
expect_count 1 "$TMP/help" "^    -g, --generator <name>    the game's generator (the list above; default: its$" "gen --help: -g points up"
expect_count 1 "$TMP/help" "at least n moves (default 4 for fruit and skiddy," "gen --help: --min-moves per game"

cli_end
