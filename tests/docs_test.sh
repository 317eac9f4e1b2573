#!/bin/sh
# docs_test.sh - the examples of README.md and docs/*.md, run: every command
# line of a ```sh block that calls a levelkit command must still be a valid
# command (no usage error, no missing bundled file).  The lines of one
# block run in order in one scratch directory, so `rate ... >rated.xsb`
# followed by `filter ... rated.xsb` works; placeholder files the docs name
# (pack.xsb, mine.xsb, a.xsb ...) are bundled levels copied under those
# names.  Long runs (gen for hours, --suggest until Ctrl-C) are stopped
# after a while: starting cleanly is what is checked for them.  A few
# documented outputs are compared with what the commands print.
#
# usage: docs_test.sh SOURCE_DIR BUILD_DIR
set -u

SRC=$1
BUILD=$2
. "$(dirname "$0")/cli_lib.sh"
cli_start docs

# The placeholder files the docs name, made once: packs (solved, so that
# they have pushes; rated for rated.xsb), a level to transform, a freeze
# mask, a rules file, a gen run, a PuzzleScript game.
mkdir -p "$TMP/files"
"$BUILD/solve" -t 2 "$SRC/levels/boxoban-hard-sample.xsb" >"$TMP/files/pack.xsb" 2>/dev/null
for f in a.xsb b.xsb c.xsb solved.xsb; do
	cp "$TMP/files/pack.xsb" "$TMP/files/$f"
done
"$BUILD/rate" -k 5 -t 2 "$TMP/files/pack.xsb" >"$TMP/files/rated.xsb" 2>/dev/null
cp "$SRC/tests/levels/gen-from.xsb" "$TMP/files/mine.xsb"
cp "$SRC/tests/levels/gen-from.xsb" "$TMP/files/level.xsb"
printf '#######\n#     #\n#######\n' >"$TMP/files/mask.txt"
cp "$SRC/tests/levels/gen-move.rules" "$TMP/files/transform.txt"
cp "$SRC/tests/levels/targets-only.xsb" "$TMP/files/targets-only.xsb"
# what batch.md's ssh and GNU parallel line would have gathered
"$BUILD/gen" sokoban -n 3 --seed 7 --min-pushes 25 >"$TMP/files/all-shards.xsb" 2>/dev/null
# the PuzzleScript page's own game
if [ -f "$SRC/../shared/data/puzzlescript/games/microban.txt" ]; then
	cp "$SRC/../shared/data/puzzlescript/games/microban.txt" "$TMP/files/mygame.txt"
fi
if [ -f "$SRC/../shared/data/sokoban/microban.xsb" ]; then
	cp "$SRC/../shared/data/sokoban/microban.xsb" "$TMP/files/microban.xsb"
fi

