#!/usr/bin/env python3
"""bench/rating_space.py - probe: how much the boxes wall the player in along
the optimal solution (issue 22, docs/rating.md "Features tried and left out").

Usage: bench/rating_space.py DIR OUT [DATA]   (DATA: ../shared/data by default)

DIR holds bench/rating.sh's TSVs (with record and solution); OUT gets them with
these features appended as f-NAME columns, computed from each Sokoban level and
its optimal solution, after every push of it:

  cutoff    the mean share of the free floor (floor without boxes) the player
            cannot walk to: parts of the room the boxes have closed off
  splits    the share of the solution's states in which the boxes cut the
            free floor into two regions or more
  cut0      cutoff at the start only
  pinch     the least share of the free floor the player can walk to, over
            the solution (the tightest the boxes ever hold the player)

Cramped rooms where the pushes keep closing parts of the room off are one thing
the model's features (cells, density, the state graph's width) see only in
part.  Pure Python, no packages.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rating_goalorder import parse, region  # noqa: E402
import rating_probe as rp  # noqa: E402
from rating_probe import DIRS  # noqa: E402

PROBES = ['cutoff', 'splits', 'cut0', 'pinch']


def space(floor, walls, boxes, player, h, w):
    """(share of the free floor the player cannot reach, regions of the free floor)."""
    free = floor - boxes
    mine = region(boxes | walls, player, h, w) & free
    rest, regions = free - mine, 1
    while rest:
        rest -= region(boxes | walls, next(iter(rest)), h, w)
        regions += 1
    return 1 - len(mine) / len(free), regions


def probe(board, solution):
    walls, _, boxes, player, h, w = parse(board)
    floor = region(walls, player, h, w)
    boxes = set(boxes)
    cut, regions = space(floor, walls, boxes, player, h, w)
    cut0, cuts, splits, pinch, n = cut, [], 0, 1 - cut, 0
    for ch in solution:
        dy, dx = DIRS[ch.lower()]
        nxt = (player[0] + dy, player[1] + dx)
        if nxt in boxes:
            boxes.remove(nxt)
            boxes.add((nxt[0] + dy, nxt[1] + dx))
            cut, regions = space(floor, walls, boxes, nxt, h, w)
            cuts.append(cut)
            splits += regions > 1
            pinch = min(pinch, 1 - cut)
            n += 1
        player = nxt
    return {'cutoff': sum(cuts) / n if n else 0.0, 'splits': splits / n if n else 0.0,
            'cut0': cut0, 'pinch': 1 - pinch}


def main(argv):
    return rp.probe_main(argv, __doc__, probe, PROBES, skip=('speed.tsv',), alone=True)

if __name__ == '__main__':
    sys.exit(main(sys.argv))
