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
  offgoal   pushes that take a box off a goal
  revisit   pushes that leave a box on a square it stood on before in the
            solution (a box taken back the way it came, or round a loop)
  turns     pushes whose direction differs from the same box's last push

A level without a known solution gets none of them.  Pure Python, no packages.
"""
import csv
import os
import sys

from rating_board import read_levels

STEP = {'l': (0, -1), 'r': (0, 1), 'u': (-1, 0), 'd': (1, 0)}
NAMES = ['unpack', 'offgoal', 'revisit', 'turns']


def replay(rows, solution):
    boxes, goals, player = {}, set(), None
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c in '.*+':
                goals.add((y, x))
            if c in '$*':
                boxes[(y, x)] = len(boxes)
            if c in '@+':
                player = (y, x)
    start_on_goal = {b for p, b in boxes.items() if p in goals}
    seen = {b: {p} for p, b in boxes.items()}
    last = {}
    moved, offgoal, revisit, turns = set(), 0, 0, 0
    for ch in solution:
        d = STEP.get(ch.lower())
        if d is None or player is None:
            return None
        nxt = (player[0] + d[0], player[1] + d[1])
        if ch.isupper():
            b = boxes.pop(nxt, None)
            if b is None:
                return None
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
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    src, dst = argv[1], argv[2]
    data = argv[3] if len(argv) == 4 else os.environ.get('LEVELKIT_DATA', '../shared/data')
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith('.tsv'):
            continue
        pack = os.path.join(data, 'sokoban', name[:-4] + '.xsb')
        levels = read_levels(pack) if os.path.exists(pack) else None
        with open(os.path.join(src, name), newline='') as f:
            rows = list(csv.DictReader(f, delimiter='\t'))
        if not rows:
            continue
        fields = list(rows[0].keys()) + ['f-' + n for n in NAMES]
        with open(os.path.join(dst, name), 'w', newline='') as f:
            out = csv.DictWriter(f, fieldnames=fields, delimiter='\t')
            out.writeheader()
            for r in rows:
                i = int(r['record']) - 1
                s = r.get('solution') or ''
                if levels is not None and 0 <= i < len(levels) and s:
                    got = replay(levels[i], s)
                    for n, v in (got or {}).items():
                        r['f-' + n] = str(v)
                out.writerow(r)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
