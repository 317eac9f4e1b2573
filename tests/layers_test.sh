#!/bin/sh
# layers_test.sh - the layers of docs/design.md hold twice over:
#
#  1. in the includes: every source file includes only headers of its own
#     layer or of a lower one, and private headers only from its own folder
#     (the slide games' shared library, games/slide, is included by them);
#  2. at link time (given the library): every symbol a library object uses
#     from another object is defined in the same layer or a lower one, and
#     no game's folder uses another game's (nm over the archive's objects);
#  3. in the names: every symbol the library defines for others starts with
#     lk_ or with its folder's prefix (a game's: soko_, comb_, ps_, slide_,
#     or the folder's name; the view's view_ and film_).
#
#   0 core      src/core       strbuf rng hash clock bounds pool top bits grid record expr json rays assign
#                              progression
#   1 interface src/interface  game csp canvas
#   2 search    src/search     table search explore analysis difficulty rating dedupe
#                              fields concept
#   3 gen       src/gen        room rules generate transform
#   4 gamelib   src/games/slide  (a library the slide games share)
#   5 games     src/games/NAME (each game's folder; no game uses another,
#                              and a game's headers stay in its folder)
#   6 registry  src/games/registry.c  registry (finds games by name)
#   7 act       src/act        actions, options (the option tables' parser),
#                              pipeline (the record loop), filter
#     view      src/view       view (pictures and pages of records)
#   8 cli       src/cli        (private headers only)
#
# usage: layers_test.sh SOURCE_DIR [LIBRARY.a]
set -u
SRC=$1
LIB=${2:-}
case $LIB in /*|'') ;; *) LIB=$(pwd)/$LIB ;; esac
cd "$SRC" || exit 2
failures=0
checks=0

header_layer() {
	case $1 in
	strbuf|rng|hash|clock|bounds|pool|top|bits|grid|record|expr|json|rays|assign|progression) echo 0 ;;
	game|csp|canvas) echo 1 ;;
	table|search|explore|analysis|difficulty|rating|dedupe|fields|concept) echo 2 ;;
	room|rules|generate|transform) echo 3 ;;
	registry) echo 6 ;;
	actions|view|options|pipeline|filter|gen_run) echo 7 ;;
	*) echo unknown ;;
	esac
}

# The layer of a source file, by its folder.
dir_layer() {
	case $1 in
	include/levelkit/*) header_layer "$(basename "$1" .h)" ;;
	src/core/*) echo 0 ;;
	src/interface/*) echo 1 ;;
	src/search/*) echo 2 ;;
	src/gen/*) echo 3 ;;
	src/games/slide/*) echo 4 ;;
	src/games/registry.c) echo 6 ;;
	src/games/*/*) echo 5 ;;
	src/view/*|view_assets.c) echo 7 ;;
	src/act/*) echo 7 ;;
	src/cli/*) echo 8 ;;
	*) echo unknown ;;
	esac
}

# ------------------------------------------------------------ 1. includes

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
[ -n "$LIB" ] || { [ "$failures" -eq 0 ]; exit; }

# --------------------------------------------------------- 2. link time

if ! command -v nm >/dev/null 2>&1; then
	echo "nm not found: the link-level check needs binutils" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# member object -> source file and layer; basenames must be unique for
# the archive's members to name their sources.
find src -name '*.c' | sort >"$tmp/sources"
dups=$(sed 's#.*/##' "$tmp/sources" | sort | uniq -d)
if [ -n "$dups" ]; then
	echo "FAIL: two library sources share a file name: $dups" >&2
	exit 1
fi
while read -r s; do
	printf '%s.o %s %s\n' "$(basename "$s")" "$s" "$(dir_layer "$s")"
done <"$tmp/sources" >"$tmp/members"
echo "view_assets.c.o view_assets.c 7" >>"$tmp/members"

