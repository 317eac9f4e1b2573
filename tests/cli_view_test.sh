#!/bin/sh
# cli_view_test.sh - the view formats through the commands: -f html, svg
# and ansi from solve, rate, filter and gen; -o FILE.html and FILE.svg
# choosing the format; -o never replacing a file or an input without
# --force; --color and NO_COLOR (on a pseudo-terminal, when `script` is
# there); a page cut by Ctrl-C still whole; gen --suggest -o FILE.html
# rewriting the page atomically (never seen half written) and the last
# page no longer reloading.  What the pages show is checked in a browser by
# browser_test.sh.
#
# usage: cli_view_test.sh SOLVE RATE GEN FILTER LEVELS_DIR
set -u

SOLVE=$1
RATE=$2
GEN=$3
FILTER=$4
LEVELS=$5
VIEW=$LEVELS/view.xsb

. "$(dirname "$0")/cli_lib.sh"
cli_start view

# a whole page: starts and ends as one, nothing fetched from elsewhere
whole_page() {
	checks=$((checks + 1))
	head -1 "$1" | grep -q '^<!DOCTYPE html>$' || fail "$2: does not start a page"
	tail -1 "$1" | grep -q '^</html>$' || fail "$2: does not end the page"
	if grep -Eq '<link|(src|href)="(https?:)?//|@import|url\(' "$1"; then
		fail "$2: refers to something outside the page"
	fi
}

records() {
	grep -c '^{"r":1' "$1"
}

# --- solve -f html: every level record is in the page
"$SOLVE" -t 5 "$VIEW" -f html -o "$TMP/view.html" 2>"$TMP/err"
expect 0 $? "solve -f html exit status"
whole_page "$TMP/view.html" "solve -f html"
expect 8 "$(records "$TMP/view.html")" "levels in the page"
expect 1 "$(grep -c '^{"hdr":1' "$TMP/view.html")" "the pack header in the page"
expect 7 "$(grep -c '"sol":"solved"' "$TMP/view.html")" "levels whose solution plays to a win"

# --- -o chooses by its name; an existing file or an input needs --force
"$SOLVE" -t 5 "$VIEW" -o "$TMP/by-name.html" 2>/dev/null
whole_page "$TMP/by-name.html" "-o x.html"
"$SOLVE" -t 5 "$VIEW" -o "$TMP/by-name.svg" 2>/dev/null
expect '<?xml version="1.0" encoding="UTF-8"?>' "$(head -1 "$TMP/by-name.svg")" "-o x.svg"
expect '</svg>' "$(tail -1 "$TMP/by-name.svg")" "-o x.svg ends"
"$SOLVE" -t 5 "$VIEW" -f html -o "$TMP/view.html" 2>"$TMP/err"
expect 2 $? "an existing page is not replaced"
grep -q -- '--force' "$TMP/err" || fail "the refusal names --force"
"$SOLVE" -t 5 "$VIEW" -f html -o "$TMP/view.html" --force 2>/dev/null
expect 0 $? "--force replaces the page"
cp "$VIEW" "$TMP/in.xsb"
"$SOLVE" -t 5 "$TMP/in.xsb" -f html -o "$TMP/in.xsb" 2>"$TMP/err"
expect 2 $? "a page does not replace its input"
cmp -s "$VIEW" "$TMP/in.xsb" || fail "the input was changed"
"$SOLVE" -t 5 "$TMP/in.xsb" -o "$TMP/text.html" -f text 2>/dev/null
expect '; view.xsb - one level of each game, drawn by tests/browser_test.sh and' \
	"$(head -1 "$TMP/text.html")" "-f text wins over the name"

# --- svg: one level is a picture with its title; several a sheet
"$FILTER" 'title == "Two colours"' "$VIEW" | "$SOLVE" -f svg >"$TMP/one.svg" 2>/dev/null
grep -q '<title>Two colours</title>' "$TMP/one.svg" || fail "a single level's picture has its title"
expect 1 "$(grep -c '<svg' "$TMP/one.svg")" "one svg element"
"$SOLVE" -t 5 "$VIEW" -f svg >"$TMP/sheet.svg" 2>/dev/null
for t in "Sokoban with a box home" "Fruit with everything" "Skiddy with everything" \
	"Two colours" "Three kinds" "Unsolvable" "PuzzleScript Microban 1" "Laser split"; do
	grep -q ">$t</text>" "$TMP/sheet.svg" || fail "the sheet has '$t'"
