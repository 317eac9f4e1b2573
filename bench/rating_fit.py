#!/usr/bin/env python3
"""bench/rating_fit.py - fit the rating's weights (src/search/rating_model.c)
and report held-out figures (docs/rating.md, docs/benchmarks.md).

Usage: bench/rating_fit.py DIR [--write src/search/rating_model.c] [--markdown OUT]
                           [--features a,b,...] [--folds 5] [--seed 1]
                           [--fit-on boxoban,microban]

--fit-on names the packs the weights are fitted on (boxoban, microban; boxoban-mh:
Boxoban's medium and hard only): the default is the model's; the others ask how far
a linear model of the features can go on one question alone (still held out).

DIR holds `rate --features -f tsv` of every pack of ../shared/data (bench/rating.sh
makes them): boxoban_{unfiltered_test,medium_valid,hard}_0-999.tsv, microban.tsv,
sasquatch1-3.tsv, ps_GAME.tsv for each PuzzleScript demo game.

What the external truth is: DeepMind split Boxoban by whether trained agents failed
(unfiltered < medium < hard); David W. Skinner ordered Microban and Sasquatch I-III
from easy to hard; each PuzzleScript demo's designer ordered its levels.  The weights
are fitted on Boxoban and Microban only; Sasquatch (whose levels mostly exceed the
bounds) and the PuzzleScript games are scored by the models of the folds, as packs
and games they never saw.  The model is
rating = floor(OFFSET + SCALE * sum_i w_i * (t(min(x_i, most_i)) - t(least_i))), t = log(1 + x)
for counts and x for shares, floor(x) = log(1 + e^x), every w_i >= 0; the weights maximise a pairwise ranking likelihood (a
logistic of the score difference of two levels the truth orders) with an L2 penalty.
Features a game lacks count at their median over the packs fitted on.

Honesty: the figures printed are held out: each level is scored by a model fitted
with its own fold left out (FOLDS folds within every pack), never by one that saw it.
Pure Python, no packages.
"""
import csv
import math
import os
import random
import re
import sys

# the feature transforms, as rating_model.c's LK_T_RAW / LK_T_LOG
RAW = {'spread', 'density', 'narrow', 'expand-share', 'dead-share', 'greedy-trap', 'walker', 'scarcity'}
# the candidate features of the model: those rate computes for every rating
# (rating.h, before LK_F_FIRST_GRAPH); the graph features are tried beside them
CORE = ['length', 'inputs', 'slack', 'uphill', 'against', 'effort', 'spread', 'detour', 'astar',
        'cells', 'objects', 'density', 'narrow', 'sessions', 'juggle', 'walker', 'scarcity']
# the packs the weights are fitted on; the PuzzleScript games are only scored
# (games the model never saw: how far it carries beyond Sokoban)
# Sasquatch I-III are scored, not fitted on: under the bounds a fit can afford
# most of their levels are undecided, so their features are bounds, not values
FIT_ON = ('boxoban', 'microban')
# the Boxoban classes the pairs are drawn from (--fit-on boxoban-mh: medium, hard)
CLASSES = (0, 1, 2)
GRAPH = ['dead-share', 'traps', 'detours', 'commits', 'greedy-trap']
# scarcity (of shortest solutions) is read from their count up to the order of
# independent moves (f-traces, rating_traces.c): counted as paths, independent
# objects multiplied it by their interleavings and the rating fell along
# test_rating.c's family of the same room with more boxes (docs/rating.md)
# expand-share is written for every rating but left out of the model: held out, it
# raised unfiltered-vs-medium by 0.022 and helped neither medium-vs-hard (-0.004) nor
# Microban's rho (+0.001) (docs/rating.md, "Features tried and left out")
ENUM = {n: 'LK_F_' + n.upper().replace('-', '_')
        for n in CORE + GRAPH + ['bfs', 'moved', 'branching', 'bound', 'greedy-excess', 'expand-share']}

PACKS = [('boxoban', 'class', ['boxoban_unfiltered_test_0-999', 'boxoban_medium_valid_0-999',
                               'boxoban_hard_0-999']),
         ('microban', 'order', ['microban']),
         ('sasquatch1', 'order', ['sasquatch1']),
         ('sasquatch2', 'order', ['sasquatch2']),
         ('sasquatch3', 'order', ['sasquatch3'])]
