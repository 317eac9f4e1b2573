#!/usr/bin/env python3
"""bench/rating_goalorder.py - probe: the order the goals must be filled in
(packing order), and how many ways the boxes can be matched to the goals.

Usage: bench/rating_goalorder.py DIR OUT [DATA]   (DATA: ../shared/data by default)

DIR holds bench/rating.sh's TSVs; OUT gets them with these features appended as
f-NAME columns, computed from each Sokoban level's board alone (no solution, no
search of the level's states):

  order     packing-order constraints: ordered pairs of goals (a, b) such that a
            box standing on a leaves no box's start cell from which a lone box
            can still be pushed onto b (while without it some start can): b
            must be filled before a.  The classic goal-room idea: a person must
            see the order, an agent that fills the nearest goal first fails.
  orderfrac order over the n (n - 1) ordered pairs
  chain     the longest chain of such constraints (goals in a forced sequence)
  lostreach the mean share of the cells from which a lone box reaches goal b
            that a box on goal a takes away, over ordered pairs (a, b)
  blocked   ordered pairs of boxes (i, j) such that box i, which alone reaches
            some goal, reaches none while box j stands on its start cell: j
            must move out of i's way first (prerequisites among the boxes,
            read off the board, not off a solution)
  matchings log10 of the perfect matchings of boxes to goals in which every box
            can reach its goal alone (the assignments a person may consider)
  assign    log10(n!) - matchings: how few assignments are left (forced)

"Can reach" is read on the board with the walls (and the one box standing on a)
only: a box is pushed from cell to cell, the player may be anywhere it can walk
to around that box (a reverse search of pulls from the goal over states (box,
the player's region)); a box start counts as reaching a goal when some region
of the player around it does, so the player's own start is not taken into
account.  Other boxes are ignored.  Then

    bench/rating_fit.py OUT --features <the model's>,NAME

gives the held-out figures with the probe beside the model's features.
Pure Python, no packages.
"""
import collections
import itertools
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rating_probe as rp  # noqa: E402

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
PROBES = ['order', 'orderfrac', 'chain', 'blocked', 'lostreach', 'matchings', 'assign']


def parse(board):
    walls, goals, boxes, player = set(), [], [], None
    h, w = len(board), max(len(r) for r in board)
    for y, row in enumerate(board):
        for x, c in enumerate(row.ljust(w)):
            if c == '#':
                walls.add((y, x))
            if c in '.*+':
                goals.append((y, x))
            if c in '$*':
                boxes.append((y, x))
            if c in '@+':
                player = (y, x)
    return walls, goals, boxes, player, h, w


def region(blocked, start, h, w):
    """The cells the player walks to from start around blocked: a frozenset."""
    seen = {start}
    q = [start]
    while q:
        p = q.pop()
        for dy, dx in STEPS:
            n = (p[0] + dy, p[1] + dx)
            if n in seen or n in blocked or not (0 <= n[0] < h and 0 <= n[1] < w):
                continue
            seen.add(n)
            q.append(n)
    return frozenset(seen)


def reach(goal, walls, h, w):
    """Cells from which a lone box can be pushed onto goal (walls only)."""
    if goal in walls:
        return set()
    key = {}           # (box, region's least cell) -> region
    q = collections.deque()
    for dy, dx in STEPS:
        p = (goal[0] + dy, goal[1] + dx)
        if p in walls or not (0 <= p[0] < h and 0 <= p[1] < w):
            continue
        r = region(walls | {goal}, p, h, w)
        k = (goal, min(r))
        if k not in key:
            key[k] = r
            q.append(k)
    cells = {goal}
    while q:
        box, least = q.popleft()
        r = key[(box, least)]
        for dy, dx in STEPS:
            # the player on the box's side at box - d pulls it to box - d,
            # stepping to box - 2d: the reverse of a push in direction d
            pl = (box[0] - dy, box[1] - dx)
            to = (box[0] - 2 * dy, box[1] - 2 * dx)
            if pl not in r or to in walls or not (0 <= to[0] < h and 0 <= to[1] < w):
                continue
            nr = region(walls | {pl}, to, h, w)
            k = (pl, min(nr))
            if k not in key:
                key[k] = nr
                cells.add(pl)
                q.append(k)
    return cells


def permanent(m):
    """Perfect matchings of a 0/1 matrix (Ryser's formula)."""
    n = len(m)
    if n == 0:
        return 1
    total = 0
    for s in range(1, 1 << n):
        prod = 1
        for row in m:
            prod *= sum(row[j] for j in range(n) if s >> j & 1)
            if not prod:
                break
        total += (-1) ** (n - bin(s).count('1')) * prod
    return abs(total)


def probe(board):
    walls, goals, boxes, _, h, w = parse(board)
    n = len(goals)
    if n == 0 or n != len(boxes) or n > 16:
        return None
    starts = set(boxes)
    base = {g: reach(g, walls, h, w) for g in goals}
    order, lost, pairs = 0, 0.0, 0
    after = collections.defaultdict(set)    # a -> goals that must be filled before a
    for a, b in itertools.permutations(goals, 2):
        if not base[b]:
            continue
        r = reach(b, walls | {a}, h, w)
        pairs += 1
        lost += 1 - len(r) / len(base[b])
        if base[b] & starts and not (r & starts):
            order += 1
            after[a].add(b)
    memo = {}

    def depth(g, stack=()):
        if g in memo:
            return memo[g]
        if g in stack:              # a cycle: the goals cannot all be filled so
            return 0
        d = 1 + max((depth(b, stack + (g,)) for b in after[g]), default=0)
        memo[g] = d
        return d
    blocked = 0
    for i, j in itertools.permutations(range(n), 2):
        mine = [g for g in goals if boxes[i] in base[g]]
        if mine and not any(boxes[i] in reach(g, walls | {boxes[j]}, h, w) for g in mine):
            blocked += 1
    chain = max(depth(g) for g in goals) - 1 if order else 0
    m = [[1 if s in base[g] else 0 for g in goals] for s in boxes]
    perm = permanent(m)
    logn = math.log10(math.factorial(n))
    matchings = math.log10(perm) if perm else 0.0
    return {'order': order, 'orderfrac': order / (n * (n - 1)) if n > 1 else 0.0,
            'chain': chain, 'blocked': blocked, 'lostreach': lost / pairs if pairs else 0.0,
            'matchings': matchings, 'assign': logn - matchings}


def main(argv):
    return rp.probe_main(argv, __doc__, probe, PROBES, with_solution=False, skip=('speed.tsv',), alone=True)

if __name__ == '__main__':
    sys.exit(main(sys.argv))
