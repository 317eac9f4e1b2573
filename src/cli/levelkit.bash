# levelkit.bash - bash completion for levelkit and levelkit-CMD: the
# commands after `levelkit`, each command's options, the values of options
# whose help lists them (-f: text, tsv, json), the games after `gen` and
# the generators after -g, files otherwise.
#
# Nothing is listed here: the commands come from `levelkit --list-commands`
# and the options from each command's --help (read once per shell), so the
# completion follows whatever version is installed.  Installed as
# share/bash-completion/completions/levelkit and, the same file, as
# .../levelkit-CMD for each command; `source` it to try it by hand.

# Output of a program, cached per shell (the cache must be global: the
# bash-completion loader sources this file inside a function).
declare -gA _levelkit_cache=()

# _levelkit_cached PROG ARGS...: sets _levelkit_out to the program's output.
_levelkit_cached()
{
	local key="$*"
	if [[ -z ${_levelkit_cache[$key]+set} ]]; then
		_levelkit_cache[$key]=$("$@" 2>/dev/null </dev/null)
	fi
	_levelkit_out=${_levelkit_cache[$key]}
}

# _levelkit_reply WORDS...: COMPREPLY gets the words that start with $cur.
_levelkit_reply()
{
	local w
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
}

_levelkit_files()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

# _levelkit_option_line OPTION: sets _levelkit_line to the --help line of
# OPTION (-f or --format) in $help, joined with the lines its description
# goes on in (indented to the description's column), or to "" if there is
# none.  Option lines are "    -f, --format <fmt>   description" or
# "        --long ...".
_levelkit_option_line()
{
	local line found=
	_levelkit_line=
	while IFS= read -r line; do
		if [[ -n $found ]]; then
			[[ $line =~ ^\ {20,}[^\ ] ]] || return
			_levelkit_line+=" ${line#"${line%%[! ]*}"}"
			continue
		fi
		if [[ $line =~ ^\ {4}(-[[:alnum:]],\ |\ {4})--[[:alnum:]-]+ ]]; then
			local term=${line#"${line%%[! ]*}"}
			term=${term%%  *}
			case " ${term//,/} " in
			*" $1 "*)
				_levelkit_line=$line
				found=1
				;;
			esac
		fi
	done <<<"$help"
}