# each pack's share of the likelihood
WEIGHT = {'boxoban': 1.0, 'microban': 1.0, 'sasquatch1': 0.3, 'sasquatch2': 0.3,
          'sasquatch3': 0.3}


def num(s):
    """A field's number: '>= 12' and '<= 12' read as 12 (bounds), else None."""
    if s is None:
        return None
    s = s.strip()
    if not s or s == 'unknown':
        return None
    s = re.sub(r'^(>=|<=)\s*', '', s)
    try:
        return float(s)
    except ValueError:
        return None


def add_columns(src, dst, add, skip=()):
    """Copy every table NAME.tsv of directory src (but those in skip) to dst,
    after add(name, rows) has set the new columns of its rows (the probes
    bench/rating_probe.py and bench/rating_agent.py join their features so)."""
    os.makedirs(dst, exist_ok=True)
    for fn in sorted(os.listdir(src)):
        if not fn.endswith('.tsv') or fn in skip:
            continue
        with open(os.path.join(src, fn)) as f:
            rows = list(csv.DictReader(f, delimiter='\t'))
        if not rows:
            continue
        add(fn[:-4], rows)
        with open(os.path.join(dst, fn), 'w') as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), delimiter='\t')
            w.writeheader()
            w.writerows(rows)


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    for r in rows:
        scarcity_from_solutions(r)
    return rows


def scarcity_from_solutions(r):
    """A table written before rate counted the shortest solutions up to the
    order of independent moves (f-traces): its f-scarcity was read from
    f-solutions, which counts every interleaving.  There are never more
    classes than solutions (and at least one), so that scarcity is a lower
    bound of the one rate writes now: read as one ('>= x'; exact for a single
    solution), as lk_rating_scarcity (6 - log10 of the count, at least 0)."""
    if 'f-traces' in r or 'f-solutions' not in r:
        return
    s = (r['f-solutions'] or '').strip()
    v = num(s)
    if s == 'none':
        r['f-scarcity'] = 'none'
    elif v is None or s.startswith('>=') or s.startswith('<='):
        r['f-scarcity'] = ''
    elif v <= 1:
        r['f-scarcity'] = '6'
    else:
        r['f-scarcity'] = '>= %.4g' % max(0.0, 6.0 - math.log10(v))


def load(d):
    """[(pack, kind, rows with a 'truth')], kind 'class' or 'order'."""
    out = []
    for name, kind, files in PACKS:
        rows = []
        for k, fn in enumerate(files):
            p = os.path.join(d, fn + '.tsv')
            if not os.path.exists(p):
                rows = None
                break
            for i, r in enumerate(read(p)):
                r['truth'] = k if kind == 'class' else i
                rows.append(r)
        if rows:
            out.append((name, kind, rows))
    for fn in sorted(os.listdir(d)):
        if fn.startswith('ps_') and fn.endswith('.tsv'):
            rows = read(os.path.join(d, fn))
            for i, r in enumerate(rows):
                r['truth'] = i
            if len(rows) >= 4:
                out.append(('ps:' + fn[3:-4], 'order', rows))
    return out


def rated(r):
    """Whether rate wrote a rating (exact or a bound) for the row."""
    return num(r.get('rating')) is not None


def field(r, f):
    """A row's feature field, as written."""
    return (r.get('f-' + f) or '').strip()


# the greatest value of each feature over the packs fitted on (transformed):
# a level beyond it counts at it, as rating_model.c's `most` (the fit never
# saw what more of it means: Combination's boards are far more crowded than
# any Sokoban level's)
MOST = {}


def feature(r, f, least, typical):
    """A row's transformed feature as rating_model.c takes it: a value or a lower
    bound as it is (at most MOST), 'none' (the game has none) the typical value,
    an upper bound or nothing (a search gave up) the least."""
    s = field(r, f)
    if s == 'none':
        return typical[f]
    if not s or s.startswith('<='):
        return least[f]
    return min(tf(f, num(s)), MOST.get(f, float('inf')))


def tf(name, v):
    return v if name in RAW else math.log1p(max(v, 0.0))


# ------------------------------------------------------------------ metrics

def ranks(x):
    idx = sorted(range(len(x)), key=lambda i: x[i])
    r = [0.0] * len(x)
    i = 0
    while i < len(x):
        j = i
        while j < len(x) and x[idx[j]] == x[idx[i]]:
            j += 1
        for k in range(i, j):
            r[idx[k]] = (i + j - 1) / 2.0 + 1
        i = j
    return r


