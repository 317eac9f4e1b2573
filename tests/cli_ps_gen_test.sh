#!/bin/sh
# cli_ps_gen_test.sh - gen puzzlescript end to end, as issue 13 writes it:
# the transformer on a level of a PuzzleScript script (--from --level
# --rules --suggest -o), the suggestions verified by solve --verify and
# written back by filter -f puzzlescript as a LEVELS section that, pasted
# into the script, plays the same; random rooms of --script FILE
# (reproducible, verified); a rules file in the game's names; the errors
# (no game, two games, a name the game lacks, a script
# edited after the levels were made).
#
# usage: cli_ps_gen_test.sh GEN SOLVE FILTER DATA_DIR
set -eu

GEN=$1
SOLVE=$2
FILTER=$3
GAMES=$4/puzzlescript/games

if [ ! -f "$GAMES/microban.txt" ]; then
	echo "skipping: $GAMES/microban.txt not found"
	exit 77
fi

. "$(dirname "$0")/cli_lib.sh"
cli_start psgen

# expect_grep FILE PATTERN WHAT
expect_grep() {
	checks=$((checks + 1))
	grep -q -e "$2" "$1" || fail "$3: no line matches '$2' in $(basename "$1")"
}

# The script in the temporary directory, given by a relative path as a
# designer would; the records name it by its absolute path.
cp "$GAMES/microban.txt" "$TMP/microban.txt"
cd "$TMP"
HERE=$(pwd -P)

# --- the transformer on level 3, up to four suggestions ---------------------
# (how many the climb finds depends on the machine's speed: MixedAim's
# adaptive time limit starts at 20 ms a candidate, which a sanitizer build
# exceeds; a fast machine finds four)
rc=0
"$GEN" puzzlescript --from microban.txt --level 3 --rules walls --suggest 4 --candidates 300 \
	--seed 1 -o ideas.txt 2>err || rc=$?
expect_rc 0 "$rc" "gen --from --level 3 --rules walls --suggest 4"
ideas=$(grep -c '^rank: ' ideas.txt)
checks=$((checks + 1))
[ "$ideas" -ge 2 ] && [ "$ideas" -le 4 ] || fail "$ideas suggestions, not 2 to 4"
expect_count "$ideas" ideas.txt "^script: $HERE/microban.txt\$" "the script field, its absolute path"
hash=$("$FILTER" "level == 3" microban.txt 2>/dev/null | sed -n 's/^script-hash: //p' | head -n 1)
expect_count "$ideas" ideas.txt "^script-hash: $hash\$" "the script's hash, as the commands read it"
expect_count "$ideas" ideas.txt '^from: microban.txt record 3' "from level 3"

rc=0
"$SOLVE" --verify ideas.txt >verified.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve --verify ideas.txt"
expect_count "$ideas" verified.txt '^verified: yes' "every suggestion verified"

rc=0
"$FILTER" 'moves >= 1' ideas.txt -f puzzlescript >levels.txt 2>err || rc=$?
expect_rc 0 "$rc" "filter 'moves >= 1' ideas.txt -f puzzlescript"
expect_grep levels.txt '^LEVELS$' "a LEVELS section"
expect_count 0 levels.txt '^script' "no fields in the section"

# Pasted into the script in place of its levels, the section plays the same.
sed '/^LEVELS$/,$d' microban.txt | sed '$d' >pasted.txt
cat levels.txt >>pasted.txt
rc=0
"$SOLVE" pasted.txt >pasted-solved.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve on the pasted section"
sed -n 's/^moves: //p' ideas.txt >want-moves
sed -n 's/^moves: //p' pasted-solved.txt >got-moves
checks=$((checks + 1))
cmp -s want-moves got-moves || fail "the pasted levels' moves differ from the suggestions'"

# --- a rules file in the game's own names (a layer's name, a legend character)
printf '(open the level up)\nchoose 2 [#] -> []\nchoose 1 [Crate | no Layer3] -> [ | Crate]\n' >open.rules
rc=0
"$GEN" puzzlescript --from microban.txt --level 3 --rules open.rules --param steps=3 -n 1 \
	--max-tries 50 -o opened.txt 2>err || rc=$?
