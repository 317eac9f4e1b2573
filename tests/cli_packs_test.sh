#!/bin/sh
# cli_packs_test.sh - the commands on Sokoban packs in the layouts people
# have (tests/levels/packs: the same twelve levels as .sok files of Sokoban
# YASC and JSoko, with title lines, with "; N" separators only, with CR line
# ends, a byte order mark and tabs, run-length encoded, and as an SLC XML
# collection), and the .sok writer.
#
# usage: cli_packs_test.sh SOLVE FILTER PACKS_DIR
set -eu

SOLVE=$1
FILTER=$2
PACKS=$3

. "$(dirname "$0")/cli_lib.sh"
cli_start packs

# column NAME TSV: the values of a tsv column (names compare case-blind,
# as field names do).
column() {
	awk -F '\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if (tolower($i) == name) c = i; next }
		{ print (c ? $c : "?") }' "$2"
}

count() {
	grep -c -e "$1" "$2" || true
}

# ------------------------------------------ every layout, the same moves

run "$TMP/plain.tsv" "$TMP/err" "$SOLVE" -t 2 -f tsv "$PACKS/plain.xsb"
expect 0 "$rc" "solve plain.xsb"
column solution "$TMP/plain.tsv" >"$TMP/plain.sol"
expect 12 "$(grep -c . "$TMP/plain.sol")" "plain.xsb: twelve solutions"
for f in yasc.sok jsoko.sok titles.txt nosep.xsb mac-tabs.txt rle.txt collection.slc; do
	run "$TMP/out.tsv" "$TMP/err" "$SOLVE" -t 2 -f tsv "$PACKS/$f"
	expect 0 "$rc" "solve -t 2 $f"
	expect "" "$(cat "$TMP/err")" "solve $f: no messages"
	column solution "$TMP/out.tsv" >"$TMP/out.sol"
	expect_same "$TMP/plain.sol" "$TMP/out.sol" "solve -t 2 $f: the same moves as plain.xsb"
done

# The titles come from the layouts' own places: title lines, SLC ids.
run "$TMP/out.tsv" "$TMP/err" "$SOLVE" -t 2 -f tsv "$PACKS/titles.txt"
expect "1,Level 2,Level 3 - Wall to wall" "$(column title "$TMP/out.tsv" | head -3 | paste -sd, -)" \
	"titles.txt: title lines"
run "$TMP/out.tsv" "$TMP/err" "$SOLVE" -t 2 -f tsv "$PACKS/collection.slc"
expect "Microban 1" "$(column title "$TMP/out.tsv" | head -1)" "collection.slc: Id as title"

# Equal levels are duplicates whatever their layout.
run "$TMP/out" "$TMP/err" "$FILTER" --dedupe --count "$PACKS/plain.xsb" "$PACKS/yasc.sok" \
	"$PACKS/collection.slc" "$PACKS/mac-tabs.txt"
expect 0 "$rc" "filter --dedupe across layouts"
expect 12 "$(cat "$TMP/out")" "filter --dedupe across layouts: twelve levels"

# ------------------------------------------------- solutions in packs

for f in yasc.sok rle.txt; do
	run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$PACKS/$f"
	expect 0 "$rc" "solve --verify $f"
	expect 12 "$(count '^verified: yes$' "$TMP/out")" "solve --verify $f"
done
run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$PACKS/jsoko.sok"
expect 11 "$(count '^verified: yes$' "$TMP/out")" "solve --verify jsoko.sok"
expect 1 "$(count 'no solution field' "$TMP/err")" "jsoko.sok: the level without a solution"

# ----------------------------------------------------- the .sok writer

for fmt in sok sok-rle; do
	run "$TMP/out.sok" "$TMP/err" "$SOLVE" -t 2 -f "$fmt" "$PACKS/plain.xsb"
	expect 0 "$rc" "solve -f $fmt"
	expect 2 "$(count '^::' "$TMP/out.sok")" "-f $fmt: the pack header once"
	expect 12 "$(count '^Solution$' "$TMP/out.sok")" "-f $fmt: a Solution section per level"
	expect 1 "$(count '^Microban 1$' "$TMP/out.sok")" "-f $fmt: title lines"
	run "$TMP/out" "$TMP/err" "$SOLVE" --verify "$TMP/out.sok"
	expect 0 "$rc" "solve --verify on -f $fmt output"
	expect 12 "$(count '^verified: yes$' "$TMP/out")" "-f $fmt: every solution read back"
	run "$TMP/back.tsv" "$TMP/err" "$SOLVE" -t 2 -f tsv "$TMP/out.sok"
	column solution "$TMP/back.tsv" >"$TMP/back.sol"
	expect_same "$TMP/plain.sol" "$TMP/back.sol" "-f $fmt read back: the same levels"
done
# Run lengths only in sok-rle.
run "$TMP/a.sok" "$TMP/err" "$SOLVE" -t 2 -f sok "$PACKS/plain.xsb"
run "$TMP/b.sok" "$TMP/err" "$SOLVE" -t 2 -f sok-rle "$PACKS/plain.xsb"
digits() {
	grep -A1 '^Solution$' "$1" | grep -v '^Solution$' | grep -c '[0-9]' || true
}
expect 0 "$(digits "$TMP/a.sok")" "-f sok: plain moves"
checks=$((checks + 1))
[ "$(digits "$TMP/b.sok")" -ge 10 ] || fail "-f sok-rle: run lengths in $(digits "$TMP/b.sok") solutions"
run "$TMP/out" "$TMP/err" "$SOLVE" -f xml "$PACKS/plain.xsb"
expect 2 "$rc" "-f xml: a usage error"

# --------------------------------------------------------- broken packs

run "$TMP/out" "$TMP/err" "$SOLVE" -t 2 "$PACKS/bad.sok"
expect 2 "$rc" "solve bad.sok"
cat >"$TMP/want" <<EOF
solve: $PACKS/bad.sok:13: unknown sokoban cell 'x' in column 4
solve: $PACKS/bad.sok:20: grid rows interrupted by a note line
EOF
expect_same "$TMP/want" "$TMP/err" "solve bad.sok: messages"
expect 2 "$(count '^solvable: yes$' "$TMP/out")" "solve bad.sok: the good levels"

run "$TMP/out" "$TMP/err" "$SOLVE" -t 2 "$PACKS/bad.slc"
expect 2 "$rc" "solve bad.slc"
cat >"$TMP/want" <<EOF
solve: $PACKS/bad.slc:14: unknown entity '&nbsp;'
solve: $PACKS/bad.slc:19: expected </L>
solve: $PACKS/bad.slc:27: <Level> is not closed
EOF
expect_same "$TMP/want" "$TMP/err" "solve bad.slc: messages"
expect 3 "$(count '^solvable: yes$' "$TMP/out")" "solve bad.slc: the good levels"

# The layouts read from standard input too.
rc=0
"$SOLVE" -t 2 -f tsv <"$PACKS/collection.slc" >"$TMP/out.tsv" 2>"$TMP/err" || rc=$?
expect 0 "$rc" "solve < collection.slc"
column solution "$TMP/out.tsv" >"$TMP/out.sol"
expect_same "$TMP/plain.sol" "$TMP/out.sol" "solve < collection.slc: the same moves"

cli_end