# The scratch directory of a block: the repository's levels, the build as
# build/release, and the placeholder files.
fresh_dir() {
	rm -rf "$TMP/run"
	mkdir -p "$TMP/run/build"
	ln -s "$BUILD" "$TMP/run/build/release"
	cp -r "$SRC/levels" "$TMP/run/levels"
	cp "$TMP"/files/* "$TMP/run/"
}

# Extract the command lines of the ```sh blocks of a markdown file: one
# line per command (continuations joined).  The whole page's commands run in
# one scratch directory.
commands_of() {
	awk '
		/^[ \t]*```sh[ \t]*$/ { inblock = 1; next }
		/^[ \t]*```/ { inblock = 0; next }
		inblock {
			sub(/^[ \t]+/, "")
			if (cont != "") { $0 = cont " " $0; cont = "" }
			if ($0 ~ /\\$/) { sub(/\\$/, ""); cont = $0; next }
			print
		}
	' "$1"
}

run_block_line() {
	line=$1
	where=$2
	case $line in
	build/release/*|cat\ levels/*|gen\ *|solve\ *|rate\ *|filter\ *) ;;
	*) return ;;
	esac
	case $line in
	*...*|*'<'*'>'*) return ;;   # placeholders such as "gen ... |" or <file>
	esac
	# docs/gen.md writes the commands bare
	case $line in
	gen\ *|solve\ *|rate\ *|filter\ *) line="build/release/$line" ;;
	esac
	# never let an example write over the checkout
	# 120 s: the slowest example (rate --measure thesis on a pack, -t 3 a search)
	# takes about 17 s alone and over 60 s of wall time on a loaded machine
	limit=120
	case $line in
	*--suggest*|*-n\ 1000*|*-n\ 100000*|*-n\ 5000*) limit=4 ;;
	# any other gen run has shown that it starts and writes levels after
	# 5 s (gen streams them); running on to -n 100 checks nothing more
	# and took over a minute of CI's time (Fruit Dating's generator)
	build/release/gen\ *) limit=5 ;;
	esac
	checks=$((checks + 1))
	(cd "$TMP/run" && timeout -s INT "$limit" sh -c "$line" </dev/null >"$TMP/out" 2>"$TMP/err")
	rc=$?
	case $rc in
	0|1) ;;
	124|130) case $line in
		*gen\ *) ;;   # a long run stopped: it started cleanly
		*) fail "$where: '$line' did not finish in $limit s" ;;
		esac ;;
	*) fail "$where: '$line' exited $rc: $(head -n 3 "$TMP/err")" ;;
	esac
}

for doc in "$SRC/README.md" "$SRC"/docs/*.md "$SRC"/docs/games/*.md; do
	doc_name=${doc#"$SRC"/}
	commands_of "$doc" >"$TMP/commands"
	# one scratch directory per page: its blocks run in order, so a
	# later block finds what an earlier one wrote (night.xsb ...)
	fresh_dir
	while IFS= read -r line; do
		run_block_line "$line" "$doc_name"
	done <"$TMP/commands"
done

# Every registered game has its page, linked from the README: the list
# comes from the registry (gen's message), not from a hand-kept list.
games=$("$BUILD/gen" 2>&1 | sed -n 's/.*which game? (\(.*\)).*/\1/p' | sed 's/ or /, /; s/,/ /g')
checks=$((checks + 1))
[ -n "$games" ] || fail "gen does not list the games"
for game in $games; do
	checks=$((checks + 1))
	[ -f "$SRC/docs/games/$game.md" ] || fail "game $game has no page docs/games/$game.md"
	checks=$((checks + 1))
	grep -q "docs/games/$game.md" "$SRC/README.md" || fail "README does not link docs/games/$game.md"
done

# Documented outputs.
fresh_dir
cd "$TMP/run" || exit 1
checks=$((checks + 1))
n=$(build/release/rate levels/boxoban-medium-sample.xsb 2>/dev/null | build/release/filter -c 'grade == "medium"')
want=$(sed -n "s/.*filter -c 'grade == \"medium\"' rated.xsb *# prints \([0-9]*\).*/\1/p" "$SRC/README.md")
[ -n "$want" ] && [ "$n" = "$want" ] || fail "README: 'filter -c grade == \"medium\"' prints $n, README says ${want:-nothing}"
checks=$((checks + 1))
build/release/rate levels/boxoban-medium-sample.xsb 2>/dev/null |
	awk 'BEGIN { RS = ""; ORS = "\n" } NR == 2 { print; exit }' >"$TMP/first"
awk '/^Step 1 prints each level/ { on = 1; next } on && /^```$/ { if (inb) exit; inb = 1; next } inb' \
	"$SRC/README.md" >"$TMP/readme-first"
cmp -s "$TMP/first" "$TMP/readme-first" || {
	fail "README: the quick start's output differs from what rate prints"
	diff "$TMP/readme-first" "$TMP/first" | head -n 10 >&2
}
checks=$((checks + 1))
n=$(build/release/solve --max-states 100 -f tsv levels/boxoban-hard-sample.xsb 2>/dev/null |
	awk -F '\t' 'NR > 1 && $3 == "unknown" && $NF == "states"' | wc -l | tr -d ' ')
[ "$n" = 7 ] || fail "README: --max-states 100 gives unknown for $n levels, README says seven"
# the --forall examples of README and concepts.md keep levels (one that
# asked for 30 pushes kept none of the sample's, whose optimum is 11-27)
for doc in README.md docs/concepts.md; do
	checks=$((checks + 1))
	grep -q "^build/release/filter --forall 'count(push) >= 20' -t 2 levels/boxoban-hard-sample.xsb" \
		"$SRC/$doc" || fail "$doc: its --forall example is not the one checked here"
done
checks=$((checks + 1))
n=$(build/release/filter --forall 'count(push) >= 20' -t 30 -c levels/boxoban-hard-sample.xsb 2>/dev/null)
[ "$n" = 5 ] || fail "README: filter --forall 'count(push) >= 20' keeps $n levels, README says 5"
# what --max-states bounds (stored) is not the states field (expanded)
checks=$((checks + 1))
got=$(build/release/filter 'record == 2' levels/boxoban-hard-sample.xsb | build/release/solve --stats |
	sed -n 's/^\(states\|stored\): //p' | tr '\n' ' ')
[ "$got" = "84 105 " ] || fail "README: the first hard level has states and stored '$got', README says 84 and 105"
for fallback in --no-fallback ''; do
	checks=$((checks + 1))
	got=$(build/release/filter 'record == 2' levels/boxoban-hard-sample.xsb |
		build/release/solve --max-states 84 $fallback | sed -n 's/^solvable: //p')
	[ "$got" = unknown ] || fail "README: --max-states 84 $fallback gives '$got' on the first hard level, README says unknown"
done
# gen.md's messages for options that do not apply, as gen prints them
awk '/^## Options that do not apply/ { on = 1 } on && /^```$/ { if (inb) exit; inb = 1; next } inb' \
	"$SRC/docs/gen.md" >"$TMP/na-doc"
while IFS= read -r line; do
	case $line in
	'$ gen '*)
		args=${line#\$ gen }
		# shellcheck disable=SC2086
		build/release/gen $args -n 1 >/dev/null 2>"$TMP/na-err"
		got=$(head -n 1 "$TMP/na-err")
		;;
	*)
		checks=$((checks + 1))
		[ "$line" = "$got" ] || fail "gen.md: 'gen $args' prints '$got', the page says '$line'"
		;;
	esac
