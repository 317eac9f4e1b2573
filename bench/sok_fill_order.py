#!/usr/bin/env python3
"""bench/sok_fill_order.py - the order in which a Sokoban solution fills its
goals for good, to set beside the packing order levelkit's plan works out
(`park_play --order`, which prints it on stderr): on the hard levels a peer
solver (YASS) solves and levelkit does not, where does the plan's order
part from the solution's (docs/benchmarks.md, section h41r)?

Usage: bench/sok_fill_order.py LEVEL.xsb SOLUTION [FIRST-LAST]
  LEVEL.xsb, SOLUTION: as bench/sok_prefix.py reads them (the level's first
  record; the longest run of LURD letters of the solution file);
  FIRST-LAST: also list those pushes (1-based), each as the box's square
  before and after.
Prints the solution's pushes, then each goal as row,column of the level's
text (park_play's numbering) with the push after which a box stays on it
to the end (0: a box starts there and is never moved off).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sok_prefix import MOVES, read_level, read_position, read_solution  # noqa: E402


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1])
    rows = read_level(sys.argv[1])
    solution = read_solution(sys.argv[2])
    _, boxes, goals, player = read_position(rows, "sok_fill_order")
    # per goal: the push after which its box stays (None: empty now)
    since = {g: (0 if g in boxes else None) for g in goals}
    pushes = []
    for m in solution:
        dr, dc = MOVES[m.lower()]
        nxt = (player[0] + dr, player[1] + dc)
        if nxt in boxes:
            to = (nxt[0] + dr, nxt[1] + dc)
            boxes.remove(nxt)
            boxes.add(to)
            pushes.append((nxt, to))
            if nxt in goals:
                since[nxt] = None
            if to in goals:
                since[to] = len(pushes)
        player = nxt
    print("pushes %d" % len(pushes))
    for g, k in sorted(since.items(), key=lambda t: (t[1] is None, t[1] or 0)):
        print("%d,%d\t%s" % (g[0], g[1], "empty at the end" if k is None else k))
    if len(sys.argv) == 4:
        first, last = (int(x) for x in sys.argv[3].split("-"))
        for k in range(max(first, 1), min(last, len(pushes)) + 1):
            (a, b), (c, d) = pushes[k - 1]
            print("%d\t%d,%d->%d,%d" % (k, a, b, c, d))


if __name__ == "__main__":
    main()