def spearman(x, y):
    if len(x) < 3:
        return float('nan')
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float('nan')


def auc(neg, pos):
    """P(a positive scores above a negative), ties counted half."""
    if not neg or not pos:
        return float('nan')
    r = ranks(neg + pos)
    rp = sum(r[len(neg):])
    return (rp - len(pos) * (len(pos) + 1) / 2.0) / (len(pos) * len(neg))


# The packs a probe prints each feature alone on (print_alone): Boxoban's
# three classes and Microban, in the order of the three questions.
ALONE_PACKS = ['boxoban_unfiltered_test_0-999', 'boxoban_medium_valid_0-999',
               'boxoban_hard_0-999', 'microban']


def print_alone(dst, names, field=lambda n: 'f-' + n):
    """Prints each named feature alone on the three questions (unfiltered vs
    medium AUC, medium vs hard AUC, Microban's order), read from the tables in
    dst: the probes' shared last step.  A level without a value ranks lowest;
    '-' where a pack's table is missing."""
    packs = {p: read(os.path.join(dst, p + '.tsv')) for p in ALONE_PACKS
             if os.path.exists(os.path.join(dst, p + '.tsv'))}
    print('feature\tunf-vs-med AUC\tmed-vs-hard AUC\tMicroban rho')
    for n in names:
        u, m, h, mb = ([v if v is not None else -1e9
                        for v in (num(r.get(field(n))) for r in packs.get(p, []))]
                       for p in ALONE_PACKS)
        print('%s\t%s\t%s\t%s' % (
            n, '%.3f' % auc(u, m) if u and m else '-', '%.3f' % auc(m, h) if m and h else '-',
            '%.3f' % spearman(mb, list(range(len(mb)))) if mb else '-'))


def figures(packs, score):
    """{question: value} of a score function over the packs' rows (None: no value;
    such levels rank lowest in AUC and Spearman, as an unknown would)."""
    out = {}
    for name, kind, rows in packs:
        s = [score(r) for r in rows]
        s = [v if v is not None else -1e300 for v in s]
        if kind == 'class':
            by = {}
            for v, r in zip(s, rows):
                by.setdefault(r['truth'], []).append(v)
            out['Boxoban unfiltered vs medium, AUC'] = auc(by.get(0, []), by.get(1, []))
            out['Boxoban medium vs hard, AUC'] = auc(by.get(1, []), by.get(2, []))
        else:
            label = name[3:] if name.startswith('ps:') else name
            title = ("%s's order, Spearman" % label.capitalize()) if not name.startswith('ps:') \
                else 'PuzzleScript %s, Spearman' % label
            out[title] = spearman(s, [r['truth'] for r in rows])
    return out


# ------------------------------------------------------------------ fitting

def solve_linear(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        if abs(M[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] if abs(M[i][i]) > 1e-12 else 0.0 for i in range(n)]


def newton(D, wts, active, l2, iters=15):
    """Pairwise logistic fit over difference vectors D (harder minus easier)."""
    m = len(active)
    w = [0.0] * m
    for _ in range(iters):
        g = [l2 * x for x in w]
        H = [[l2 if i == j else 0.0 for j in range(m)] for i in range(m)]
        for d, wt in zip(D, wts):
            dd = [d[k] for k in active]
            z = sum(a * b for a, b in zip(w, dd))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            e, s = (p - 1.0) * wt, p * (1.0 - p) * wt
            for i in range(m):
                g[i] += e * dd[i]
                si = s * dd[i]
                Hi = H[i]
                for j in range(i, m):
                    Hi[j] += si * dd[j]
        for i in range(m):
            for j in range(i):
                H[i][j] = H[j][i]
        step = solve_linear(H, g)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(x) for x in step) < 1e-7:
            break
    return w


def fit(X, pairs, wts, l2):
    """Non-negative weights: fit, drop the features that came out negative, refit."""
    m = len(X[0])
    D = [[X[j][k] - X[i][k] for k in range(m)] for i, j in pairs]
    active = list(range(m))
    while active:
        w = newton(D, wts, active, l2)
        neg = [a for a, x in zip(active, w) if x < 0]
        if not neg:
            full = [0.0] * m
            for a, x in zip(active, w):
                full[a] = x
            return full
        worst = min(zip(w, active))[1]
        active.remove(worst)
    return [0.0] * m


