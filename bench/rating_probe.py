#!/usr/bin/env python3
"""bench/rating_probe.py - try a Sokoban feature of the rating before building it in C.

Usage: bench/rating_probe.py DIR OUT [DATA]      (DATA: ../shared/data by default)

DIR holds bench/rating.sh's TSVs (rate --features -f tsv, with record and
solution); OUT gets the same TSVs with probe features appended as f-NAME
columns, computed here from each Sokoban level and its optimal solution
(PuzzleScript games get 'none', as a game without the feature).  Then

    bench/rating_fit.py OUT --features <the model's>,NAME

gives the held-out figures with the probe beside the model's features.  The
probes walk the solution push by push; each names something a person might
find hard (docs/rating.md, "Features tried and left out"):

  rev       pushes of a box opposite to a direction it was pushed before
  offgoal   pushes of a box off a goal (a box that must leave its goal)
  away      pushes that take the box further from its nearest goal (push
            distance on the empty board)
  mism      boxes that end on a goal other than the one nearest at the start
  bslack    pushes beyond each box's own push distance to its final goal
  jmean     mean over pushes of the boxes left part-way (juggle's mean)
  walk      player steps that push nothing
  drought   the longest run of pushes without a new most boxes on goals
            (Boxoban's reward); droughtm the same in moves
  hplat     the longest run of pushes without a new least sum of push
            distances to the nearest goals; hplatm the same in moves
  first     moves before a box first lands on a goal
  lines     box lines: runs of pushes of one box in one direction
            (Jarusek and Pelanek 2010)

Pure Python, no packages; only the packs of ../shared/data.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rating_fit as rf  # noqa: E402

DIRS = {'l': (0, -1), 'r': (0, 1), 'u': (-1, 0), 'd': (1, 0)}
PROBES = ['rev', 'offgoal', 'away', 'mism', 'bslack', 'jmean', 'walk', 'drought', 'droughtm',
          'hplat', 'hplatm', 'first', 'lines']


def levels(path):
    """The boards of an .xsb file, in order."""
    out, cur = [], []
    for line in open(path):
        line = line.rstrip('\r\n')
        if line and '#' in line and set(line) <= set('#@$.*+ -_'):
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def push_distances(walls, goals, height, width):
    """{goal: {cell: pushes to bring a box from cell to goal on the empty board}}."""
    out = {}
    for g in goals:
        d = {g: 0}
        q = collections.deque([g])
        while q:
            p = q.popleft()
            for dy, dx in DIRS.values():
                b, pl = (p[0] + dy, p[1] + dx), (p[0] + 2 * dy, p[1] + 2 * dx)
                if b in walls or pl in walls or b in d:
                    continue
                if not (0 <= pl[0] < height and 0 <= pl[1] < width):
                    continue
                d[b] = d[p] + 1
                q.append(b)
        out[g] = d
    return out


def parse(board):
    """walls, goals (sets of (y, x)), boxes ({(y, x): number}) and the player."""
    walls, goals, boxes, player = set(), set(), {}, None
    for y, row in enumerate(board):
        for x, c in enumerate(row):
            if c == '#':
                walls.add((y, x))
            if c in '.*+':
                goals.add((y, x))
            if c in '$*':
                boxes[(y, x)] = len(boxes)
            if c in '@+':
                player = (y, x)
    return walls, goals, boxes, player


def probe(board, solution):
    walls, goals, boxes, player = parse(board)
    start = {b: p for p, b in boxes.items()}
    dist = push_distances(walls, goals, len(board), max(len(r) for r in board))
    far = 10 ** 6

    def nearest(p):
        return min(dist[g].get(p, far) for g in goals)

    seq, seen_dirs, pos = [], set(), dict(start)
    rev = offgoal = away = walk = 0
    on = sum(1 for p in boxes if p in goals)
    best_on, since, since_m, drought, drought_m = on, 0, 0, 0, 0
    hsum = sum(nearest(p) for p in boxes)
    best_h, hsince, hsince_m, hplat, hplat_m = hsum, 0, 0, 0, 0
    first, moves = None, 0
    lines, last_push = 0, None
    for ch in solution:
        moves += 1
        since_m += 1
        hsince_m += 1
        dy, dx = DIRS[ch.lower()]
        nxt = (player[0] + dy, player[1] + dx)
        if nxt in boxes:
            b = boxes.pop(nxt)
            lines += last_push != (b, dy, dx)
            last_push = (b, dy, dx)
            to = (nxt[0] + dy, nxt[1] + dx)
            boxes[to] = b
            pos[b] = to
            seq.append(b)
            rev += (b, -dy, -dx) in seen_dirs
            seen_dirs.add((b, dy, dx))
            away += nearest(to) > nearest(nxt)
            offgoal += nxt in goals
            on += (to in goals) - (nxt in goals)
            hsum += nearest(to) - nearest(nxt)
            since += 1
            hsince += 1
            if on > best_on:
                best_on, since, since_m = on, 0, 0
                if first is None:
                    first = moves
            if hsum < best_h:
                best_h, hsince, hsince_m = hsum, 0, 0
            drought, drought_m = max(drought, since), max(drought_m, since_m)
            hplat, hplat_m = max(hplat, hsince), max(hplat_m, hsince_m)
        else:
            walk += 1
        player = nxt
    firstm = first if first is not None else moves
    first, last = {}, {}
    for i, b in enumerate(seq):
        first.setdefault(b, i)
        last[b] = i
    n = len(seq)
    open_ = [sum(1 for b in first if b != seq[i] and first[b] < i < last[b]) for i in range(n)]
    count = collections.Counter(seq)
    mism = sum(1 for b, p in start.items()
               if nearest(p) < dist[pos[b]].get(p, far))
    bslack = sum(count[b] - dist[pos[b]].get(start[b], 0) for b in start)
    return {'rev': rev, 'offgoal': offgoal, 'away': away, 'mism': mism, 'bslack': bslack,
            'jmean': sum(open_) / n if n else 0.0, 'walk': walk, 'drought': drought,
            'droughtm': drought_m, 'hplat': hplat, 'hplatm': hplat_m, 'first': firstm,
            'lines': lines}


def probe_main(argv, doc, probe, names, with_solution=True, skip=(), alone=False):
    """The probes' command line, DIR OUT [DATA]: copy DIR's tables to OUT with
    an f-NAME column per name in names, probe(board[, solution])'s values
    ('none' for a pack that is not a Sokoban pack of DATA); with alone, print
    each feature alone on the three questions (a level without a value ranks
    lowest)."""
    if len(argv) < 3:
        sys.stderr.write(doc)
        return 2
    src, dst = argv[1], argv[2]
    data = argv[3] if len(argv) > 3 else os.environ.get('LEVELKIT_DATA', '../shared/data')

    def add(name, rows):
        xsb = os.path.join(data, 'sokoban', name + '.xsb')
        boards = levels(xsb) if os.path.exists(xsb) else None
        for r in rows:
            got = None
            if boards and with_solution:
                s = (r.get('solution') or '').strip()
                got = probe(boards[int(r['record']) - 1], s) if s else None
            elif boards:
                got = probe(boards[int(r['record']) - 1])
            for k in names:
                r['f-' + k] = ('%g' % got[k]) if got else ('none' if not boards else '')
    rf.add_columns(src, dst, add, skip=skip)
    if not alone:
        return 0
    rf.print_alone(dst, names)
    return 0


def main(argv):
    return probe_main(argv, __doc__, probe, PROBES)

if __name__ == '__main__':
    sys.exit(main(sys.argv))
