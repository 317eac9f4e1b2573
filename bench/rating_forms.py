#!/usr/bin/env python3
"""bench/rating_forms.py - other forms of the rating's model, held out, on the
same features and the same cross-validation as bench/rating_fit.py (issue 22;
docs/rating.md, "Model forms tried and left out").

Usage: bench/rating_forms.py DIR [--only SUBSTRING] [--seeds 1,2,3]
  DIR: the `rate --features -f tsv` tables bench/rating.sh keeps (REUSE=1).
Needs numpy (Debian's python3-numpy: run it with /usr/bin/python3 where the
default python3 has none); bench/rating_fit.py itself stays pure Python.

Each form is fitted as rating_fit.py fits the model: a pairwise logistic
ranking likelihood over pairs drawn within Boxoban (its three classes) and
Microban (its order), an L2 penalty on standardised columns, every weight
>= 0 (here by an active-set method: Lawson and Hanson's, on the logistic loss),
five folds within every pack, each level scored by the model fitted without
its fold.  Sasquatch I-III and the PuzzleScript games are never fitted on,
only scored (the mean rho over the PuzzleScript games is printed).  Every
figure is the mean over the fold seeds (--seeds), since one split moves
Microban's rho by about 0.008 and Boxoban's AUCs by about 0.003.

The forms:
  linear       the model in src/search/rating_model.c (seed 1 reproduces
               rating_fit.py's figures to the third decimal)
  pairs        more pairs, and the pairs weighted per question (item 2 of
               the brief: unfiltered-medium, medium-hard, unfiltered-hard
               pairs and Microban's order, in given shares)
  gam          a generalized additive model: each feature's contribution a
               monotone piecewise-linear function of its transformed value,
               knots at quantiles of the fitted data (ramps with weights >= 0)
  hinge        one knot (the median) on one feature, the rest linear
  inter        products of two features' (t(x) - least) / (most - least),
               weight >= 0, so the rating still rises with every feature
  ceiling      how far any form can go on Boxoban medium vs hard alone:
               unconstrained logistic regression (linear, quadratic) and
               boosted regression trees, fitted on medium vs hard only,
               five folds, on the model's 16 features and on all 31 rate writes
"""
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rating_fit as rf  # noqa: E402

KEYS = ['Boxoban unfiltered vs medium, AUC', 'Boxoban medium vs hard, AUC',
        "Microban's order, Spearman", "Sasquatch1's order, Spearman",
        "Sasquatch2's order, Spearman", "Sasquatch3's order, Spearman"]
ALL = rf.CORE + rf.GRAPH + ['bfs', 'moved', 'branching', 'bound', 'greedy-excess',
                            'expand-share', 'reachable', 'solutions', 'traces', 'width']


class Data:
    def __init__(self, d, feats):
        self.packs = rf.load(d)
        X, least, _ = rf.design(self.packs, feats)
        self.feats = feats
        self.X = np.array(X)
        self.rows = [r for _, _, rs in self.packs for r in rs]
        self.isfit = np.array([n in rf.FIT_ON for n, _, rs in self.packs for _ in rs])
        self.least = np.array([least[f] for f in feats])
        self.most = np.array([rf.MOST[f] for f in feats])
        self.index, at = [], 0
        for _, _, rs in self.packs:
            self.index.append(list(range(at, at + len(rs))))
            at += len(rs)

    def col(self, f):
        k = self.feats.index(f)
        return self.X[:, k], self.least[k], self.most[k]

    def basis(self, knots=None, inter=()):
        """Columns: each feature's t(x) - least, or its ramps between knots
        (knots: {feature: number of quantile knots}); then the products."""
        cols = []
        for f in self.feats:
            x, lo, hi = self.col(f)
            n = (knots or {}).get(f, 0)
            if not n:
                cols.append(x - lo)
                continue
            qs = np.unique(np.quantile(x[self.isfit], np.linspace(0, 1, n + 2)[1:-1]))
            edges = [lo] + [q for q in qs if lo < q < hi] + [hi]
            cols += [np.clip(x - a, 0, b - a) for a, b in zip(edges[:-1], edges[1:]) if b > a]
        for f, g in inter:
            (x, xl, xh), (y, yl, yh) = self.col(f), self.col(g)
            cols.append((x - xl) / (xh - xl) * (y - yl) / (yh - yl))
        return np.array(cols).T


