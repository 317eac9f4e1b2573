#!/bin/sh
# layers_test.sh - every source file includes only headers of its own layer
# or of a lower one (docs/design.md draws the layers), and private headers
# only from its own folder (a game family may share one: games/slide).
#
#   0 core    src/core    strbuf rng bits grid record expr json rays assign progression
#   1 game    src/game    game csp canvas
#   2 search  src/search  table search explore analysis difficulty dedupe fields concept
#   3 gen     src/gen     room rules generate transform
#   4 games   src/games   slide laser (and each game's private headers)
#   5 act     src/act     actions
#     view    src/view    view (pictures and pages of records, above the games)
#   6 cli     src/cli     (private headers only)
#
# usage: layers_test.sh SOURCE_DIR
set -u
SRC=$1
cd "$SRC" || exit 2
failures=0
checks=0

header_layer() {
	case $1 in
	strbuf|rng|bits|grid|record|expr|json|rays|assign|progression) echo 0 ;;
	game|csp|canvas) echo 1 ;;
	table|search|explore|analysis|difficulty|dedupe|fields|concept) echo 2 ;;
	room|rules|generate|transform) echo 3 ;;
	slide|laser) echo 4 ;;
	actions|view) echo 5 ;;
	*) echo unknown ;;
	esac
}

dir_layer() {
	case $1 in
	include/levelkit/*) header_layer "$(basename "$1" .h)" ;;
	src/core/*) echo 0 ;;
	src/game/*) echo 1 ;;
	src/search/*) echo 2 ;;
	src/gen/*) echo 3 ;;
	src/games/*) echo 4 ;;
	src/view/*) echo 5 ;;
	src/act/*) echo 5 ;;
	src/cli/*) echo 6 ;;
	*) echo unknown ;;
	esac
}

for f in $(find include/levelkit src -name '*.[ch]' | sort); do
	mine=$(dir_layer "$f")
	if [ "$mine" = unknown ]; then
		echo "FAIL: $f: a file in no layer (add it to layers_test.sh and docs/design.md)" >&2
		failures=$((failures + 1))
		continue
	fi
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
		checks=$((checks + 1))
		case $inc in
		levelkit/*.h)
			l=$(header_layer "$(basename "$inc" .h)")
			if [ "$l" = unknown ]; then
				echo "FAIL: $f includes $inc, a public header in no layer" >&2
				failures=$((failures + 1))
			elif [ "$l" -gt "$mine" ]; then
				echo "FAIL: $f (layer $mine) includes $inc (layer $l): an arrow upwards" >&2
				failures=$((failures + 1))
			fi ;;
		../slide/*)
			case $f in
			src/games/*) ;;
			*) echo "FAIL: $f includes $inc from another folder" >&2
			   failures=$((failures + 1)) ;;
			esac ;;
		*/*)
			echo "FAIL: $f includes $inc from another folder: use a public header" >&2
			failures=$((failures + 1)) ;;
		*)
			[ -f "$(dirname "$f")/$inc" ] || {
				echo "FAIL: $f includes $inc, which is not in its own folder" >&2
				failures=$((failures + 1))
			} ;;
		esac
	done
done
echo "$checks includes checked, $failures failed"
[ "$failures" -eq 0 ]
