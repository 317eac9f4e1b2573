#!/bin/sh
# install_test.sh - `cmake --install` into a temporary prefix, then use the
# installed tree as a user would: the files are where they belong, the
# levelkit front command runs each levelkit-CMD (and passes its exit status
# through), the man pages list every option of --help, the completion
# loads, the public headers compile alone, and a small program outside the
# tree (tests/install/consumer.c) builds against the installed library with
# pkg-config and with find_package(levelkit) and gets hand-worked answers.
# The consumers are built after the prefix has been moved, which checks
# that levelkit.pc and the CMake package are relocatable.
#
# usage: install_test.sh CMAKE CC BUILD_DIR SOURCE_DIR VERSION COMMANDS
#   COMMANDS: the commands CMakeLists.txt builds, separated by spaces
# Environment: LK_BINDIR LK_LIBDIR LK_INCLUDEDIR LK_MANDIR LK_DATADIR (the
# GNUInstallDirs directories, relative to the prefix).
#
# The sh -c scripts below take their arguments as $1, $2...: the single
# quotes are meant.
# shellcheck disable=SC2016
set -eu

CMAKE=$1
CC=$2
BUILD=$3
SRC=$4
VERSION=$5
COMMANDS=$6
LEVELS=$SRC/tests/levels

. "$(dirname "$0")/cli_lib.sh"
cli_start install
P=$TMP/prefix

# ------------------------------------------------------------ install

run "$TMP/log" "$TMP/err" "$CMAKE" --install "$BUILD" --prefix "$P"
expect_rc 0 "$rc" "cmake --install"
[ "$rc" = 0 ] || { cat "$TMP/log" "$TMP/err" >&2; exit 1; }

BIN=$P/$LK_BINDIR
MAN=$P/$LK_MANDIR/man1
COMPL=$P/$LK_DATADIR/bash-completion/completions

for f in "$BIN/levelkit" "$P/$LK_LIBDIR/liblevelkit.a" "$P/$LK_LIBDIR/pkgconfig/levelkit.pc" \
	"$P/$LK_LIBDIR/cmake/levelkit/levelkitConfig.cmake" \
	"$P/$LK_LIBDIR/cmake/levelkit/levelkitConfigVersion.cmake" \
	"$P/$LK_LIBDIR/cmake/levelkit/levelkitTargets.cmake" \
	"$MAN/levelkit.1" "$COMPL/levelkit"; do
	expect_true "not installed: ${f#"$P"/}" test -f "$f"
done
# README's picture and the sample packs the man pages' examples use
expect_true "not installed: docs/images/levels.svg" \
	cmp -s "$SRC/docs/images/levels.svg" "$P/$LK_DATADIR/doc/levelkit/docs/images/levels.svg"