def make_pairs(data, keep, rng, maxpairs, scheme, mb_share):
    """(easier, harder) pairs and their weights, as rating_fit.make_pairs;
    scheme None draws Boxoban's pairs from all three classes at once, else
    [((class, class), share), ...] draws each group apart."""
    pairs, wts = [], []
    for (name, kind, rs), idx in zip(data.packs, data.index):
        if name not in rf.FIT_ON:
            continue
        its = [(i, r['truth']) for i, r in zip(idx, rs) if keep(i)]
        if kind == 'class':
            for group, share in (scheme or [(None, 1.0)]):
                sub = its if group is None else [a for a in its if a[1] in group]
                ps = []
                for _ in range(maxpairs):
                    a, b = rng.choice(sub), rng.choice(sub)
                    if a[1] != b[1]:
                        ps.append((a[0], b[0]) if a[1] < b[1] else (b[0], a[0]))
                pairs += ps
                wts += [share * 1000.0 / len(ps)] * len(ps)
        else:
            allp = [(a[0], b[0]) if a[1] < b[1] else (b[0], a[0])
                    for x, a in enumerate(its) for b in its[x + 1:]]
            ps = rng.sample(allp, maxpairs) if len(allp) > maxpairs else allp
            pairs += ps
            wts += [mb_share * 1000.0 / len(ps)] * len(ps)
    return np.array(pairs), np.array(wts)


def newton(D, wts, l2, iters=40):
    w = np.zeros(D.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(D @ w, -30, 30)))
        g = D.T @ ((p - 1) * wts) + l2 * w
        H = (D * (p * (1 - p) * wts)[:, None]).T @ D + l2 * np.eye(D.shape[1])
        step = np.linalg.solve(H, g)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def fit(Z, pairs, wts, l2):
    """Weights >= 0 minimising the penalised pairwise logistic loss: an active
    set (drop the most negative, refit; free the fixed weight whose gradient
    most wants it up; until the KKT conditions hold)."""
    Dm = Z[pairs[:, 1]] - Z[pairs[:, 0]]
    m = Z.shape[1]
    free = list(range(m))
    w = np.zeros(m)
    for _ in range(4 * m + 4):
        wf = None
        while free:
            wf = newton(Dm[:, free], wts, l2)
            if wf.min() >= 0:
                break
            free.remove(free[int(np.argmin(wf))])
        w = np.zeros(m)
        if free:
            w[free] = wf
        p = 1 / (1 + np.exp(-np.clip(Dm @ w, -30, 30)))
        g = Dm.T @ ((p - 1) * wts) + l2 * w
        cand = [k for k in range(m) if k not in free and g[k] < -1e-6]
        if not cand:
            break
        free.append(min(cand, key=lambda k: g[k]))
    return w


def held_out(data, B, seed, folds=5, l2=1.0, maxpairs=3000, scheme=None, mb_share=1.0):
    """Each level's score by the model fitted without its fold (folds drawn as
    rating_fit.run draws them); columns centred and scaled over the fitted packs
    so that the folds' models agree on where 0 is."""
    Bf = B[data.isfit]
    sd = Bf.std(axis=0)
    sd[sd == 0] = 1.0
    Z = (B - Bf.mean(axis=0)) / sd
    rng, other = random.Random(seed), random.Random(seed + 1)
    fold = np.zeros(len(B), dtype=int)
    for (name, _, _), idx in zip(data.packs, data.index):
        order = idx[:]
        (rng if name in rf.FIT_ON else other).shuffle(order)
        for n, i in enumerate(order):
            fold[i] = n % folds
    held = np.zeros(len(B))
    for f in range(folds):
        pairs, wts = make_pairs(data, lambda i: fold[i] != f, rng, maxpairs, scheme, mb_share)
        held[fold == f] = Z[fold == f] @ fit(Z, pairs, wts, l2)
    return held