expect_rc 0 "$rc" "gen --rules FILE over the game's names"
expect_count 1 opened.txt '^solvable: yes' "a level from the rules file"
rc=0
"$SOLVE" --verify opened.txt >opened-verified.txt 2>err || rc=$?
expect_count 1 opened-verified.txt '^verified: yes' "the rules file's level verified"
printf '[Floor] -> []\n' >bad.rules
rc=0
"$GEN" puzzlescript --from microban.txt --rules bad.rules -n 1 2>err || rc=$?
expect_rc 2 "$rc" "a name the game does not have"
expect_grep err "bad.rules:1: unknown object 'Floor'" "the message names the file, line and name"

# --- random rooms of --script ----------------------------------------------
rc=0
"$GEN" puzzlescript -n 2 --seed 1 --script microban.txt -o rooms.txt 2>err || rc=$?
expect_rc 0 "$rc" "gen puzzlescript -n 2 --seed 1 --script microban.txt"
expect_count 2 rooms.txt '^solvable: yes' "two rooms"
expect_count 2 rooms.txt "^script: $HERE/microban.txt\$" "rooms name the script by its absolute path"
rc=0
"$GEN" puzzlescript -n 2 --seed 1 --script microban.txt -o rooms2.txt 2>err || rc=$?
checks=$((checks + 1))
cmp -s rooms.txt rooms2.txt || fail "the same seed gives other rooms"
rc=0
"$SOLVE" --verify rooms.txt >rooms-verified.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve --verify rooms.txt"
expect_count 2 rooms-verified.txt '^verified: yes' "every room verified"
for m in $(sed -n 's/^moves: //p' rooms.txt); do
	checks=$((checks + 1))
	[ "$m" -ge 8 ] || fail "a room of $m moves (the default --min-moves is 8)"