def make_pairs(packs, index, keep, rng, maxpairs):
    """(easier, harder) row indices among those keep() admits, and their weights."""
    pairs, wts = [], []
    for (name, kind, rows), idx in zip(packs, index):
        if name not in FIT_ON:
            continue
        its = [(i, r['truth']) for i, r in zip(idx, rows)
               if keep(i) and (kind != 'class' or r['truth'] in CLASSES)]
        ps = []
        if kind == 'class':
            for _ in range(maxpairs):
                a, b = rng.choice(its), rng.choice(its)
                if a[1] != b[1]:
                    ps.append((a[0], b[0]) if a[1] < b[1] else (b[0], a[0]))
        else:
            allp = [(a[0], b[0]) if a[1] < b[1] else (b[0], a[0])
                    for x, a in enumerate(its) for b in its[x + 1:]]
            ps = rng.sample(allp, maxpairs) if len(allp) > maxpairs else allp
        if not ps:
            continue
        share = WEIGHT[name]
        pairs += ps
        wts += [share * 1000.0 / len(ps)] * len(ps)
    return pairs, wts


def design(packs, feats):
    """The rows' transformed features, with what a row lacks filled in: the
    median (a game without it) or the least (a bound)."""
    rows = [r for _, _, rs in packs for r in rs]
    fitted = [r for name, _, rs in packs if name in FIT_ON for r in rs]
    vals = {f: [tf(f, num(field(r, f))) for r in fitted
                if num(field(r, f)) is not None and not field(r, f).startswith('<=')]
            for f in feats}
    least = {f: min(v) if v else 0.0 for f, v in vals.items()}
    typical = {f: sorted(v)[len(v) // 2] if v else 0.0 for f, v in vals.items()}
    MOST.clear()
    MOST.update({f: max(v) if v else 0.0 for f, v in vals.items()})
    X = [[feature(r, f, least, typical) for f in feats] for r in rows]
    return X, least, typical


def run(d, feats, folds, seed, l2, maxpairs):
    packs = load(d)
    X, least, typical = design(packs, feats)
    m = len(feats)
    # standardised over the packs fitted on only: the games scored as unseen
    # must not move the weights (not even through the penalty's scale)
    F = [x for x, fit_row in zip(X, [name in FIT_ON for name, _, rs in packs for _ in rs])
         if fit_row]
    mu = [sum(x[k] for x in F) / len(F) for k in range(m)]
    sd = [math.sqrt(sum((x[k] - mu[k]) ** 2 for x in F) / len(F)) or 1.0 for k in range(m)]
    Z = [[(x[k] - mu[k]) / sd[k] for k in range(m)] for x in X]
    index, at = [], 0
    for _, _, rows in packs:
        index.append(list(range(at, at + len(rows))))
        at += len(rows)
    rng = random.Random(seed)
    other = random.Random(seed + 1)   # the packs not fitted on: no effect on the weights
    fold = [0] * len(X)
    for (name, _, _), idx in zip(packs, index):
        order = idx[:]
        (rng if name in FIT_ON else other).shuffle(order)
        for n, i in enumerate(order):
            fold[i] = n % folds
    held = [0.0] * len(X)
    for f in range(folds):
        pairs, wts = make_pairs(packs, index, lambda i: fold[i] != f, rng, maxpairs)
        w = fit(Z, pairs, wts, l2)
        for i in range(len(X)):
            if fold[i] == f:
                held[i] = sum(a * b for a, b in zip(w, Z[i]))
    pairs, wts = make_pairs(packs, index, lambda i: True, rng, maxpairs)
    w = fit(Z, pairs, wts, l2)
    raw = [a / s for a, s in zip(w, sd)]   # per unit of t(x)
    return packs, held, raw, least, typical


# The scale's two anchors (docs/rating.md): Microban's first ten levels, the
# author's introduction, rate 2.0 on average (the middle of `easy`), and the
# level the model puts in the middle of Microban rates 4.0 (the middle of `medium`).
ANCHOR_FIRST, ANCHOR_MEDIAN = 2.0, 4.0


def calibrate(packs, raw, least, typical, feats):
    """OFFSET and SCALE of rating = OFFSET + SCALE * score."""
    scores = []
    for name, kind, rows in packs:
        if name == 'microban':
            scores = [sum(w * (feature(r, f, least, typical) - least[f])
                          for f, w in zip(feats, raw)) for r in rows]
    if len(scores) < 20:
        return 0.0, 1.0
    first = sum(scores[:10]) / 10.0
    middle = sorted(scores)[len(scores) // 2]
    scale = (ANCHOR_MEDIAN - ANCHOR_FIRST) / (middle - first)
    return ANCHOR_FIRST - scale * first, scale


def c_block(feats, raw, least, typical, offset, scale):
    lines = ['/* BEGIN FITTED (bench/rating_fit.py) */', 'static const struct term terms[] = {']
    for f, w in zip(feats, raw):
        inv = lambda y: y if f in RAW else math.expm1(y)
        lines.append('\t{ %s, %s, %.6g, %.6g, %.6g, %.6g },' % (
            ENUM[f], 'LK_T_RAW' if f in RAW else 'LK_T_LOG', max(w, 0.0), inv(least[f]),
            inv(typical[f]), inv(MOST[f])))
    lines.append('};')
    lines.append('static const double OFFSET = %.6g, SCALE = %.6g;' % (offset, scale))
    lines.append('/* END FITTED */')
    return '\n'.join(lines)


def write_model(path, block):
    with open(path) as f:
        text = f.read()
    a = text.index('/* BEGIN FITTED')
    b = text.index('/* END FITTED */') + len('/* END FITTED */')
    with open(path, 'w') as f:
        f.write(text[:a] + block + text[b:])


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith('-'):
        sys.stderr.write(__doc__)
        return 2
    d = args.pop(0)
    opts = {'--write': None, '--markdown': None, '--features': ','.join(CORE), '--folds': '5',
            '--seed': '1', '--l2': '1.0', '--pairs': '3000', '--fit-on': None}
    while args:
        k = args.pop(0)
        if k not in opts or not args:
            sys.stderr.write('rating_fit: bad option %s\n' % k)
            return 2
        opts[k] = args.pop(0)
    feats = opts['--features'].split(',')
    if opts['--fit-on']:
        global FIT_ON, CLASSES
        names = opts['--fit-on'].split(',')
        if 'boxoban-mh' in names:
            CLASSES = (1, 2)
        FIT_ON = tuple('boxoban' if n == 'boxoban-mh' else n for n in names)
    packs, held, raw, least, typical = run(d, feats, int(opts['--folds']), int(opts['--seed']),
                                           float(opts['--l2']), int(opts['--pairs']))
    offset, scale = calibrate(packs, raw, least, typical, feats)
    heldmap = {}
    at = 0
    for _, _, rows in packs:
        for r in rows:
            heldmap[id(r)] = held[at]
            at += 1
    cols = [('rating (held out)', lambda r: heldmap[id(r)] if rated(r) else None),
            ('difficulty', lambda r: num(r.get('difficulty'))),
            ('difficulty-min', lambda r: num(r.get('difficulty-min'))),
            ('pushes', lambda r: num(r.get('pushes'))),
            ('moves', lambda r: num(r.get('moves')))]
    table = [(c, figures(packs, fn)) for c, fn in cols]
    questions = list(table[0][1].keys())
    out = ['| question | ' + ' | '.join(c for c, _ in table) + ' |',
           '|---|' + '---|' * len(table)]
    for q in questions:
        cells = []
        for _, fig in table:
            v = fig.get(q)
            cells.append('-' if v is None or v != v else '%.3f' % v)
        out.append('| %s | %s |' % (q, ' | '.join(cells)))
    out.append('')
    out.append('Weights (the rating\'s units per unit of log(1 + x), of x for shares; '
               'OFFSET %.3f):' % offset)
    out.append('')
    out.append('| feature | weight | least | typical | most |')
    out.append('|---|---|---|---|---|')
    for f, w in zip(feats, raw):
        inv = (lambda y: y) if f in RAW else math.expm1
        out.append('| %s | %.3f | %.4g | %.4g | %.4g |' % (
            f, max(w, 0.0) * scale, inv(least[f]), inv(typical[f]), inv(MOST[f])))
    text = '\n'.join(out) + '\n'
    sys.stdout.write(text)
    if opts['--markdown']:
        with open(opts['--markdown'], 'w') as f:
            f.write(text)
    if opts['--write']:
        write_model(opts['--write'], c_block(feats, raw, least, typical, offset, scale))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