done
for label in goal "box on a goal" player "mud (stones pass, fruit is lost)" "red exit" \
	"blue bishop" "red queen"; do
	checks=$((checks + 1))
	grep -q ">$label</text>" "$TMP/sheet.svg" || fail "the legend has '$label'"
done

# --- sheets parsed as XML: each caption under its own level (not a row
# away), long titles shortened in the middle, a bounded width; a pack of
# long titles and narrow levels (Combination), Boxoban, and Microban's 155
# levels when the shared data is here
if command -v python3 >/dev/null 2>&1; then
	"$FILTER" 'record >= 0' "$VIEW" -f svg >"$TMP/view-sheet.svg"
	sheets="view-sheet:$VIEW"
	for pack in combination-sample boxoban-medium-sample; do
		"$FILTER" 'record >= 0' "$LEVELS/../../levels/$pack.xsb" -f svg >"$TMP/$pack.svg"
		sheets="$sheets $pack:$LEVELS/../../levels/$pack.xsb"
	done
	MICROBAN=${LEVELKIT_DATA:-$LEVELS/../../../shared/data}/sokoban/microban.xsb
	if [ -f "$MICROBAN" ]; then
		"$FILTER" 'record >= 0' "$MICROBAN" -o "$TMP/microban.svg"
		sheets="$sheets microban:$MICROBAN"
	fi
	for s in $sheets; do
		checks=$((checks + 1))
		python3 "$(dirname "$0")/svg_sheet_check.py" "$TMP/${s%%:*}.svg" "${s#*:}" "${s%%:*}" >"$TMP/out" ||
			fail "the sheet of ${s%%:*}: $(cat "$TMP/out")"
	done
else
	echo "note: no python3 here; the sheets' layout is not checked" >&2
fi

# --- rate, filter and gen write pages too
"$RATE" -k 3 -t 5 "$LEVELS/small.xsb" -f html -o "$TMP/rated.html" 2>/dev/null
whole_page "$TMP/rated.html" "rate -f html"
grep -q '\["grade","' "$TMP/rated.html" || fail "rate's page has the grades"
"$SOLVE" -t 5 "$VIEW" >"$TMP/solved.xsb" 2>/dev/null
want=$("$FILTER" -c 'has(moves) && moves >= 5' "$TMP/solved.xsb")
"$FILTER" 'has(moves) && moves >= 5' -f html "$TMP/solved.xsb" >"$TMP/filtered.html"
expect 0 $? "filter -f html exit status"
whole_page "$TMP/filtered.html" "filter -f html"
expect "$want" "$(records "$TMP/filtered.html")" "filter's page has the levels kept"
"$GEN" sokoban -n 2 --seed 3 -f html -o "$TMP/gen.html" 2>/dev/null
expect 0 $? "gen -f html exit status"
whole_page "$TMP/gen.html" "gen -f html"
expect 2 "$(records "$TMP/gen.html")" "gen's page has its levels"

# --- --title names the page and the sheet; it needs one
"$SOLVE" -t 5 "$VIEW" -f html --title 'Pack <1> & co' -o "$TMP/titled.html" 2>/dev/null
expect 1 "$(grep -c '<title>Pack &lt;1&gt; &amp; co</title>' "$TMP/titled.html")" "--title names the page"
"$FILTER" 'record >= 0' "$VIEW" --title 'My sheet' -o "$TMP/titled.svg" 2>/dev/null
expect 1 "$(grep -c '<title>My sheet</title>' "$TMP/titled.svg")" "--title names the sheet"
"$GEN" sokoban -n 2 --seed 3 -f html --title 'Night run' 2>/dev/null | grep -q '<title>Night run</title>' ||
	fail "gen --title names gen's page"
"$SOLVE" --title x "$VIEW" >/dev/null 2>"$TMP/err"
expect 2 $? "--title without a page"
grep -q 'html or svg' "$TMP/err" || fail "--title without a page says what it needs"