for f in "$SRC"/levels/*.xsb "$SRC"/levels/puzzlescript/*.txt "$SRC"/levels/LICENSE-boxoban; do
	rel=${f#"$SRC"/levels/}
	expect_true "sample not installed: share/levelkit/levels/$rel" \
		cmp -s "$f" "$P/$LK_DATADIR/levelkit/levels/$rel"
done
for h in "$SRC"/include/levelkit/*.h; do
	expect_true "header not installed: levelkit/${h##*/}" cmp -s "$h" "$P/$LK_INCLUDEDIR/levelkit/${h##*/}"
done

# The front command's list (src/cli/levelkit.c) and the commands the build
# makes (CMakeLists.txt) must agree.
run "$TMP/list" "$TMP/err" "$BIN/levelkit" --list-commands
expect_rc 0 "$rc" "levelkit --list-commands"
cut -f1 "$TMP/list" | sort >"$TMP/front"
# shellcheck disable=SC2086 # a list of words
printf '%s\n' $COMMANDS | sort >"$TMP/built"
expect_same "$TMP/built" "$TMP/front" "levelkit --list-commands against the commands built"

for cmd in $COMMANDS; do
	expect_true "levelkit-$cmd: program, man page or completion not installed" test -x "$BIN/levelkit-$cmd"
	expect_true "levelkit-$cmd: program, man page or completion not installed" test -f "$MAN/levelkit-$cmd.1"
	expect_true "levelkit-$cmd: program, man page or completion not installed" test -f "$COMPL/levelkit-$cmd"
	expect_true "the short name $cmd is installed in bin" test ! -e "$BIN/$cmd"

	# levelkit help CMD is the command's own --help
	run "$TMP/h1" "$TMP/err" "$BIN/levelkit" help "$cmd"
	expect_rc 0 "$rc" "levelkit help $cmd"
	run "$TMP/h2" "$TMP/err" "$BIN/levelkit-$cmd" --help
	expect_same "$TMP/h2" "$TMP/h1" "levelkit help $cmd"

	# every option of --help is in the man page, as roff writes it
	grep -E '^ {4}(-[[:alnum:]], | {4})--' "$TMP/h2" |
		sed -E 's/^ +(-[[:alnum:]], )?(--[[:alnum:]-]+).*/\2/' >"$TMP/opts"
	expect_true "levelkit-$cmd --help: no options found" test -s "$TMP/opts"
	while read -r opt; do
		roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
		expect_true "levelkit-$cmd.1 does not list $opt" grep -qF -e "\\fB$roff\\fR" "$MAN/levelkit-$cmd.1"
	done <"$TMP/opts"
	expect_true "levelkit-$cmd.1 has no NAME line" grep -qF -e "levelkit\\-$cmd \\- " "$MAN/levelkit-$cmd.1"
	for section in "EXIT STATUS" ENVIRONMENT EXAMPLES; do
		expect_true "levelkit-$cmd.1 has no $section" grep -qx -e ".SH $section" "$MAN/levelkit-$cmd.1"
	done
	expect_true "levelkit-$cmd.1: NO_COLOR not under ENVIRONMENT" grep -qx -e '\\fBNO_COLOR\\fR' "$MAN/levelkit-$cmd.1"
	expect_true "levelkit.1 does not refer to levelkit-$cmd(1)" grep -qF -e "\\fBlevelkit\\-$cmd\\fR(1)" "$MAN/levelkit.1"
done

# groff, when there is one, renders every page without a warning
if command -v groff >/dev/null 2>&1; then
	for page in "$MAN"/levelkit*.1; do
		run "$TMP/out" "$TMP/err" groff -man -Tutf8 -ww -z "$page"
		expect_rc 0 "$rc" "groff ${page##*/}"
		expect_true "groff ${page##*/}: warnings" test ! -s "$TMP/err"
		[ ! -s "$TMP/err" ] || cat "$TMP/err" >&2
	done
else
	echo "note: no groff; the pages are not rendered"
fi
if command -v man >/dev/null 2>&1; then
	run "$TMP/out" "$TMP/err" man -l "$MAN/levelkit-solve.1"
	expect_rc 0 "$rc" "man -l levelkit-solve.1"
	expect_true "man -l levelkit-solve.1 shows no --algo" grep -q -e '--algo' "$TMP/out"
	# every page fits a terminal of 80 columns: descriptions, tables and
	# examples (a command too long is broken where the shell goes on)
	for page in "$MAN"/levelkit*.1; do
		LC_ALL=C MANWIDTH=80 man -l "$page" 2>/dev/null | sed 's/.\x08//g' >"$TMP/out"
		awk 'length > 80' "$TMP/out" >"$TMP/wide"
		expect_true "${page##*/}: lines over 80 columns: $(head -n 2 "$TMP/wide")" test ! -s "$TMP/wide"
	done
else
	echo "note: no man command; the pages are checked as text only"
fi

# The man pages' examples, run as a user would: in the installed sample
# directory, with the installed commands on PATH (and HOME elsewhere, for
# the examples that write there).  Each must succeed (0, or 1 for a
# negative answer).
mkdir "$TMP/home"
for page in "$MAN"/levelkit*.1; do
	# an example is a block of bold lines (.nf to .fi) starting with
	# "levelkit": its lines are one command, which the shell continues
	# after a '|' or a '\'; each is written as one line of NUL-free text
	# with the line breaks as \001 (joined back below)
	awk '/^\.nf$/ { on = 1; cmd = ""; next }
	     /^\.fi$/ { if (cmd ~ /^levelkit /) print cmd; on = 0; next }
	     on && /^\\fB.*\\fR$/ { l = substr($0, 4, length($0) - 6)
		cmd = cmd == "" ? l : cmd "\001" l }' "$page" |
		sed 's/\\-/-/g; s/\\e/\\/g' >"$TMP/examples"
	expect_true "${page##*/}: no examples" test -s "$TMP/examples"
	while IFS= read -r line; do
		line=$(printf '%s' "$line" | tr '\001' '\n')
		checks=$((checks + 1))
		rc=0
		(cd "$P/$LK_DATADIR/levelkit/levels" &&
			HOME=$TMP/home PATH="$BIN:$PATH" timeout 60 sh -c "$line" >"$TMP/out" 2>"$TMP/err") || rc=$?
		case $rc in
		0|1) ;;
		*) fail "${page##*/}: example '$line' exited $rc: $(head -n 2 "$TMP/err")" ;;
		esac
	done <"$TMP/examples"
