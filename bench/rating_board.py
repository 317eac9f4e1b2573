#!/usr/bin/env python3
"""bench/rating_board.py - probe: how the board looks (issue 22, docs/rating.md
"Features tried and left out", ninth round).

Usage: bench/rating_board.py DIR OUT [DATA]

DIR holds bench/rating.sh's TSVs; each record is matched to its level in
DATA/sokoban/PACK.xsb by its place (DATA: LEVELKIT_DATA or ../shared/data).
OUT gets the TSVs with these features appended as f-NAME columns, read off the
board alone (walls, floor, boxes, goals, player; outside the walls is wall):

  bz        the board's rows (cell kinds) compressed by raw deflate, level 9,
            in bytes: a board built of one repeated motif (Microban 36: five
            boxes in a row under five goals) compresses well, and a person
            reads it at once
  bzshare   bz over the floor cells
  wzshare   the same of the walls alone (wall or not), over the floor cells
  lzwall    the walls' LZ78 phrases over the floor cells
  asym      1 - the best share of floor cells that one of the seven
            mirrorings and turns of the board maps onto floor of the same
            kind (box, goal, plain): 0 for a symmetric board
  inv       100 / floor cells: the size alone, a control for the shares
  perim     the floor cells' sides that face a wall, per floor cell: how
            corridor-like the board is (rate's `narrow`, which this probe
            led to, counts the same on Sokoban's floor)
  rowvar    distinct rows and columns of walls over rows and columns
  corners   floor cells with walls on two sides at a right angle, per cell
  gspread   the goals' mean distance from each other (steps, walls ignored)
  bgdist    the boxes' mean distance to their nearest goal (likewise)
  gblock    the share of goals with no goal beside them
  doors     the floor's articulation cells (a cell whose wall would cut the
            floor in two: doorways), per floor cell

Pure Python, no packages.
"""
import csv
import os
import sys
import zlib

from rating_repeat import lz78   # the same LZ78 phrase count as the eighth round's


def read_levels(path):
    levels, cur = [], []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n').rstrip()
        if not line or line.lstrip().startswith(';'):
            if cur and not line:
                levels.append(cur)
                cur = []
            continue
        cur.append(line)
    if cur:
        levels.append(cur)
    return levels


def fill_outside(rows):
    """Rows padded to a rectangle, the squares the player cannot reach
    from inside made walls (a flood from the border through non-walls)."""
    w = max(len(r) for r in rows)
    g = [list(r.ljust(w)) for r in rows]
    h = len(g)
    stack = [(y, x) for y in range(h) for x in range(w)
             if (y in (0, h - 1) or x in (0, w - 1)) and g[y][x] != '#']
    while stack:
        y, x = stack.pop()
        if not (0 <= y < h and 0 <= x < w) or g[y][x] in '#X':
            continue
        g[y][x] = 'X'
        stack += [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)]
    return [''.join('#' if c == 'X' else c for c in r) for r in g]


def kind(c):
    return {'$': 'b', '*': 'B', '.': 'g', '+': 'g', '@': 'f', ' ': 'f', '-': 'f', '_': 'f'}.get(c, '#')


def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)   # raw: no header, no checksum
    return len(c.compress(data) + c.flush())


NAMES = ['bz', 'bzshare', 'wzshare', 'lzwall', 'asym', 'inv', 'perim', 'rowvar', 'corners',
         'gspread', 'bgdist', 'gblock', 'doors']
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def doorways(fs):
    """The articulation cells of the floor (Tarjan's low points, iterative)."""
    index, low, cut, t = {}, {}, set(), 0
    for root in fs:
        if root in index:
            continue
        index[root] = low[root] = t
        t += 1
        stack, children = [(root, None, iter(STEPS))], 0
        while stack:
            u, parent, it = stack[-1]
            step = next(it, None)
            if step is None:
                stack.pop()
                if parent is not None:
                    low[parent] = min(low[parent], low[u])
                    if stack[-1][1] is not None and low[u] >= index[parent]:
                        cut.add(parent)
                continue
            v = (u[0] + step[0], u[1] + step[1])
            if v not in fs or v == parent:
                continue
            if v in index:
                low[u] = min(low[u], index[v])
            else:
                index[v] = low[v] = t
                t += 1
                if u == root:
                    children += 1
                stack.append((v, u, iter(STEPS)))
        if children > 1:
            cut.add(root)
    return cut


def board_features(rows):
    g = fill_outside(rows)
    h, w = len(g), len(g[0])
    k = [[kind(c) for c in r] for r in g]
    floor = [(y, x) for y in range(h) for x in range(w) if k[y][x] != '#']
    fs = set(floor)
    n = len(floor)
    walls = ['' .join('#' if c == '#' else ' ' for c in r) for r in k]
    bz = deflate('\n'.join(''.join(r) for r in k).encode())
    best = 0.0
    maps = [lambda y, x: (y, w - 1 - x), lambda y, x: (h - 1 - y, x),
            lambda y, x: (h - 1 - y, w - 1 - x)]
    if h == w:
        maps += [lambda y, x: (x, y), lambda y, x: (w - 1 - x, h - 1 - y),
                 lambda y, x: (x, h - 1 - y), lambda y, x: (w - 1 - x, y)]
    for m in maps:
        same = 0
        for y, x in floor:
            yy, xx = m(y, x)
            if 0 <= yy < h and 0 <= xx < w and k[yy][xx] == k[y][x]:
                same += 1
        best = max(best, same / n)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    perim = sum(1 for y, x in floor for dy, dx in steps if (y + dy, x + dx) not in fs)
    corners = sum(1 for y, x in floor for i in range(4)
                  if (y + steps[i][0], x + steps[i][1]) not in fs
                  and (y + steps[(i + 1) % 4][0], x + steps[(i + 1) % 4][1]) not in fs)
    cols = [''.join(walls[y][x] for y in range(h)) for x in range(w)]
    goals = [(y, x) for y in range(h) for x in range(w) if g[y][x] in '.*+']
    boxes = [(y, x) for y in range(h) for x in range(w) if g[y][x] in '$*']
    gs = set(goals)
    dist = lambda a, b: abs(a[0] - b[0]) + abs(a[1] - b[1])
    extra = {
        'gspread': sum(dist(a, b) for a in goals for b in goals) / max(1, len(goals) ** 2),
        'bgdist': sum(min(dist(b, q) for q in goals) for b in boxes) / max(1, len(boxes)),
        'gblock': 1 - sum(1 for q in goals if any((q[0] + dy, q[1] + dx) in gs
                                                for dy, dx in STEPS)) / max(1, len(goals)),
        'doors': len(doorways(fs)) / n,
    }
    return dict(extra, **{'bz': bz, 'bzshare': bz / n, 'wzshare': deflate('\n'.join(walls).encode()) / n,
            'lzwall': lz78('\n'.join(walls)) / n, 'asym': 1.0 - best, 'inv': 100.0 / n,
            'perim': perim / n, 'rowvar': (len(set(walls)) + len(set(cols))) / (h + w),
            'corners': corners / n})


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
                if levels is not None and 0 <= i < len(levels):
                    for n, v in board_features(levels[i]).items():
                        r['f-' + n] = '%.4f' % v
                out.writerow(r)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