# _levelkit_option_words: sets _levelkit_words to every option (-f and
# --format) that $help shows in its option lines.
_levelkit_option_words()
{
	local line term w
	_levelkit_words=()
	while IFS= read -r line; do
		if [[ $line =~ ^\ {4}(-[[:alnum:]],\ |\ {4})--[[:alnum:]-]+ ]]; then
			term=${line#"${line%%[! ]*}"}
			term=${term%%  *}
			for w in ${term//,/ }; do
				[[ $w == -* ]] && _levelkit_words+=("$w")
			done
		fi
	done <<<"$help"
}

# _levelkit_values LINE: sets _levelkit_words to the values an option's
# description lists ("text (default), tsv or json"; "what it counts:
# pushes (default) or moves"), or to nothing.
_levelkit_values()
{
	local desc=${1#*>}
	desc=${desc#"${desc%%[! ]*}"}
	while [[ $desc =~ ^(.*)\([^\(\)]*\)(.*)$ ]]; do
		desc=${BASH_REMATCH[1]}${BASH_REMATCH[2]}
	done
	desc=${desc##*: }
	local v='[a-z][a-z0-9-]*'
	_levelkit_words=()
	if [[ $desc =~ ^\ *$v(\ *,\ *$v)*\ +or\ +$v\ *$ ]]; then
		desc=${desc//,/ }
		read -r -a _levelkit_words <<<"${desc// or / }"
	fi
}

# _levelkit_generators games | generators [GAME]: sets _levelkit_words to
# the games of `gen`, or to the generators (of GAME, or of every game), from
# the Generators part of gen's help: "  GAME NAME: summary".
_levelkit_generators()
{
	local line seen=" " w
	_levelkit_words=()
	while IFS= read -r line; do
		if [[ $line =~ ^\ \ ([a-z][a-z0-9-]*)\ ([a-z][a-z0-9-]*):\  ]]; then
			if [[ $1 == games ]]; then
				w=${BASH_REMATCH[1]}
			elif [[ -z $2 || ${BASH_REMATCH[1]} == "$2" ]]; then
				w=${BASH_REMATCH[2]}
			else
				continue
			fi
			if [[ $seen != *" $w "* ]]; then
				_levelkit_words+=("$w")
				seen+="$w "
			fi
		fi
	done <<<"$help"
}

# _levelkit_presets GAME: sets _levelkit_words to the presets that the
# joined --rules line in $_levelkit_line lists for GAME ("(sokoban: walls,
# move, mix (default) or push; puzzlescript: ...)"), or to nothing.
_levelkit_presets()
{
	local v='[a-z][a-z0-9-]*' re="[(;] *$1: ([^;]*)" desc
	_levelkit_words=()
	[[ -n $1 && $_levelkit_line =~ $re ]] || return
	desc=${BASH_REMATCH[1]}
	desc=${desc//(default)/}
	desc=${desc%%)*}
	if [[ $desc =~ ^\ *$v(\ *,\ *$v)*(\ +or\ +$v)?\ *$ ]]; then
		desc=${desc//,/ }
		read -r -a _levelkit_words <<<"${desc// or / }"
	fi
}

# _levelkit_commands: COMPREPLY gets the commands of the levelkit in $prog.
_levelkit_commands()
{
	_levelkit_cached "$prog" --list-commands
	mapfile -t _levelkit_words < <(cut -f1 <<<"$_levelkit_out")
	_levelkit_reply "${_levelkit_words[@]}"
}

_levelkit()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cword=$COMP_CWORD

	# "--format=ts" arrives as "--format" "=" "ts" (COMP_WORDBREAKS)
	local eq=
	if [[ $cur == = ]]; then
		cur='' eq=1
	elif [[ $prev == = ]] && ((cword > 1)); then
		prev=${COMP_WORDS[cword - 2]} eq=1
	fi

	local prog=${COMP_WORDS[0]}
	# COMP_WORDS holds the word as typed: expand a leading ~/ ourselves
	# shellcheck disable=SC2088
	[[ $prog == "~/"* ]] && prog=$HOME/${prog#"~/"}
	local base=${prog##*/} cmd='' first=1 i help
	local -a run

	if [[ $base == levelkit-* ]]; then
		cmd=${base#levelkit-}
		run=("$prog" --help)
	else
		# levelkit [front options] CMD ...
		for ((i = 1; i < cword; i++)); do
			if [[ ${COMP_WORDS[i]} != -* ]]; then
				cmd=${COMP_WORDS[i]}
				first=$((i + 1))
				break
			fi
		done
		if [[ -z $cmd ]]; then
			if [[ $cur == -* ]]; then
				_levelkit_cached "$prog" --help
				help=$_levelkit_out
				_levelkit_option_words
				_levelkit_reply "${_levelkit_words[@]}"
			else
				_levelkit_commands
			fi
			return 0
		fi
		if [[ $cmd == help ]]; then
			((cword == first)) && _levelkit_commands
			return 0
		fi
		run=("$prog" help "$cmd")
	fi

	_levelkit_cached "${run[@]}"
	help=$_levelkit_out
	[[ -n $help ]] || { _levelkit_files; return 0; }

	# the value of an option
	if [[ $prev == -* ]] && { ((cword > first)) || [[ -n $eq ]]; }; then
		_levelkit_option_line "$prev"
		if [[ $_levelkit_line == *'<'*'>'* ]]; then
			if [[ $cmd == gen ]] && [[ $prev == -g || $prev == --generator ]]; then
				_levelkit_generators generators "$(_levelkit_game)"
			elif [[ $cmd == gen && $prev == --rules ]]; then
				# a preset of the game's, or a rules file: the
				# presets first, files when none fits
				_levelkit_presets "$(_levelkit_game)"
			else
				_levelkit_values "$_levelkit_line"
			fi
			if ((${#_levelkit_words[@]})); then
				_levelkit_reply "${_levelkit_words[@]}"
				if ((${#COMPREPLY[@]} == 0)) && [[ $prev == --rules ]]; then
					_levelkit_files
				fi
			else
				_levelkit_files
			fi
			return 0
		fi
	fi

	if [[ $cur == -* ]]; then
		_levelkit_option_words
		_levelkit_reply "${_levelkit_words[@]}"
		return 0
	fi

	# gen's first operand is the game
	if [[ $cmd == gen ]] && [[ -z $(_levelkit_game) ]]; then
		_levelkit_generators games
		_levelkit_reply "${_levelkit_words[@]}"
		return 0
	fi
	_levelkit_files
	return 0
}

# _levelkit_game: prints gen's game operand, if it has been typed: the
# first word after the command that is neither an option nor the value
# of one (the options that take values are those shown with <...>).
_levelkit_game()
{
	local j w
	for ((j = first; j < cword; j++)); do
		w=${COMP_WORDS[j]}
		if [[ $w == -* ]]; then
			_levelkit_option_line "$w"
			if [[ $_levelkit_line == *'<'*'>'* ]]; then
				((j++))
				[[ ${COMP_WORDS[j]} == = ]] && ((j++))
			fi
		elif [[ $w != = ]]; then
			printf '%s\n' "$w"
			return
		fi
	done
}

# Register levelkit, the name this file was loaded under (bash-completion
# loads completions/levelkit-CMD to complete levelkit-CMD), and every
# levelkit-CMD that the installed levelkit lists.
_levelkit_register()
{
	local names=(levelkit) self=${BASH_SOURCE[0]##*/} c
	[[ $self == levelkit-* ]] && names+=("$self")
	if type -P levelkit >/dev/null; then
		for c in $(levelkit --list-commands 2>/dev/null | cut -f1); do
			names+=("levelkit-$c")
		done
	fi
	complete -F _levelkit "${names[@]}"
}
_levelkit_register
unset -f _levelkit_register