done <"$TMP/na-doc"
data=$SRC/../shared/data/sokoban/microban.xsb
if [ -f "$data" ]; then
	checks=$((checks + 1))
	build/release/solve -f tsv --fields record,title,moves,pushes "$data" 2>/dev/null | head -n 3 >"$TMP/mb"
	awk '/^record\ttitle\tmoves\tpushes$/ { on = 1 } on { print } on && /^2\t/ { exit }' \
		"$SRC/docs/format.md" >"$TMP/mb-doc"
	cmp -s "$TMP/mb" "$TMP/mb-doc" || fail "format.md: the Microban tsv sample differs from solve's output"
	# the figures of the paragraph under it
	for want in "2 : 16 3" "2 -m moves: 16 3" "5 : 27 6" "5 -m moves: 25 8"; do
		checks=$((checks + 1))
		n=${want%% *}
		opt=${want#* }
		opt=${opt%%:*}
		# shellcheck disable=SC2086
		got=$(build/release/filter "title == \"Microban $n\"" "$data" |
			build/release/solve $opt -f tsv --fields moves,pushes 2>/dev/null | tail -n 1 | tr '\t' ' ')
		[ "$got" = "${want#*: }" ] || fail "format.md: Microban $n ${opt:-by pushes}: $got, the page says ${want#*: }"
	done
fi

cli_end