done

# ---------------------------------------------------- the front command

run "$TMP/out" "$TMP/err" "$BIN/levelkit" --version
expect_rc 0 "$rc" "levelkit --version"
expect_line "levelkit $VERSION" "$TMP/out" "levelkit --version"

# a bundled pack, solved through the front command and by the build tree's
# solve: the same program, so the same output
run "$TMP/front.tsv" "$TMP/err" "$BIN/levelkit" solve -f tsv "$SRC/levels/boxoban-medium-sample.xsb"
expect_rc 0 "$rc" "levelkit solve boxoban-medium-sample.xsb"
run "$TMP/built.tsv" "$TMP/err" "$BUILD/solve" -f tsv "$SRC/levels/boxoban-medium-sample.xsb"
expect_same "$TMP/built.tsv" "$TMP/front.tsv" "levelkit solve against build/solve"
expect_true "levelkit solve: not 20 solved levels" test "$(grep -c '	yes	' "$TMP/front.tsv")" = 20

# small.xsb level 1 is one push to the right (worked by hand)
run "$TMP/out" "$TMP/err" "$BIN/levelkit" solve -f tsv "$LEVELS/small.xsb"
expect_rc 0 "$rc" "levelkit solve small.xsb"
expect_true "levelkit solve small.xsb: level 1 is not 'R', one push" grep -q '^2	Level 1: one push	yes	1	1	pushes	[0-9]*		R	' "$TMP/out"

# exit statuses pass through: filter keeps nothing (1), a bad option (2)
run "$TMP/out" "$TMP/err" "$BIN/levelkit" filter -c 'has(no-such-field)' "$LEVELS/small.xsb"
expect_rc 1 "$rc" "levelkit filter that keeps nothing"
expect_line 0 "$TMP/out" "levelkit filter -c"
run "$TMP/out" "$TMP/err" "$BIN/levelkit" solve --no-such-option
expect_rc 2 "$rc" "levelkit solve --no-such-option"
expect_true "levelkit solve --no-such-option: message not from levelkit-solve" grep -q '^levelkit-solve: ' "$TMP/err"

run "$TMP/out" "$TMP/err" "$BIN/levelkit" foo
expect_rc 2 "$rc" "levelkit foo"
expect_line "levelkit: 'foo' is not a levelkit command" "$TMP/err" "levelkit foo"
run "$TMP/out" "$TMP/err" "$BIN/levelkit"
expect_rc 2 "$rc" "levelkit without a command"
run "$TMP/out" "$TMP/err" "$BIN/levelkit" --help
expect_rc 0 "$rc" "levelkit --help"
for cmd in $COMMANDS; do
	expect_true "levelkit --help does not list $cmd" grep -qE "^ {4}$cmd +[a-z]" "$TMP/out"
done

# found through a symbolic link (the commands are beside the real file),
# and through PATH when alone
mkdir "$TMP/link" "$TMP/alone" "$TMP/empty"
ln -s "$BIN/levelkit" "$TMP/link/levelkit"
run "$TMP/out" "$TMP/err" "$TMP/link/levelkit" rate --version
expect_rc 0 "$rc" "levelkit through a link"
expect_line "levelkit-rate (levelkit) $VERSION" "$TMP/out" "levelkit rate --version through a link"
cp "$BIN/levelkit" "$TMP/alone/levelkit"
run "$TMP/out" "$TMP/err" env PATH="$BIN:$PATH" "$TMP/alone/levelkit" gen --version
expect_rc 0 "$rc" "levelkit alone, levelkit-gen on PATH"
run "$TMP/out" "$TMP/err" env PATH="$TMP/empty" "$TMP/alone/levelkit" gen --version
expect_rc 127 "$rc" "levelkit alone, no levelkit-gen anywhere"
expect_true "levelkit alone: message" grep -q "^levelkit: cannot run levelkit-gen: not found" "$TMP/err"

# ---------------------------------------------------------- completion