# --- usage errors
"$SOLVE" -f png "$VIEW" >/dev/null 2>"$TMP/err"
expect 2 $? "an unknown format"
grep -q 'html, svg or ansi' "$TMP/err" || fail "the formats listed include the pictures"
"$SOLVE" -f html --fields moves "$VIEW" >/dev/null 2>&1
expect 2 $? "--fields with -f html"
"$FILTER" -c -f html 'has(moves)' "$TMP/solved.xsb" >/dev/null 2>&1
expect 2 $? "filter --count -f html"
"$SOLVE" --color=sometimes "$VIEW" >/dev/null 2>&1
expect 2 $? "an unknown --color"
"$GEN" sokoban --from "$LEVELS/gen-from.xsb" --suggest 2 --candidates 10 -f html >/dev/null 2>"$TMP/err"
expect 2 $? "--suggest -f html without -o"

# --- colour: -f ansi and --color always colour; never and NO_COLOR do not;
# without escapes the coloured text is the text
esc=$(printf '\033')
"$SOLVE" -t 5 "$VIEW" -f ansi >"$TMP/ansi" 2>/dev/null
grep -q "$esc\[" "$TMP/ansi" || fail "-f ansi colours"
"$SOLVE" -t 5 "$VIEW" --color=always >"$TMP/always" 2>/dev/null
grep -q "$esc\[" "$TMP/always" || fail "--color=always colours a pipe"
# (the laser level's drawing of its solution is added as comment lines)
sed "s/$esc\[[0-9;]*m//g" "$TMP/always" | grep -v '^; ' >"$TMP/stripped"
grep -v '^; ' "$TMP/solved.xsb" | cmp -s "$TMP/stripped" - || fail "coloured text without its escapes is the text"
NO_COLOR=1 "$SOLVE" -t 5 "$VIEW" --color=always >"$TMP/always2" 2>/dev/null
grep -q "$esc\[" "$TMP/always2" || fail "--color=always wins over NO_COLOR"
"$SOLVE" -t 5 "$VIEW" >"$TMP/pipe" 2>/dev/null
if grep -q "$esc" "$TMP/pipe"; then fail "text to a pipe is not coloured"; fi
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$SOLVE' -t 5 '$VIEW' 2>/dev/null" /dev/null >"$TMP/tty" </dev/null
	checks=$((checks + 1))
	grep -q "$esc\[" "$TMP/tty" || fail "text on a terminal is coloured"
	NO_COLOR=1 script -qec "'$SOLVE' -t 5 '$VIEW' 2>/dev/null" /dev/null >"$TMP/tty2" </dev/null
	if grep -q "$esc\[" "$TMP/tty2"; then fail "NO_COLOR turns colour off on a terminal"; fi
	script -qec "'$SOLVE' -t 5 '$VIEW' --color=never 2>/dev/null" /dev/null >"$TMP/tty3" </dev/null
	if grep -q "$esc\[" "$TMP/tty3"; then fail "--color=never turns colour off on a terminal"; fi
	script -qec "'$SOLVE' -t 5 '$VIEW' -f tsv 2>/dev/null" /dev/null >"$TMP/tty4" </dev/null
	if grep -q "$esc\[" "$TMP/tty4"; then fail "tsv on a terminal is not coloured"; fi
else
	echo "note: no script(1) pseudo-terminal here; the terminal colour checks are skipped" >&2
fi