done
# tidy rooms, as gen sokoban's: every empty cell ('.', the background) is
# reachable by the player without crossing a wall, and no row or column
# but the outer ones is all wall
"$GEN" puzzlescript -n 8 --seed 2 --script microban.txt -o tidy.txt 2>err
checks=$((checks + 1))
python3 - tidy.txt >tidy.out <<'PY' || fail "untidy rooms: $(cat tidy.out)"
import re, sys
bad = []
for block in open(sys.argv[1]).read().split("\n\n"):
    rows = [l for l in block.split("\n") if l and not l.startswith(";") and not re.match(r"^[a-z-]+:", l)]
    if not rows:
        continue
    w, h = max(map(len, rows)), len(rows)
    cell = lambda x, y: rows[y][x] if x < len(rows[y]) else "#"
    todo = [(x, y) for y in range(h) for x in range(w) if cell(x, y) == "P"]
    seen = set(todo)
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and cell(nx, ny) != "#":
                seen.add((nx, ny))
                todo.append((nx, ny))
    pockets = [(x, y) for y in range(h) for x in range(w) if cell(x, y) == "." and (x, y) not in seen]
    walls = [y for y in range(1, h - 1) if set(rows[y]) == {"#"}] + \
            [x for x in range(1, w - 1) if all(cell(x, y) == "#" for y in range(h))]
    if pockets or walls:
        bad.append(f"{rows}: pockets {pockets}, inner all-wall rows/columns {walls}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

# --- errors -------------------------------------------------------------------
rc=0
"$GEN" puzzlescript -n 1 2>err || rc=$?
expect_rc 2 "$rc" "gen puzzlescript without a game"
expect_grep err '--script FILE' "the message names --script"
rc=0
"$GEN" puzzlescript --from microban.txt --script microban.txt -n 1 2>err || rc=$?
expect_rc 2 "$rc" "--script with --from"
rc=0
"$GEN" puzzlescript --from microban.txt --rules nosuch -n 1 2>err || rc=$?
expect_rc 2 "$rc" "an unknown preset"
expect_grep err 'walls, crates, targets, pair, mix' "the presets listed"

# --- where the records find their script ------------------------------------
# from another directory, and through a pipe (the absolute path); the
# first four levels, which solve in milliseconds (even under sanitizers)
mkdir -p elsewhere/deeper
"$FILTER" 'level <= 4' microban.txt | "$SOLVE" -t 60 -o elsewhere/pack.txt 2>err
solved=$(grep -c '^solution: ' elsewhere/pack.txt)
checks=$((checks + 1))
[ "$solved" = 4 ] || fail "$solved of the first four levels solved"
rc=0
(cd elsewhere/deeper && "$SOLVE" --verify ../pack.txt >../verified.txt 2>../err) || rc=$?
expect_rc 0 "$rc" "solve --verify of the pack from another directory"
expect_count "$solved" elsewhere/verified.txt '^verified: yes' "every solution verified from there"
rc=0
(cd elsewhere/deeper && "$SOLVE" --verify <../pack.txt >../verified.txt 2>../err) || rc=$?
expect_rc 0 "$rc" "solve --verify of the pack on stdin from another directory"
# a folder holding the pack and its script, moved: found beside the pack
mkdir -p folder
cp microban.txt folder/game.txt
"$FILTER" 'level <= 4' folder/game.txt | "$SOLVE" -t 60 -o folder/pack.txt 2>err
mv folder moved
rc=0
"$SOLVE" --verify moved/pack.txt >moved.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve --verify of a pack moved with its script"
expect_count "$solved" moved.txt '^verified: yes' "every solution verified after the move"
expect_count 0 err 'changed' "nothing said about an unchanged script"
rc=0
rm moved/game.txt
"$SOLVE" --verify moved/pack.txt >/dev/null 2>err || rc=$?
expect_rc 2 "$rc" "a script that is nowhere"
expect_grep err "cannot read the script $HERE/folder/game.txt: .*moved/game.txt" "the message says where it looked"

# a record naming its script by a relative path (by hand, or an older
# levelkit) is found beside its file, and what solve writes of it names
# the script by its absolute path
mkdir -p handdir
"$FILTER" 'level == 1' microban.txt | sed 's|^script: .*|script: ../microban.txt|' >handdir/hand.txt
rc=0
"$SOLVE" -t 5 handdir/hand.txt >elsewhere/hand-solved.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve of a record with a relative script path"
expect_count 1 elsewhere/hand-solved.txt "^script: $HERE/microban.txt\$" "the record written names it absolutely"
rc=0
(cd elsewhere/deeper && "$SOLVE" --verify ../hand-solved.txt >../verified.txt 2>../err) || rc=$?
expect_rc 0 "$rc" "its solution verified from another directory"
# filter writes such a record as solve does (a pack it writes elsewhere
# must work there), and leaves one whose script is nowhere as it is
rc=0
"$FILTER" 'level == 1' handdir/hand.txt -o elsewhere/hand-kept.txt 2>err || rc=$?
expect_rc 0 "$rc" "filter of a record with a relative script path"
expect_count 1 elsewhere/hand-kept.txt "^script: $HERE/microban.txt\$" "the record filter writes names it absolutely"
sed 's|^script: .*|script: nowhere/game.txt|' handdir/hand.txt >handdir/lost.txt
rc=0
"$FILTER" 'level == 1' handdir/lost.txt >lost-kept.txt 2>err || rc=$?
expect_rc 0 "$rc" "filter of a record whose script is nowhere"
expect_count 2 lost-kept.txt "^script: nowhere/game.txt\$" "that record (and the closing message) passes as it is"
expect_count 0 err '' "and nothing is said"

# --- a script edited after the levels were read: played as it is now, the
# change said once, and each level that is no longer the script's named
sed 's/^title Microban/title Microban, edited/' microban.txt >edited.txt && mv edited.txt microban.txt
rc=0
"$SOLVE" --verify -j 2 elsewhere/pack.txt >verified.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve --verify after the script's title changed"
expect_count "$solved" verified.txt '^verified: yes' "every solution still verified"
expect_count 1 err 'has changed since these levels were read' "the change said once"
expect_count 1 err '' "and nothing else"
# level 2 edited (a wall added), level 1 removed: level 1 is no longer
# there, level 2 is not what it was, level 3 is level 2 now
python3 - <<'PY'
s = open("microban.txt").read()
a, b = s.index("message level 1 of 10"), s.index("message level 2 of 10")
s = s[:a] + s[b:]
s = s.replace("######\n#....#\n#.#P.#", "######\n#...##\n#.#P.#", 1)
open("microban.txt", "w").write(s)
PY
rc=0
"$SOLVE" --verify elsewhere/pack.txt >verified.txt 2>err || rc=$?
expect_rc 0 "$rc" "solve --verify after levels were edited"
expect_count 1 err 'has changed since these levels were read' "the change said once again"
expect_count 2 err 'is no longer in the script' "the two levels no longer in it"
expect_count 1 err 'pack.txt:[0-9]*: this level is level 2 of the script .* now, not level 3' "level 3 moved to 2"
expect_count 5 err '' "one line for the script, one per level not where it was"
"$SOLVE" --verify ideas.txt >/dev/null 2>err || rc=$?
expect_count 0 err 'this level is' "gen's levels are no maps of the script: nothing said of them"

cli_end