if command -v bash >/dev/null 2>&1; then
	run "$TMP/out" "$TMP/err" env PATH="$BIN:$PATH" bash -c '
		. "$1"
		COMP_WORDS=(levelkit so); COMP_CWORD=1; _levelkit; echo "${COMPREPLY[*]}"
		COMP_WORDS=(levelkit-gen ""); COMP_CWORD=1; _levelkit; echo "${COMPREPLY[*]}"
		complete -p levelkit-filter' sh "$COMPL/levelkit"
	expect_rc 0 "$rc" "the installed completion"
	expect_line solve "$TMP/out" "completion of 'levelkit so'"
	expect_true "completion of 'levelkit-gen '" grep -q '^sokoban fruit skiddy combination puzzlescript laser\( [a-z]*\)*$' "$TMP/out"   # the registry's games
	expect_line "complete -F _levelkit levelkit-filter" "$TMP/out" "completion registered for levelkit-filter"
fi
# bash-completion, when it is there, loads completions/levelkit-CMD on
# demand from the prefix's share directory
bash_completion=/usr/share/bash-completion/bash_completion
if [ -f "$bash_completion" ]; then
	run "$TMP/out" "$TMP/err" env XDG_DATA_DIRS="$P/$LK_DATADIR" PATH="$BIN:$PATH" bash -c '
		. "$1"
		__load_completion levelkit-rate && complete -p levelkit-rate
		COMP_WORDS=(levelkit-rate -a ""); COMP_CWORD=2; _levelkit; echo "${COMPREPLY[*]}"
		' sh "$bash_completion"
	expect_rc 0 "$rc" "bash-completion loads levelkit-rate"
	expect_line "complete -F _levelkit levelkit-rate" "$TMP/out" "bash-completion loads levelkit-rate"
	expect_line "bfs ucs astar greedy any auto" "$TMP/out" "bash-completion: levelkit-rate -a"
else
	echo "note: no $bash_completion; its loader is not tried"
fi

# ------------------------------------------------------------ library

# each public header compiles on its own, without warnings
for h in "$P/$LK_INCLUDEDIR"/levelkit/*.h; do
	printf '#include <levelkit/%s>\nint main(void) { return 0; }\n' "${h##*/}" >"$TMP/h.c"
	run "$TMP/out" "$TMP/err" "$CC" -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror \
		-I"$P/$LK_INCLUDEDIR" -c "$TMP/h.c" -o "$TMP/h.o"
	expect_rc 0 "$rc" "levelkit/${h##*/} alone"
	[ "$rc" = 0 ] || cat "$TMP/err" >&2
done

# The consumers are built against the prefix moved elsewhere.
mv "$P" "$TMP/moved"
P=$TMP/moved

# consumer_ok OUT WHAT: the consumer's answers (see consumer.c)
consumer_ok() {
	expect_line "level 1: solvable yes, pushes 2, moves 3, solution rRR" "$1" "$2"
	expect_line "level 2: solvable no, pushes 0, moves 0, solution " "$1" "$2"
}

if PKG_CONFIG_PATH="$P/$LK_LIBDIR/pkgconfig" pkg-config --exists levelkit; then
	flags=$(PKG_CONFIG_PATH="$P/$LK_LIBDIR/pkgconfig" pkg-config --cflags --libs levelkit)
	# the flags are words: split them
	# shellcheck disable=SC2086
	run "$TMP/out" "$TMP/err" "$CC" -std=c11 -Wall -Wextra -Wpedantic \
		"$SRC/tests/install/consumer.c" $flags -o "$TMP/consumer-pc"
	expect_rc 0 "$rc" "cc consumer.c \$(pkg-config --cflags --libs levelkit)"
	[ "$rc" = 0 ] || cat "$TMP/err" >&2
	run "$TMP/out" "$TMP/err" "$TMP/consumer-pc"
	expect_rc 0 "$rc" "the pkg-config consumer"
	consumer_ok "$TMP/out" "the pkg-config consumer"
else
	fail "pkg-config does not find levelkit.pc in the moved prefix"
fi

run "$TMP/log" "$TMP/err" "$CMAKE" -S "$SRC/tests/install" -B "$TMP/consumer-build" \
	-DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC"
expect_rc 0 "$rc" "configure the find_package consumer"
[ "$rc" = 0 ] || cat "$TMP/log" "$TMP/err" >&2
run "$TMP/log" "$TMP/err" "$CMAKE" --build "$TMP/consumer-build"
expect_rc 0 "$rc" "build the find_package consumer"
[ "$rc" = 0 ] || cat "$TMP/log" "$TMP/err" >&2
run "$TMP/out" "$TMP/err" "$TMP/consumer-build/consumer"
expect_rc 0 "$rc" "the find_package consumer"
consumer_ok "$TMP/out" "the find_package consumer"

cli_end
