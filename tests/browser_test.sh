#!/bin/sh
# browser_test.sh - levelkit's pages in a real browser: headless Chromium
# opens pages the commands wrote, with #selftest, and the page plays every
# solution with its arrow keys, sorts and filters through its controls and
# writes what its DOM showed into <pre id="lk-selftest">; browser_check.py
# judges that against truths found without the page (the records, solve
# --verify, filter -c).  Also: an SVG sheet parses, a page that reloads
# itself (gen --suggest) does reload, and screenshots are kept as test
# artifacts in ARTIFACTS (not committed).
#
# Without Chromium (or python3) the test is skipped, saying so, with exit
# status 77 (ctest's SKIP_RETURN_CODE): never passed silently.
#
# usage: browser_test.sh SOLVE RATE GEN FILTER LEVELS_DIR ARTIFACTS
set -u

SOLVE=$1
RATE=$2
GEN=$3
FILTER=$4
LEVELS=$5
ARTIFACTS=$6
HERE=$(cd "$(dirname "$0")" && pwd)

CHROME=${CHROMIUM:-}
if [ -z "$CHROME" ]; then
	for c in chromium chromium-browser google-chrome; do
		if command -v "$c" >/dev/null 2>&1; then
			CHROME=$(command -v "$c")
			break
		fi
	done
fi
if [ -z "$CHROME" ] || ! "$CHROME" --version >/dev/null 2>&1; then
	echo "SKIP: no Chromium here (apt-get install chromium, or set CHROMIUM=path); the pages are not tested in a browser" >&2
	exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: no python3 to read the pages' self-test results" >&2
	exit 77
fi

. "$(dirname "$0")/cli_lib.sh"
cli_start browser
mkdir -p "$ARTIFACTS"

# chrome OUT ARGS...: run headless Chromium with a fresh profile (bounded:
# a browser that hangs fails the test, it does not stop it).
runs=0
chrome() {
	out=$1
	shift
	runs=$((runs + 1))
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-extensions --user-data-dir="$TMP/profile$runs" --window-size=1280,900 \
		"$@" >"$out" 2>"$TMP/chrome.err"
}

# page NAME XSB EXPR HTML [SOURCE [CHARTS]]: open the page with #selftest
# and judge it; XSB holds the page's records as text, SOURCE (default XSB)
# the input the page was made from, numbered as the page numbers its
# records; CHARTS, how many charts it must show.
page() {
	name=$1
	xsb=$2
	expr=$3
	html=$4
	source=${5:-$2}
	[ -n "$source" ] || source=$2
	charts=${6:-}
	checks=$((checks + 1))
	"$SOLVE" --verify -f tsv --fields record,title,verified "$source" >"$TMP/verified.tsv" 2>/dev/null
	count=$("$FILTER" -c "$expr" "$xsb" 2>/dev/null)
	frag=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$expr")
	chrome "$TMP/dom.html" --virtual-time-budget=20000 --dump-dom "file://$html#selftest&sort=moves&filter=$frag"
	if ! python3 "$HERE/browser_check.py" "$TMP/dom.html" "$xsb" "$TMP/verified.tsv" "$count" "$name" \
		$charts; then
		failures=$((failures + 1))
		cp "$TMP/dom.html" "$ARTIFACTS/$name.dom.html"
		echo "(the DOM is kept in $ARTIFACTS/$name.dom.html)" >&2
	fi
}

# 1. solve: one level of each game, every symbol
"$SOLVE" -t 10 "$LEVELS/view.xsb" >"$TMP/view.xsb" 2>/dev/null
"$SOLVE" -t 10 "$LEVELS/view.xsb" -f html -o "$TMP/view.html" 2>/dev/null
page solve-view "$TMP/view.xsb" 'has(moves) && moves >= 5' "$TMP/view.html" "$TMP/view.xsb"