# --- PuzzleScript draws itself: the game's objects as symbols with their
# names and legend characters, its solutions played back, its colours in
# SVG and in the terminal (the script copied, so that it stays put)
DATA=${LEVELKIT_DATA:-$LEVELS/../../../shared/data}
if [ -f "$DATA/puzzlescript/games/microban.txt" ]; then
	cp "$DATA/puzzlescript/games/microban.txt" "$TMP/microban.txt"
	"$SOLVE" -t 2 "$TMP/microban.txt" -f html -o "$TMP/ps.html" 2>/dev/null
	expect 0 $? "solve microban.txt -f html exit status"
	# how many it solves depends on the machine's speed: the solutions of
	# one run, played back in the page of another command
	"$SOLVE" -t 2 "$TMP/microban.txt" >"$TMP/ps.txt" 2>/dev/null
	"$FILTER" 'level >= 1' "$TMP/ps.txt" -f html -o "$TMP/ps-verified.html" 2>/dev/null
	expect 0 $? "filter -f html on PuzzleScript records"
	expect "$(grep -c '^solution:' "$TMP/ps.txt")" "$(grep -c '"sol":"solved"' "$TMP/ps-verified.html")" \
		"PuzzleScript solutions that play to a win in the page"
	whole_page "$TMP/ps.html" "a PuzzleScript page"
	expect 10 "$(records "$TMP/ps.html")" "PuzzleScript levels in the page"
	expect 0 "$(grep -c 'does not draw itself' "$TMP/ps.html")" "PuzzleScript levels not drawn"
	for sym in '"ps.crate","Crate (\*)"' '"ps.player","Player (P)"' '"ps.target","Target (O)"'; do
		checks=$((checks + 1))
		grep -q "{\"y\":\[[0-9]*,$sym" "$TMP/ps.html" || fail "the PuzzleScript page defines no $sym"
	done
	checks=$((checks + 1))
	n=$(grep -c '^solution:' "$TMP/ps.txt")
	[ "$n" -ge 3 ] || fail "only $n microban levels solved in 2 s each"
	"$FILTER" 'level == 1' "$TMP/ps.txt" -f svg -o "$TMP/ps1.svg" 2>/dev/null
	expect 0 $? "filter -f svg on a PuzzleScript level"
	checks=$((checks + 1))
	grep -q '>Crate (\*)<' "$TMP/ps1.svg" || fail "the PuzzleScript picture has no legend entry for the crate"
	checks=$((checks + 1))
	grep -q 'fill="#eb8931"' "$TMP/ps1.svg" || fail "the PuzzleScript picture has no orange (arnecolors) crate"
	"$FILTER" 'level == 1' "$TMP/ps.txt" -f ansi >"$TMP/ps.ansi" 2>/dev/null
	checks=$((checks + 1))
	grep -q "$esc\[48;5;[0-9]*m$esc\[1;38;5;[0-9]*m#" "$TMP/ps.ansi" || fail "-f ansi does not colour a PuzzleScript grid"
	"$FILTER" 'level == 1' "$TMP/ps.txt" >"$TMP/ps1.txt" 2>/dev/null
	sed "s/$esc\[[0-9;]*m//g" "$TMP/ps.ansi" >"$TMP/ps.stripped"
	cmp -s "$TMP/ps.stripped" "$TMP/ps1.txt" || fail "a coloured PuzzleScript level without its escapes is the level"
else
	echo "note: no $DATA/puzzlescript/games/microban.txt (set LEVELKIT_DATA); PuzzleScript pictures are not tested" >&2
fi

# --- Ctrl-C: what was written is still a whole page (the pack forty times
# over: about forty seconds of searching, so the run is still going when
# the signal comes, however fast the machine)
for i in $(seq 40); do cat "$LEVELS/../../levels/boxoban-hard-sample.xsb"; echo; done >"$TMP/many.xsb"
"$SOLVE" -a bfs -m moves --plain -t 60 "$TMP/many.xsb" -f html -o "$TMP/cut.html" 2>/dev/null &
pid=$!
# the signal once the page has begun (a level is then in progress)
for _ in $(seq 600); do
	[ -s "$TMP/cut.html" ] && break
	sleep 0.1
done
kill -INT $pid
wait $pid
expect 130 $? "solve -f html after Ctrl-C"
whole_page "$TMP/cut.html" "a page cut by Ctrl-C"

# --- gen --suggest -o FILE.html: every look at the file finds a whole page
"$GEN" sokoban --from "$LEVELS/gen-from.xsb" --suggest 3 --time-limit 3 -o "$TMP/ideas.html" \
	2>/dev/null &
pid=$!
looks=0
live=0
while kill -0 $pid 2>/dev/null; do
	if cp "$TMP/ideas.html" "$TMP/look.html" 2>/dev/null; then
		looks=$((looks + 1))
		whole_page "$TMP/look.html" "the suggestions page while it is rewritten"
		grep -q '"refresh": 1.5' "$TMP/look.html" && live=$((live + 1))
	fi
	sleep 0.2
done
wait $pid
expect 0 $? "gen --suggest -o ideas.html exit status"
[ $looks -gt 3 ] || fail "the page was looked at only $looks times"
[ $live -gt 0 ] || fail "no page reloading itself was seen while the climb went on"
whole_page "$TMP/ideas.html" "the last suggestions page"
grep -q '"refresh": 0' "$TMP/ideas.html" || fail "the last page stops reloading"
expect 3 "$(records "$TMP/ideas.html")" "suggestions in the page"
grep -q 'finished after' "$TMP/ideas.html" || fail "the last page says the climb is over"
if ls "$TMP"/ideas.html.tmp* >/dev/null 2>&1; then fail "a temporary file was left"; fi

cli_end
