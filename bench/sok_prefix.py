#!/usr/bin/env python3
"""bench/sok_prefix.py - the position a Sokoban solution reaches after its
first K pushes, written as a level (XSB) on stdout: to find where along a
peer solver's solution (YASS's, Festival's) `solve -a any` stops finding
the way on.  Solving the positions after K pushes for a few K, bisecting,
names the last position levelkit solves quickly and the one before it that
it does not (docs/benchmarks.md, section h33k: Sasquatch II 33).

Usage: bench/sok_prefix.py LEVEL.xsb SOLUTION K
  LEVEL.xsb: its first level is read (comment lines ';' skipped);
  SOLUTION: a file holding the moves (LURD, pushes upper case), any other
  text around them ignored: the longest run of move letters is taken (so a
  YASS solution file or a levelkit record with `solution:` both serve);
  K: pushes to play (the walking moves after the K-th are not played).
"""
import re
import sys

MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def read_level(path):
    rows, started = [], False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith(";") or (not line.strip() and not started):
            continue
        if not line.strip():
            break
        if ":" in line and not started:
            continue   # a record field before the board
        started = True
        rows.append(line)
    return rows


def read_solution(path):
    """The longest run of move letters in the file (LURD, pushes upper case)."""
    text = open(path, encoding="utf-8").read()
    runs = re.findall(r"[lurdLURD]+", text.replace("\n", "").replace("\r", ""))
    return max(runs, key=len) if runs else ""


def read_position(rows, prog):
    """Walls, boxes and goals as sets of (row, column), and the player's square."""
    boxes, goals, walls, player = set(), set(), set(), None
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == "#":
                walls.add((r, c))
            if ch in "$*":
                boxes.add((r, c))
            if ch in ".*+":
                goals.add((r, c))
            if ch in "@+":
                player = (r, c)
    if player is None:
        sys.exit("%s: no player in the level" % prog)
    return walls, boxes, goals, player


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    rows = read_level(sys.argv[1])
    solution = read_solution(sys.argv[2])
    k = int(sys.argv[3])
    walls, boxes, goals, player = read_position(rows, "sok_prefix")
    pushes = 0
    for m in solution:
        if pushes >= k:
            break
        dr, dc = MOVES[m.lower()]
        nxt = (player[0] + dr, player[1] + dc)
        if nxt in walls:
            sys.exit("sok_prefix: move %d walks into a wall" % pushes)
        if nxt in boxes:
            to = (nxt[0] + dr, nxt[1] + dc)
            if to in walls or to in boxes:
                sys.exit("sok_prefix: push %d is blocked" % (pushes + 1))
            boxes.remove(nxt)
            boxes.add(to)
            pushes += 1
        player = nxt
    print("; after %d pushes" % pushes)
    for r, line in enumerate(rows):
        out = ""
        for c, ch in enumerate(line):
            sq = (r, c)
            if ch == "#":
                out += "#"
            elif sq in boxes:
                out += "*" if sq in goals else "$"
            elif sq == player:
                out += "+" if sq in goals else "@"
            else:
                out += "." if sq in goals else (" " if ch != "-" and ch != "_" else ch)
        print(out.rstrip())


if __name__ == "__main__":
    main()