# 2. solutions that do not win or do not play: the page must not say solved
python3 - "$TMP/view.xsb" >"$TMP/wrong.xsb" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
def spoil(m):
    s = m.group(1)
    if s.startswith("#"):                    # combination: swap two pieces
        return "solution: " + s.replace("2", "x").replace("1", "2").replace("x", "1")
    if len(s) > 4:
        return "solution: " + s[: len(s) // 2]   # cut: legal, not won
    return "solution: " + s + "Q"              # not a move
print(re.sub(r"^solution: (.*)$", spoil, text, flags=re.M), end="")
EOF
"$SOLVE" --verify "$TMP/wrong.xsb" -f html -o "$TMP/wrong.html" 2>/dev/null
"$SOLVE" --verify "$TMP/wrong.xsb" >"$TMP/wrong-verified.xsb" 2>/dev/null
page verify-wrong "$TMP/wrong-verified.xsb" 'verified == "no"' "$TMP/wrong.html" "$TMP/wrong.xsb"
checks=$((checks + 1))
grep -q '"sol":"solved"' "$TMP/wrong.html" && fail "a spoilt solution is called solved"

# 3. rate: the charts, and the issue's pipeline solve | filter -f html
"$RATE" -k 5 -t 5 "$LEVELS/../../levels/boxoban-medium-sample.xsb" >"$TMP/rated.xsb" 2>/dev/null
"$RATE" -k 5 -t 5 "$LEVELS/../../levels/boxoban-medium-sample.xsb" -f html -o "$TMP/rated.html" 2>/dev/null
page rate-boxoban "$TMP/rated.xsb" 'grade == "easy" || grade == "medium"' "$TMP/rated.html" "" 3
# a rating under a bound that stops some runs: lower-bound grades drawn at
# their band ("at least"), difficulties that are bounds left out and counted
"$RATE" -k 5 --max-states 300 "$LEVELS/../../levels/boxoban-hard-sample.xsb" >"$TMP/bounded.xsb" 2>/dev/null
"$RATE" -k 5 --max-states 300 "$LEVELS/../../levels/boxoban-hard-sample.xsb" -f html -o "$TMP/bounded.html" 2>/dev/null
grep -q '^grade: >= ' "$TMP/bounded.xsb" || fail "rate --max-states 300 gave no lower-bound grade to draw"
page rate-bounded "$TMP/bounded.xsb" 'has(difficulty-runs)' "$TMP/bounded.html" "" 3
"$SOLVE" -t 5 "$LEVELS/../../levels/boxoban-hard-sample.xsb" 2>/dev/null >"$TMP/hard.xsb"
"$FILTER" 'moves >= 30' -f html -o "$TMP/hard.html" "$TMP/hard.xsb"
"$FILTER" 'moves >= 30' "$TMP/hard.xsb" >"$TMP/hard30.xsb"
page filter-hard "$TMP/hard30.xsb" 'moves >= 80' "$TMP/hard.html"

# 4. gen: a run's page, and --suggest's page, which reloads while the climb
# goes on (here: a copy of the last page told to reload every 2 s)
"$GEN" sokoban -n 4 --seed 5 -o "$TMP/gen.xsb" 2>/dev/null
"$GEN" sokoban -n 4 --seed 5 -f html -o "$TMP/gen.html" 2>/dev/null
page gen "$TMP/gen.xsb" 'pushes >= 12' "$TMP/gen.html"
"$GEN" sokoban --from "$LEVELS/gen-from.xsb" --suggest 3 --time-limit 2 -o "$TMP/ideas.html" 2>/dev/null
sed 's/"refresh": 0/"refresh": 2/' "$TMP/ideas.html" >"$TMP/live.html"
# Reloading takes real time, which --dump-dom does not wait for: the page
# is watched over the DevTools protocol (Node, no package) until it has
# reloaded itself.
if command -v node >/dev/null 2>&1; then
	checks=$((checks + 1))
	got=$(timeout 120 node "$HERE/cdp_wait.js" "$CHROME" "file://$TMP/live.html" \
		"+document.documentElement.getAttribute('data-reloads') >= 1 && document.querySelectorAll('.lk-card').length" \
		20000 "$TMP/profile-node" 2>"$TMP/node.err")
	[ "$got" = 3 ] || fail "the live suggestions page did not reload itself with its 3 cards (got '$got': $(cat "$TMP/node.err"))"
else
	echo "note: no node here; the check that a live page reloads itself is skipped (CI installs nodejs)" >&2
fi
checks=$((checks + 1))
chrome "$TMP/final.dom" --virtual-time-budget=5000 --dump-dom "file://$TMP/ideas.html"
grep -q '<html[^>]*data-reloads' "$TMP/final.dom" && fail "the last suggestions page still reloads"
grep -q 'id="lk-refresh" hidden' "$TMP/final.dom" || fail "the last suggestions page says it reloads"
n=$(grep -o 'class="lk-card" data-i="[0-9]' "$TMP/final.dom" | wc -l)
[ "$n" = 3 ] || fail "the suggestions page shows $n cards, not 3"
# each card titled by its origin and rank (no title of their own), the
# rank at the end, which a title shortened in the middle keeps: the cards
# as shown tell the suggestions apart
for rank in 1 2 3; do
	checks=$((checks + 1))
	grep -q "class=\"lk-title\" title=\"[^\"]*gen-from.xsb record 1: gen fixture[^\"]*, suggestion $rank\"" \
		"$TMP/final.dom" || fail "no card titled '...gen-from.xsb record 1: ..., suggestion $rank'"
done
checks=$((checks + 1))
# (the page's script holds the card template, whose title is esc(...))
n=$(grep -o 'class="lk-title" title="[^"]*">[^<]*<' "$TMP/final.dom" | grep -v 'esc(' |
	sed 's/.*">//' | sort -u | wc -l)
[ "$n" = 3 ] || fail "the suggestions' cards show $n different titles, not 3"

# 5. PuzzleScript: the demo Sokoban drawn with its own sprites, each
# solution played to a frame with every target under a crate (the script
# is copied, so that the records name a script that stays put)
DATA=${LEVELKIT_DATA:-$HERE/../../shared/data}
if [ -f "$DATA/puzzlescript/games/microban.txt" ]; then
	cp "$DATA/puzzlescript/games/microban.txt" "$TMP/microban.txt"
	# one solving run (what it solves in time depends on the machine),
	# its records and their page
	"$SOLVE" -t 2 "$TMP/microban.txt" >"$TMP/ps.xsb" 2>/dev/null
	"$FILTER" 'level >= 1' "$TMP/ps.xsb" -f html -o "$TMP/ps.html" 2>/dev/null
	page puzzlescript "$TMP/ps.xsb" 'moves >= 20' "$TMP/ps.html"
	checks=$((checks + 1))
	n=$(grep -o '"sol":"solved"' "$TMP/ps.html" | wc -l)
	[ "$n" -ge 3 ] || fail "the PuzzleScript page has $n solved levels, not at least 3"
	chrome /dev/null --virtual-time-budget=3000 --screenshot="$ARTIFACTS/puzzlescript-level.png" \
		"file://$TMP/ps.html#level=2"
else
	echo "note: no $DATA/puzzlescript/games/microban.txt (set LEVELKIT_DATA); the PuzzleScript page is not tested" >&2
fi

# 6. an SVG sheet parses as SVG and draws its symbols
"$SOLVE" -t 10 -f svg -o "$TMP/sheet.svg" "$LEVELS/view.xsb" 2>/dev/null
checks=$((checks + 1))
chrome "$TMP/svg.dom" --dump-dom "file://$TMP/sheet.svg"
grep -qi 'parsererror\|error on line' "$TMP/svg.dom" && fail "the SVG sheet does not parse: $(head -c 300 "$TMP/svg.dom")"
[ "$(grep -o '<use' "$TMP/svg.dom" | wc -l)" -gt 40 ] || fail "the SVG sheet draws few symbols"

# 7. #level=N opens record N, numbered as filter's `record` and tsv's
# column number it (record 1 of view.xsb is its header)
for n in 2 4 7; do
	checks=$((checks + 1))
	want=$("$FILTER" "record == $n" -f tsv --fields title "$TMP/view.xsb" | tail -1)
	chrome "$TMP/level.dom" --virtual-time-budget=3000 --dump-dom "file://$TMP/view.html#level=$n"
	got=$(sed -n 's/.*<span id="lk-d-title">\([^<]*\)<.*/\1/p' "$TMP/level.dom")
	case $got in
	"$want  ("*", record $n)") ;;
	*) fail "#level=$n opens '$got', not record $n ('$want')" ;;
	esac
done

# 8. screenshots, kept as artifacts: the sheet, and a level opened
chrome /dev/null --virtual-time-budget=3000 --screenshot="$ARTIFACTS/view-sheet.png" "file://$TMP/view.html"
chrome /dev/null --virtual-time-budget=3000 --screenshot="$ARTIFACTS/view-level.png" "file://$TMP/view.html#level=2"
chrome /dev/null --virtual-time-budget=3000 --screenshot="$ARTIFACTS/rated.png" "file://$TMP/rated.html"
for shot in view-sheet view-level rated $( [ -f "$ARTIFACTS/puzzlescript-level.png" ] && echo puzzlescript-level); do
	checks=$((checks + 1))
	size=$(wc -c <"$ARTIFACTS/$shot.png" 2>/dev/null || echo 0)
	[ "$size" -gt 10000 ] || fail "screenshot $shot.png is missing or empty ($size bytes)"
done
cp "$TMP/view.html" "$ARTIFACTS/view.html"

echo "browser: screenshots in $ARTIFACTS"
cli_end
