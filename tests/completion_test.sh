#!/bin/bash
# completion_test.sh - the bash completion (src/cli/levelkit.bash) on the
# build tree's programs: the function is called with COMP_WORDS and
# COMP_CWORD set as bash sets them, and COMPREPLY is compared with the
# answers read off the commands' --help by hand.
#
# usage: completion_test.sh SCRIPT BUILD_DIR LEVELS_DIR
set -u

SCRIPT=$1
BUILD=$2
LEVELS=$3

PATH=$BUILD:$PATH
# shellcheck source=/dev/null
. "$SCRIPT"

failures=0
checks=0

# expect WANT WORD...: completing the command line WORD... (the last word
# is the one under the cursor) gives WANT, the candidates joined by spaces
# (in any order).
expect() {
	local want=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_levelkit
	checks=$((checks + 1))
	# in any order: file names come in directory order
	local got sorted
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	# shellcheck disable=SC2086 # a list of words
	sorted=$(printf '%s\n' $want | sort | tr '\n' ' ')
	[[ ${#COMPREPLY[@]} -eq 0 ]] && got=
	[[ -z $want ]] && sorted=
	if [[ $got != "$sorted" ]]; then
		echo "FAIL: completing '$*': got '${COMPREPLY[*]}', expected '$want'" >&2
		failures=$((failures + 1))
	fi
}

# the commands, from levelkit --list-commands
expect "gen solve rate filter" levelkit ""
expect "solve" levelkit so
expect "rate" levelkit help r
expect "--help --version --list-commands" levelkit --
# options from the command's --help, run through the front command or
# directly, with short options too
expect "--algo" levelkit solve --al
expect "--top" levelkit-filter --to
expect "--invert" levelkit filter -v --inv
expect "--rules" levelkit gen sokoban --rul
expect "--max-states --max-memory" levelkit rate --max-
# values listed in an option's help
expect "text tsv json sok sok-rle puzzlescript html svg ansi" levelkit solve -f ""
expect "tsv" levelkit rate --format ts
expect "text tsv json sok sok-rle puzzlescript html svg ansi" levelkit solve --format = ""
expect "text tsv" levelkit solve --format = t
expect "" levelkit solve -f x
expect "bfs ucs astar greedy any auto" levelkit rate -a ""
expect "pushes moves cost" levelkit solve --metric ""
expect "matching mixedaim bound thesis" levelkit solve --heuristic ""
expect "levelkit thesis" levelkit rate --measure ""
expect "forward backward both" levelkit-solve -d ""
# values listed on an option's wrapped lines, and the presets of gen's game
expect "bfs ucs astar greedy" levelkit rate --runs-algo ""
expect "walls move pair mix mirror pull push" levelkit gen sokoban --rules ""
expect "pair pull push" levelkit-gen sokoban --rules p
expect "walls crates targets pair mix mirror" levelkit gen puzzlescript --rules ""
expect "split-combine split-combine-2 six-benders monolithic monolithic-open monolithic-tidy monolithic-open-tidy" levelkit gen laser --preset ""
expect "monolithic monolithic-open monolithic-tidy monolithic-open-tidy" levelkit gen -n 2 laser --preset mo
# gen: the games (the registry's list, as gen's error message gives it:
# a new game adds no line here), then each game's generators
games=$(gen 2>&1 | sed -n 's/.*which game? (\(.*\)).*/\1/p' | sed 's/ or /, /; s/,//g')
[[ $games == sokoban\ fruit\ skiddy\ * ]] || { echo "FAIL: gen does not list the games: '$games'" >&2; failures=$((failures + 1)); }
expect "$games" levelkit gen ""
expect "sokoban skiddy" levelkit gen s
expect "$games" levelkit-gen -n 5 --seed 3 ""
expect "backward transform" levelkit gen sokoban -g ""
expect "random" levelkit gen -n 3 fruit --generator ""
expect "local" levelkit-gen combination -g l
# files: operands, and the values of options that take a file
cd "$LEVELS" || exit 2
expect "skiddy.xsb small.xsb" levelkit solve s
expect "skiddy.xsb small.xsb" levelkit gen sokoban -n 2 s
expect "gen-bad.rules gen-from.xsb gen-move.rules" levelkit gen sokoban --from gen-
expect "gen-bad.rules gen-from.xsb gen-move.rules" levelkit gen sokoban --rules gen-
expect "small.xsb" levelkit-rate -o sm

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
