#!/usr/bin/env python3
"""bench/rating_start.py - probe: what the optimal solution undoes (issue 22,
docs/rating.md "Features tried and left out", tenth round).

Usage: bench/rating_start.py DIR OUT [DATA]

DIR holds bench/rating.sh's TSVs (with their solution column); each record is
matched to its level in DATA/sokoban/PACK.xsb by its place (DATA: LEVELKIT_DATA
or ../shared/data).  OUT gets the TSVs with these features appended as f-NAME
columns, read by replaying the solution (LURD, pushes in capitals) on the board:

  unpack    boxes that start on a goal and that the solution pushes: the
            level's start looks half done, and the solution must first undo
            it (Microban 56 and 51, small levels the author put mid-pack)
  offgoal   pushes that take a box off a goal to a square that is none
            (rating_probe.py's offgoal, the first round's, counts every push
            off a goal, onto another goal too)
  revisit   pushes that leave a box on a square it stood on before in the
            solution (a box taken back the way it came, or round a loop)
  turns     pushes whose direction differs from the same box's last push

A level without a known solution gets none of them.  Pure Python, no packages.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rating_probe import DIRS, parse, probe_main  # noqa: E402

NAMES = ['unpack', 'offgoal', 'revisit', 'turns']


def replay(rows, solution):
    _, goals, boxes, player = parse(rows)
    start_on_goal = {b for p, b in boxes.items() if p in goals}
    seen = {b: {p} for p, b in boxes.items()}
    last = {}
    moved, offgoal, revisit, turns = set(), 0, 0, 0
    for ch in solution:
        d = DIRS[ch.lower()]
        nxt = (player[0] + d[0], player[1] + d[1])
        if ch.isupper():
            b = boxes.pop(nxt)
            to = (nxt[0] + d[0], nxt[1] + d[1])
            boxes[to] = b
            moved.add(b)
            offgoal += nxt in goals and to not in goals
            revisit += to in seen[b]
            seen[b].add(to)
            turns += b in last and last[b] != d
            last[b] = d
        player = nxt
    return {'unpack': len(moved & start_on_goal), 'offgoal': offgoal, 'revisit': revisit,
            'turns': turns}


def main(argv):
    return probe_main(argv, __doc__, replay, NAMES)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