def figures(data, held):
    hm = {id(r): h for r, h in zip(data.rows, held)}
    return rf.figures(data.packs, lambda r: hm[id(r)] if rf.rated(r) else None)


def row(label, figs):
    m = {k: sum(f[k] for f in figs) / len(figs) for k in figs[0]}
    ps = [v for k, v in m.items() if k.startswith('PuzzleScript') and v == v]
    cells = ['%.3f' % m[k] if k in m else '-' for k in KEYS]
    return '| %s | %s | %.3f |' % (label, ' | '.join(cells), sum(ps) / len(ps) if ps else float('nan'))


# ------------------------------------------------------------ the ceiling

def mh_data(d, feats):
    data = Data(d, feats)
    X, y = [], []
    for (name, _, rs), idx in zip(data.packs, data.index):
        for i, r in zip(idx, rs):
            if name == 'boxoban' and r['truth'] in (1, 2):
                X.append(data.X[i])
                y.append(r['truth'] - 1)
    X = np.array(X)
    return (X - X.mean(0)) / (X.std(0) + 1e-12), np.array(y)


def logreg(X, y, l2):
    A = np.hstack([X, np.ones((len(X), 1))])
    pen = np.r_[np.ones(X.shape[1]), 0.0] * l2
    w = np.zeros(A.shape[1])
    for _ in range(40):
        p = 1 / (1 + np.exp(-np.clip(A @ w, -30, 30)))
        g = A.T @ (p - y) + pen * w
        H = (A * (p * (1 - p))[:, None]).T @ A + np.diag(pen + 1e-9)
        s = np.linalg.solve(H, g)
        w -= s
        if np.abs(s).max() < 1e-8:
            break
    return lambda Z: np.hstack([Z, np.ones((len(Z), 1))]) @ w


def quadratic(X):
    return np.hstack([X] + [X[:, [i]] * X[:, i:] for i in range(X.shape[1])])


def tree(X, r, depth, minleaf=20):
    """A regression tree on r, splits at 16 quantiles of each column."""
    def build(idx, d):
        v = r[idx].mean()
        if d == 0 or len(idx) < 2 * minleaf:
            return ('leaf', v)
        best = None
        for j in range(X.shape[1]):
            xs = X[idx, j]
            for q in np.unique(np.quantile(xs, np.linspace(0.05, 0.95, 16))):
                left = xs <= q
                nl = int(left.sum())
                nr = len(idx) - nl
                if nl < minleaf or nr < minleaf:
                    continue
                gain = r[idx][left].sum() ** 2 / nl + r[idx][~left].sum() ** 2 / nr
                if best is None or gain > best[0]:
                    best = (gain, j, q)
        if best is None:
            return ('leaf', v)
        _, j, q = best
        left = X[idx, j] <= q
        return ('split', j, q, build(idx[left], d - 1), build(idx[~left], d - 1))
    return build(np.arange(len(X)), depth)


def tree_predict(t, X):
    if t[0] == 'leaf':
        return np.full(len(X), t[1])
    _, j, q, a, b = t
    out = np.empty(len(X))
    left = X[:, j] <= q
    out[left] = tree_predict(a, X[left])
    out[~left] = tree_predict(b, X[~left])
    return out


def boosted(X, y, depth, n=150, lr=0.05):
    F = np.zeros(len(X))
    trees = []
    for _ in range(n):
        t = tree(X, y - 1 / (1 + np.exp(-F)), depth)
        trees.append(t)
        F += lr * tree_predict(t, X)
    return lambda Z: sum(lr * tree_predict(t, Z) for t in trees)


def ceiling_auc(X, y, maker, seed, folds=5):
    f = np.random.RandomState(seed).permutation(len(y)) % folds
    s = np.zeros(len(y))
    for k in range(folds):
        s[f == k] = maker(X[f != k], y[f != k])(X[f == k])
    return rf.auc(list(s[y == 0]), list(s[y == 1]))


# ------------------------------------------------------------ the forms

