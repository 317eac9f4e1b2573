# cli_lib.sh - the checks the command-line test scripts share, sourced by
# them (". "$(dirname "$0")/cli_lib.sh"), so that a check reads and reports
# the same way in every script.  cli_start makes the scratch directory $TMP
# (removed on exit) and zeroes the counters; each expect_* counts one check
# and, when it fails, says what was wanted and what came; cli_end prints the
# tally and is the script's exit status.  POSIX sh.

# cli_start NAME: a scratch directory $TMP, removed on exit; counters at 0.
cli_start() {
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/levelkit-$1.XXXXXX")
	trap 'rm -rf "$TMP"' EXIT INT TERM
	failures=0
	checks=0
}

# cli_end: the tally on stdout; succeeds only when nothing failed.
cli_end() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
}

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# run OUT ERR CMD...: stdout to OUT, stderr to ERR, exit status in $rc.
run() {
	out=$1
	err=$2
	shift 2
	rc=0
	"$@" >"$out" 2>"$err" </dev/null || rc=$?
}

# expect WANT GOT WHAT
expect() {
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$2', expected '$1'"
}

# expect_true WHAT CMD...: the command must succeed.
expect_true() {
	what=$1
	shift
	checks=$((checks + 1))
	"$@" || fail "$what"
}

# expect_rc WANT GOT WHAT: an exit status; on a miss, the head of the last
# command's stderr ($TMP/err, where the scripts keep it) follows.
expect_rc() {
	checks=$((checks + 1))
	[ "$1" = "$2" ] || {
		fail "$3: exit status $2, expected $1"
		head -n 20 "$TMP/err" 2>/dev/null | sed 's/^/  stderr: /' >&2 || true
	}
}

# expect_count N FILE PATTERN WHAT: N lines of FILE match PATTERN.
expect_count() {
	checks=$((checks + 1))
	n=$(grep -c -e "$3" "$2" || true)
	[ "$n" = "$1" ] || fail "$4: $n lines match '$3' in $(basename "$2"), expected $1"
}

# expect_same A B WHAT: the two files are the same, byte for byte.
expect_same() {
	checks=$((checks + 1))
	cmp -s "$1" "$2" || { fail "$3: outputs differ"; diff "$1" "$2" | head -n 20 >&2 || true; }
}

# expect_empty FILE WHAT
expect_empty() {
	checks=$((checks + 1))
	[ ! -s "$1" ] || { fail "$2: unexpected output:"; head -n 20 "$1" >&2; }
}

# expect_line LINE FILE WHAT: FILE holds LINE as a whole line.
expect_line() {
	checks=$((checks + 1))
	grep -qxF -e "$1" "$2" || { fail "$3: no line '$1' in:"; head -n 20 "$2" >&2; }
}

# field FILE TITLE NAME: the value of field NAME in the record titled
# TITLE ("-" when the record has no such field).
field() {
	awk -v t="$2" -v f="$3" 'BEGIN { RS = ""; FS = "\n"; v = "-" }
		{ mine = 0; val = "-"
		  for (i = 1; i <= NF; i++) {
			if ($i == "title: " t) mine = 1
			if (index($i, f ": ") == 1) val = substr($i, length(f) + 3)
		  }
		  if (mine) v = val }
		END { print v }' "$1"
}

# values FILE NAME: the values of field NAME, one a line, in order.
values() {
	sed -n "s/^$2: //p" "$1"
}

# check_fields FILE TITLE NAME=VALUE...
check_fields() {
	file=$1
	title=$2
	shift 2
	for nv in "$@"; do
		expect "${nv#*=}" "$(field "$file" "$title" "${nv%%=*}")" "$title: ${nv%%=*}"
	done
}