nm -A "$LIB" 2>/dev/null >"$tmp/nm" || { echo "nm $LIB failed" >&2; exit 1; }
awk -v members="$tmp/members" '
function folder(f,   k, p) { k = split(f, p, "/"); return k >= 4 ? p[3] : "" }
BEGIN {
	while ((getline line < members) > 0) {
		split(line, m, " ")
		src[m[1]] = m[2]; layer[m[1]] = m[3]
	}
}
{
	# "lib.a:member.o:VALUE T name" or "lib.a:member.o:         U name"
	n = split($0, part, ":")
	obj = part[n - 1]
	k = split(part[n], w, " ")
	if (!(obj in src)) { unknown[obj] = 1; next }
	if (w[k - 1] == "U") { used[++nu] = obj " " w[k] }
	else if (w[k - 1] ~ /^[TDBRCVW]$/) def[w[k]] = obj
}
END {
	for (o in unknown) { printf "FAIL: %s: an object of no known source\n", o > "/dev/stderr"; bad++ }
	for (i = 1; i <= nu; i++) {
		split(used[i], u, " ")
		if (!(u[2] in def) || def[u[2]] == u[1])
			continue
		d = def[u[2]]
		checked++
		up = layer[d] > layer[u[1]]
		cross = layer[d] == 5 && layer[u[1]] == 5 && folder(src[d]) != folder(src[u[1]])
		if (!up && !cross)
			continue
		pair = src[u[1]] " -> " src[d]
		if (!(pair in seen)) { seen[pair] = u[2]; order[++npairs] = pair }
	}
	for (i = 1; i <= npairs; i++) {
		split(order[i], p, " -> ")
		printf "FAIL: %s (layer %s) uses %s of %s (layer %s)%s\n", p[1], layerof(p[1]),
		       seen[order[i]], p[2], layerof(p[2]),
		       layerof(p[1]) == layerof(p[2]) ? ": another game" : ": an arrow upwards" > "/dev/stderr"
	}
	printf "%d symbol uses between library files checked, %d upward file pairs\n", checked, npairs
	exit (npairs + bad) > 0
}
function layerof(s,   o) { o = s; sub(/.*\//, "", o); return layer[o ".o"] }
' "$tmp/nm"
link=$?

# ------------------------------------------------------------ 3. names
# Every symbol the library defines for others starts with lk_, except a
# folder's own: a game's (and the slide games' library's) prefix, which
# is the same for all its files, and the view's private modules.
prefix_of() {
	case $1 in
	src/games/sokoban/*) echo soko_ ;;
	src/games/combination/*) echo comb_ ;;
	src/games/puzzlescript/*) echo ps_ ;;
	src/games/slide/*) echo slide_ ;;
	src/games/*/*) echo "$(basename "$(dirname "$1")")_" ;;
	src/view/*) echo "view_ film_" ;;
	*) echo "" ;;
	esac
}
while read -r m s l; do
	printf '%s %s\n' "$m" "$(prefix_of "$s")"
done <"$tmp/members" >"$tmp/prefixes"
awk -v prefixes="$tmp/prefixes" '
BEGIN { while ((getline line < prefixes) > 0) { k = split(line, w, " "); for (i = 2; i <= k; i++) ok[w[1]] = ok[w[1]] " " w[i] } }
{
	n = split($0, part, ":"); obj = part[n - 1]; k = split(part[n], w, " ")
	if (k < 2 || w[k - 1] !~ /^[TDRBCV]$/) next
	# the sanitizers own symbols (the ASan one-definition-rule markers)
	if (w[k] ~ /^__(odr_)?asan/ || w[k] ~ /^__ubsan/) next
	checked++
	if (w[k] ~ /^lk_/) next
	good = 0; m = split(ok[obj], pre, " ")
	for (i = 1; i <= m; i++) if (index(w[k], pre[i]) == 1) good = 1
	if (!good) { printf "FAIL: %s defines %s: not lk_ nor its folder'"'"'s prefix (%s)\n", obj, w[k], ok[obj] == "" ? "none" : substr(ok[obj], 2) > "/dev/stderr"; bad++ }
}
END { printf "%d symbols defined, %d without lk_ or their folder'"'"'s prefix\n", checked, bad; exit bad > 0 }
' "$tmp/nm"
named=$?
[ "$failures" -eq 0 ] && [ "$link" -eq 0 ] && [ "$named" -eq 0 ]