def forms():
    """(label, dict of Data.basis and held_out arguments)."""
    core = rf.CORE
    out = [('linear, the model (3000 pairs a pack)', {}),
           ('linear, 10,000 pairs a pack', {'maxpairs': 10000}),
           ('linear, pairs per question: um 1, mh 1', {'maxpairs': 10000,
            'scheme': [((0, 1), 1.0), ((1, 2), 1.0)]}),
           ('linear, pairs per question: um 0.5, mh 2, Microban 2', {'maxpairs': 10000,
            'scheme': [((0, 1), 0.5), ((1, 2), 2.0)], 'mb_share': 2.0}),
           ('linear, pairs per question: um 1, mh 1, uh 1', {'maxpairs': 10000,
            'scheme': [((0, 1), 1.0), ((1, 2), 1.0), ((0, 2), 1.0)]})]
    for n in (1, 2, 3):
        out.append(('GAM, %d knot%s per feature' % (n, 's' if n > 1 else ''),
                    {'knots': {f: n for f in core}}))
    out.append(('GAM, 2 knots per feature, L2 100', {'knots': {f: 2 for f in core},
                                                      'maxpairs': 10000, 'l2': 100.0}))
    for f in ('cells', 'effort', 'walker', 'scarcity'):
        out.append(('hinge at the median of %s' % f, {'knots': {f: 1}, 'maxpairs': 10000}))
    inter = [('objects', 'scarcity'), ('inputs', 'scarcity'), ('density', 'scarcity'),
             ('walker', 'scarcity'), ('effort', 'cells'), ('effort', 'juggle'), ('cells', 'density')]
    for p in inter:
        out.append(('interaction %s x %s' % p, {'inter': [p], 'maxpairs': 10000}))
    out.append(('all %d interactions above and 9 more' % len(inter), {'maxpairs': 10000, 'inter': inter + [
        ('objects', 'juggle'), ('cells', 'scarcity'), ('length', 'objects'), ('walker', 'objects'),
        ('uphill', 'objects'), ('effort', 'objects'), ('effort', 'scarcity'), ('astar', 'juggle'),
        ('slack', 'juggle')]}))
    return out


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith('-'):
        sys.stderr.write(__doc__)
        return 2
    d = args.pop(0)
    only, seeds = '', [1, 2, 3]
    while args:
        k = args.pop(0)
        if k == '--only' and args:
            only = args.pop(0)
        elif k == '--seeds' and args:
            seeds = [int(s) for s in args.pop(0).split(',')]
        else:
            sys.stderr.write('rating_forms: bad option %s\n' % k)
            return 2
    data = Data(d, rf.CORE)
    print('Held out, mean over fold seeds %s; Sasquatch and PuzzleScript scored, never fitted on.'
          % ','.join(map(str, seeds)))
    print()
    print('| form | unfiltered vs medium | medium vs hard | Microban rho | Sasquatch I | II | III '
          '| PuzzleScript mean rho |')
    print('|---|---|---|---|---|---|---|---|')
    for label, kw in forms():
        if only not in label:
            continue
        B = data.basis(kw.pop('knots', None), kw.pop('inter', ()))
        print(row(label, [figures(data, held_out(data, B, s, **kw)) for s in seeds]), flush=True)
    if only and only not in 'ceiling':
        return 0
    print()
    print('The ceiling: fitted on Boxoban medium vs hard alone, unconstrained, five folds, AUC')
    print()
    print('| model | the model\'s 16 features | all %d features rate writes |' % len(ALL))
    print('|---|---|---|')
    sets = [mh_data(d, rf.CORE), mh_data(d, ALL)]
    models = [('logistic, linear', lambda X, y: logreg(X, y, 30.0), False),
              ('logistic, quadratic (every product and square), L2 300',
               lambda X, y: logreg(X, y, 300.0), True),
              ('boosted trees, depth 1 (a GAM of steps), 150 x 0.05', lambda X, y: boosted(X, y, 1), False),
              ('boosted trees, depth 3, 150 x 0.05', lambda X, y: boosted(X, y, 3), False)]
    for label, maker, quad in models:
        cells = []
        for X, y in sets:
            Xq = quadratic(X) if quad else X
            v = [ceiling_auc(Xq, y, maker, s) for s in seeds]
            cells.append('%.3f' % (sum(v) / len(v)))
        print('| %s | %s |' % (label, ' | '.join(cells)), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
