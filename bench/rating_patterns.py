#!/usr/bin/env python3
"""bench/rating_patterns.py - is there anything in the board's local look that
tells Boxoban's medium levels from its hard ones? (issue 22; docs/rating.md,
"Features tried and left out", the sixth round)

Usage: bench/rating_patterns.py DIR [K] [MIN]
  DIR: the `rate --features -f tsv` tables bench/rating.sh keeps; K: the
  window, 2 or 3 (default 2); MIN: keep the windows seen at least MIN times
  over the two packs (default 30).
Needs numpy (Debian's python3-numpy: run it with /usr/bin/python3 where the
default python3 has none); bench/rating_fit.py itself stays pure Python.

A trained network reads the board through small windows (convolutions).  So
each level is described by how often each K x K window of cell kinds (wall,
floor, goal, box, box on goal; the player's cell counts as floor or goal)
occurs, up to the board's 8 symmetries, as log(1 + count).  An unconstrained
logistic regression (L2 on standardised columns, five folds, fold seeds 1, 2,
3) is fitted on medium against hard alone, on the rating model's 16 features,
on the windows, and on both; the held-out AUCs say whether the windows carry
what the features lack.  A diagnostic, not a feature: such a count is not
explainable, and is never offered to the rating.
"""
import collections
import math
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rating_fit as rf  # noqa: E402
from rating_probe import levels  # noqa: E402

PACKS = ['boxoban_medium_valid_0-999', 'boxoban_hard_0-999']
KIND = {'#': 'W', '.': 'G', '+': 'G', '$': 'B', '*': 'D'}


def windows(board, k):
    """{canonical K x K window: count} of a board, all-wall windows left out."""
    h, w = len(board), max(len(r) for r in board)
    g = [[KIND.get(c, 'F') for c in r.ljust(w, '#')] for r in board]
    out = collections.Counter()
    for y in range(h - k + 1):
        for x in range(w - k + 1):
            m = [[g[y + i][x + j] for j in range(k)] for i in range(k)]
            seen = []
            for _ in range(4):
                m = [list(r) for r in zip(*m[::-1])]
                seen.append(tuple(q for r in m for q in r))
                seen.append(tuple(q for r in m for q in r[::-1]))
            p = min(seen)
            if any(q != 'W' for q in p):
                out[p] += 1
    return out


def logreg(x, y, l2):
    """Newton's method on the L2-penalised logistic loss (the intercept free)."""
    a = np.c_[x, np.ones(len(x))]
    w = np.zeros(a.shape[1])
    pen = l2 * np.eye(a.shape[1])
    pen[-1, -1] = 0
    for _ in range(25):
        p = 1 / (1 + np.exp(-(a @ w)))
        hess = a.T @ (a * (p * (1 - p))[:, None]) + pen
        w -= np.linalg.solve(hess, a.T @ (p - y) + pen @ w)
    return w


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    d = argv[1]
    k = int(argv[2]) if len(argv) > 2 else 2
    least = int(argv[3]) if len(argv) > 3 else 30
    data = os.environ.get('LEVELKIT_DATA', '../shared/data')
    rows, wins, y = [], [], []
    for label, name in enumerate(PACKS):
        boards = levels(os.path.join(data, 'sokoban', name + '.xsb'))
        for r in rf.read(os.path.join(d, name + '.tsv')):
            rows.append(r)
            wins.append(windows(boards[int(r['record']) - 1], k))
            y.append(label)
    seen = collections.Counter(p for c in wins for p in c)
    keys = sorted(p for p, n in seen.items() if n >= least)
    feats = []
    for r in rows:
        v = [rf.num(r.get('f-' + f)) or 0.0 for f in rf.CORE]
        feats.append([x if f in rf.RAW else math.log1p(max(x, 0.0)) for f, x in zip(rf.CORE, v)])
    model = np.array(feats)
    win = np.array([[math.log1p(c.get(p, 0)) for p in keys] for c in wins])
    y = np.array(y, float)
    for label, x in (('the model\'s 16 features', model),
                     ('%d %dx%d windows' % (len(keys), k, k), win),
                     ('both', np.c_[model, win])):
        x = (x - x.mean(0)) / (x.std(0) + 1e-9)
        got = []
        for seed in (1, 2, 3):
            order = list(range(len(y)))
            random.Random(seed).shuffle(order)
            fold = np.zeros(len(y), int)
            for i, j in enumerate(order):
                fold[j] = i % 5
            score = np.zeros(len(y))
            for f in range(5):
                w = logreg(x[fold != f], y[fold != f], 100.0)
                score[fold == f] = x[fold == f] @ w[:-1] + w[-1]
            got.append(rf.auc(list(score[y == 0]), list(score[y == 1])))
        print('%s\tmedium vs hard AUC, fold seeds 1, 2, 3: %s\tmean %.3f' % (
            label, ' '.join('%.3f' % a for a in got), sum(got) / 3))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
