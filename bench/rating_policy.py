#!/usr/bin/env python3
"""bench/rating_policy.py - probe of issue 22 (docs/rating.md, "Features tried
and left out", the seventh round): does a small *learned* policy fail on the
levels DeepMind's trained agents failed on?

Usage: bench/rating_policy.py DIR OUT [--hidden H] [--episodes N] [--rl ITERS]
                              [--seed S] [--iters I] [--l2 X] [--lr X] [--packs a,b]
  (defaults: linear, 32 episodes, no REINFORCE, seed 1, 600 Adam steps of
  imitation, L2 1e-4, step 0.05, or 0.01 with a hidden layer)
  DIR: bench/rating.sh's `rate --features -f tsv` tables of Boxoban's three
  packs and Microban (their `solution` column is each level's optimal
  solution in pushes, written as moves); OUT gets them with the policy's
  features appended as f-NAME columns; then
      bench/rating_fit.py OUT --features <the model's>,NAME --seed S
  gives the held-out figures beside the model.  Printed here: each feature
  alone (AUC on Boxoban unfiltered vs medium and medium vs hard, Spearman rho
  on Microban's order; the raw value, no fit).
Needs numpy (Debian's python3-numpy: run it with /usr/bin/python3 where the
default python3 has none); bench/rating_fit.py itself stays pure Python.

Boxoban's medium and hard sets were split, as issue 22 takes it, by whether
trained model-free agents failed.  Six rounds of features that model search,
solution shape, the state graph and exact simpler agents stall near 0.69 on
medium vs hard; none modelled a *learned* policy.  This one is small and
trained WITHOUT the medium/hard labels or Microban's order:

  - a move's features, seen from the player and turned so the move points up
    (one weight set for the four moves; mirror-symmetric): the 6 x 5 window of
    cell kinds (wall, floor, goal, box, box on goal) two behind to three ahead
    of the player, and what the move does: nothing (a wall, a blocked box), a
    push, a box onto or off a goal, into a dead cell (no goal reachable by
    pushes on the empty board), nearer or farther from a goal in pushes, into a
    2 x 2 freeze, against a wall off goal, the solving push; a walk nearer or
    farther from the nearest box off goal (walking distance on the empty
    board); undoing or repeating the last move;
  - a softmax over the four moves of a linear score (or of a one-hidden-layer
    tanh network, --hidden H), trained by imitation (cross-entropy, L2, Adam)
    of the optimal solutions of Boxoban's *unfiltered* levels only (unfiltered
    is not a label of the medium/hard question); optionally refined by
    REINFORCE (--rl ITERS) with Boxoban's reward (+1 a box onto a target, -1
    off, +10 solved, -0.1 a step) on the same unfiltered levels, 120-step
    episodes;
  - cross-fitted: unfiltered levels of even index train policy A, odd ones
    policy B; an unfiltered level is scored by the policy that never saw it,
    medium, hard and Microban levels by both (half the episodes each, the
    likelihoods averaged).

Per level (more is harder):
  pol-nll     mean -log of the policy's chance of each move of the optimal
              solution (how far the solution runs against what it learned)
  pol-nllsum  the same summed over the solution
  pol-fail    -log10 of (successes + 1/2) / (N + 1) over N stochastic episodes
              of at most 120 moves (Boxoban's cap), moves sampled from the
              policy
  pol-cold    the same at temperature 1/2 (a surer agent)
  pol-greedy  1 if the greedy policy (always its likeliest move) does not
              solve the level within 120 moves, else 0
"""
import csv
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rating_fit as rf  # noqa: E402
import rating_probe as rp  # noqa: E402

PACKS = rf.ALONE_PACKS
CAP = 120
PAD = 4
INF = 999
DIRS = [(-1, 0), (0, 1), (1, 0), (0, -1)]       # up right down left
LETTER = {'u': 0, 'r': 1, 'd': 2, 'l': 3}
FWD = range(-2, 4)                              # window rows: behind .. ahead
LAT = range(-2, 3)                              # window columns
NWIN = len(FWD) * len(LAT)
NKIND = 5
HAND = ['noop', 'push', 'onto', 'offgoal', 'dead', 'closer', 'farther', 'freeze', 'wall',
        'solve', 'approach', 'retreat', 'undo', 'repeat']
NFEAT = NWIN * NKIND + len(HAND)
FEATS = ['pol-nll', 'pol-nllsum', 'pol-fail', 'pol-cold', 'pol-greedy']


# ------------------------------------------------------------------ levels

def boards(path):
    """The boards of an .xsb file, in order."""
    return rp.levels(path)


class Level:
    """A board on a grid padded with PAD walls; cells are indices r * w + c.
    Floor the player cannot reach (outside the walls) counts as wall."""

    def __init__(self, rows):
        h, w = len(rows) + 2 * PAD, max(len(r) for r in rows) + 2 * PAD
        self.w, n = w, h * w
        ch = np.full(n, '#', dtype='<U1')
        for i, row in enumerate(rows):
            for j, c in enumerate(row):
                ch[(i + PAD) * w + j + PAD] = c
        self.step = np.array([dr * w + dc for dr, dc in DIRS])
        player = int(np.flatnonzero((ch == '@') | (ch == '+'))[0])
        inside = np.zeros(n, bool)
        inside[player] = True
        todo = [player]
        while todo:
            c = todo.pop()
            for s in self.step:
                d = c + s
                if 0 <= d < n and not inside[d] and ch[d] != '#':
                    inside[d] = True
                    todo.append(d)
        self.wall = ~inside
        self.goal = inside & np.isin(ch, ['.', '*', '+'])
        self.box0 = inside & np.isin(ch, ['$', '*'])
        self.player0 = player
        self.base = np.where(self.wall, 0, np.where(self.goal, 2, 1))   # kinds without boxes
        self.gdist = self.push_distances()
        self.walkd = self.walk_distances()
        self.win, self.mirror = self.windows()

    def push_distances(self):
        """Pushes from each cell to the nearest goal for a lone box (INF: dead)."""
        n = len(self.wall)
        d = np.full(n, INF)
        front = list(np.flatnonzero(self.goal))
        d[front] = 0
        while front:
            nxt = []
            for g in front:
                for s in self.step:       # the box came from g - s, the player from g - 2s
                    b, p = g - s, g - 2 * s
                    if 0 <= p < n and not self.wall[b] and not self.wall[p] and d[b] == INF:
                        d[b] = d[g] + 1
                        nxt.append(b)
            front = nxt
        return d

    def walk_distances(self):
        """Walking distance between every two floor cells on the empty board."""
        cells = np.flatnonzero(~self.wall)
        n = len(self.wall)
        dist = np.full((n, n), INF, dtype=np.int32)
        for c in cells:
            row = dist[c]
            row[c] = 0
            front = [c]
            k = 0
            while front:
                k += 1
                nxt = []
                for a in front:
                    for s in self.step:
                        b = a + s
                        if not self.wall[b] and row[b] == INF:
                            row[b] = k
                            nxt.append(b)
                front = nxt
        return dist

    def windows(self):
        """win[c, a, k]: the k-th window cell of a move a from cell c (the window
        turned so that a points up), and the window's mirror image's order."""
        n, w = len(self.wall), self.w
        r, c = np.divmod(np.arange(n), w)
        win = np.zeros((n, 4, NWIN), dtype=np.int64)
        for a, (dr, dc) in enumerate(DIRS):
            lr, lc = dc, -dr
            k = 0
            for f in FWD:
                for l_ in LAT:
                    rr = np.clip(r + f * dr + l_ * lr, 0, n // w - 1)
                    cc = np.clip(c + f * dc + l_ * lc, 0, w - 1)
                    win[:, a, k] = rr * w + cc
                    k += 1
        mirror = np.array([fi * len(LAT) + (len(LAT) - 1 - li)
                           for fi in range(len(FWD)) for li in range(len(LAT))])
        return win, mirror


# ------------------------------------------------------------------ moves

class Stack:
    """Levels of one grid shape side by side, so that many episodes of many
    levels step together: row i of a batch plays level lev[i], whose cell c is
    cell lev[i] * n + c of the stacked arrays."""

    def __init__(self, levels):
        L0 = levels[0]
        assert all(len(L.wall) == len(L0.wall) and L.w == L0.w for L in levels)
        self.n, self.w, self.step = len(L0.wall), L0.w, L0.step
        self.win, self.mirror = L0.win, L0.mirror
        cat = lambda f: np.concatenate([getattr(L, f) for L in levels])   # noqa: E731
        self.wall, self.goal, self.base, self.gdist = (cat('wall'), cat('goal'), cat('base'),
                                                       cat('gdist'))
        self.walkd = np.stack([L.walkd.astype(np.int16) for L in levels])
        self.player0 = np.array([L.player0 for L in levels])
        self.box0 = np.stack([L.box0 for L in levels])


def features(S, lev, p, B, last, lastpush):
    """The features (N, 4, NFEAT) of the four moves of N states (rows of
    levels lev of the stack S; players p, boxes B (N, cells) bool, last move
    and whether it pushed), and what each move does: (t, push, noop) (N, 4)."""
    N, n = len(p), S.n
    rows = np.arange(N)[:, None]
    off = (lev * n)[:, None]                                 # (N, 1)
    K = S.base[off + np.arange(n)[None, :]] + 2 * B          # (N, cells) kinds
    idx = S.win[p]                                           # (N, 4, NWIN)
    Kw = np.take_along_axis(K, idx.reshape(N, -1), 1).reshape(N, 4, NWIN)
    X = np.zeros((N, 4, NFEAT), dtype=np.float32)
    oh = np.eye(NKIND, dtype=np.float32)
    X[:, :, :NWIN * NKIND] = (oh[Kw] + oh[Kw[:, :, S.mirror]]).reshape(N, 4, -1)
    t = p[:, None] + S.step[None, :]
    t2c = np.clip(t + S.step[None, :], 0, n - 1)
    wall = lambda c: S.wall[off + c]                         # noqa: E731
    goal = lambda c: S.goal[off + c]                         # noqa: E731
    wall_t = wall(t)
    box_t = B[rows, t]
    blocked = wall(t2c) | B[rows, t2c]
    push = box_t & ~blocked
    noop = wall_t | (box_t & blocked)
    move = ~noop & ~push
    g_t, g_t2 = S.gdist[off + t], S.gdist[off + t2c]
    goal_t, goal_t2 = goal(t), goal(t2c)
    onto = push & goal_t2
    offg = push & goal_t & ~goal_t2
    dead = push & (g_t2 >= INF)
    closer = push & (g_t2 < g_t)
    farther = push & (g_t2 > g_t) & ~dead
    # a 2 x 2 block of walls and boxes around the pushed box, one box off goal
    freeze = np.zeros_like(push)
    for a_ in (1, -1):
        for b_ in (S.w, -S.w):
            occ = np.ones_like(push)
            offb = ~goal_t2
            for c in (t2c + a_, t2c + b_, t2c + a_ + b_):
                cc = np.clip(c, 0, n - 1)
                isbox = B[rows, cc] & (cc != t)
                occ &= wall(cc) | isbox
                offb |= isbox & ~goal(cc)
            freeze |= push & occ & offb
    t3 = np.clip(t2c + S.step[None, :], 0, n - 1)
    wallp = push & wall(t3) & ~goal_t2
    offbox = B & ~S.goal[off + np.arange(n)[None, :]]
    offcount = offbox.sum(1)[:, None]
    after = offcount - (push & ~goal_t) + (push & ~goal_t2)
    solve = push & (after == 0)
    dp = np.where(offbox, S.walkd[lev, p], INF).min(1)[:, None]          # (N, 1)
    tc = np.where(noop, p[:, None], t)
    dt = np.where(offbox[:, None, :], S.walkd[lev[:, None], tc], INF).min(2)
    approach = move & (dt < dp)
    retreat = move & (dt > dp)
    acts = np.arange(4)[None, :]
    undo = move & (acts == (last[:, None] + 2) % 4) & (last[:, None] >= 0) & ~lastpush[:, None]
    repeat = acts == last[:, None]
    hand = [noop, push, onto, offg, dead, closer, farther, freeze, wallp, solve, approach,
            retreat, undo, repeat]
    for j, v in enumerate(hand):
        X[:, :, NWIN * NKIND + j] = v
    return X, t, push, noop


def apply(S, lev, p, B, a, t, push, noop):
    """Take move a (N,) in each state; returns new p, B (B is changed), the
    reward (Boxoban's: +1 a box onto a goal, -1 off, -0.1 a step) and whether
    it pushed."""
    N = len(p)
    i_ = np.arange(N)
    ta, pa, na = t[i_, a], push[i_, a], noop[i_, a]
    t2 = ta + S.step[a]
    r = np.full(N, -0.1)
    i = np.flatnonzero(pa)
    B[i, ta[i]] = False
    B[i, t2[i]] = True
    off = lev[i] * S.n
    r[i] += S.goal[off + t2[i]].astype(float) - S.goal[off + ta[i]].astype(float)
    return np.where(na, p, ta), B, r, pa


def replay(L, sol):
    """The features and the moves of a solution (letters urdl, any case)."""
    S = Stack([L])
    lev = np.zeros(1, dtype=np.int64)
    p = np.array([L.player0])
    B = L.box0[None, :].copy()
    last, lastpush = np.array([-1]), np.array([False])
    Xs, acts = [], []
    for ch in sol:
        a = LETTER[ch.lower()]
        X, t, push, noop = features(S, lev, p, B, last, lastpush)
        Xs.append(X[0])
        acts.append(a)
        p, B, _, pa = apply(S, lev, p, B, np.array([a]), t, push, noop)
        last, lastpush = np.array([a]), pa
    ok = bool((B[0] <= L.goal).all())
    return np.array(Xs), np.array(acts), ok


# ------------------------------------------------------------------ policy

class Policy:
    """Softmax over the four moves of a score: linear, or a tanh layer of H."""

    def __init__(self, hidden, rng):
        self.hidden = hidden
        if hidden:
            self.W1 = rng.normal(0, 0.1, (NFEAT, hidden)).astype(np.float32)
            self.b1 = np.zeros(hidden, np.float32)
            self.v = rng.normal(0, 0.1, hidden).astype(np.float32)
            self.params = [self.W1, self.b1, self.v]
        else:
            self.w = np.zeros(NFEAT, np.float32)
            self.params = [self.w]

    def logits(self, X):
        if self.hidden:
            self._h = np.tanh(X @ self.W1 + self.b1)
            return self._h @ self.v
        return X @ self.w

    def grads(self, X, G):
        """Gradients of sum(G * logits(X)) (after a call of logits(X))."""
        if self.hidden:
            h = self._h
            gv = (G[..., None] * h).reshape(-1, self.hidden).sum(0)
            gh = G[..., None] * self.v * (1 - h * h)
            gW1 = X.reshape(-1, NFEAT).T @ gh.reshape(-1, self.hidden)
            return [gW1, gh.reshape(-1, self.hidden).sum(0), gv]
        return [np.tensordot(G, X, axes=(list(range(G.ndim)), list(range(G.ndim))))]


def softmax(z):
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


class Adam:
    def __init__(self, params, lr):
        self.p, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(x) for x in params]
        self.s = [np.zeros_like(x) for x in params]

    def step(self, grads):
        self.t += 1
        for x, g, m, s in zip(self.p, grads, self.m, self.s):
            m *= 0.9
            m += 0.1 * g
            s *= 0.999
            s += 0.001 * g * g
            x -= self.lr * (m / (1 - 0.9 ** self.t)) / (np.sqrt(s / (1 - 0.999 ** self.t)) + 1e-8)


def imitate(pol, X, A, iters, l2=1e-3, lr=0.05):
    """Maximise the likelihood of the moves A (T,) in states X (T, 4, F)."""
    opt = Adam(pol.params, lr)
    T = len(A)
    Y = np.zeros((T, 4), np.float32)
    Y[np.arange(T), A] = 1
    for it in range(iters):
        P = softmax(pol.logits(X))
        g = pol.grads(X, (P - Y) / T)
        g = [gi + 2 * l2 * x for gi, x in zip(g, pol.params)]
        opt.step(g)
    P = softmax(pol.logits(X))
    return float(-np.log(P[np.arange(T), A] + 1e-12).mean())


def episodes(S, lev, pols, pid, temp, rng, record=False):
    """Episodes of at most CAP moves, row i on level lev[i] of the stack S,
    moves drawn from policy pols[pid[i]] at temperature temp[i] (0: always its
    likeliest move).  Returns which rows solved their level (and, with
    record, per step the live rows, their features, moves and rewards)."""
    N = len(lev)
    p = S.player0[lev].copy()
    B = S.box0[lev].copy()
    last, lastpush = np.full(N, -1), np.zeros(N, bool)
    live = np.ones(N, bool)
    won = np.zeros(N, bool)
    trace = []
    for _ in range(CAP):
        i = np.flatnonzero(live)
        if not len(i):
            break
        X, t, push, noop = features(S, lev[i], p[i], B[i], last[i], lastpush[i])
        z = np.zeros((len(i), 4), np.float32)
        for k, pol in enumerate(pols):
            j = np.flatnonzero(pid[i] == k)
            if len(j):
                z[j] = pol.logits(X[j])
        tt = temp[i][:, None]
        P = softmax(z / np.where(tt > 0, tt, 1.0))
        a = np.where(tt[:, 0] > 0, (P.cumsum(1) > rng.random((len(i), 1))).argmax(1),
                     z.argmax(1))
        np_, Bi, r, pa = apply(S, lev[i], p[i], B[i], a, t, push, noop)
        p[i], B[i], last[i], lastpush[i] = np_, Bi, a, pa
        done = (Bi <= S.goal[(lev[i] * S.n)[:, None] + np.arange(S.n)[None, :]]).all(1)
        r = r + 10.0 * done
        won[i[done]] = True
        live[i[done]] = False
        if record:
            trace.append((i, X, a, r))
    return won, trace


def reinforce(pol, levels, iters, rng, per=4, batch=64, lr=0.005, gamma=0.99):
    """REINFORCE with Boxoban's reward: each iteration `batch` of the levels,
    `per` episodes each, the baseline each level's mean return."""
    S = Stack(levels)
    opt = Adam(pol.params, lr)
    for it in range(iters):
        lev = np.repeat(rng.choice(len(levels), batch, replace=False), per)
        N = len(lev)
        won, trace = episodes(S, lev, [pol], np.zeros(N, int), np.ones(N), rng, record=True)
        R = np.zeros(N)
        rets = [None] * len(trace)
        for k in range(len(trace) - 1, -1, -1):
            i, X, a, r = trace[k]
            R[i] = gamma * R[i] + r
            rets[k] = R[i].copy()
        G0 = np.zeros(N)                 # each row's return from the start
        G0[:] = R
        base = G0.reshape(-1, per).mean(1).repeat(per)
        gs = [np.zeros_like(x) for x in pol.params]
        cnt = 0
        for (i, X, a, r), ret in zip(trace, rets):
            P = softmax(pol.logits(X))
            Y = np.zeros_like(P)
            Y[np.arange(len(a)), a] = 1
            adv = (ret - base[i])[:, None].astype(np.float32)
            g = pol.grads(X, -(Y - P) * adv)
            gs = [x + y for x, y in zip(gs, g)]
            cnt += len(a)
        opt.step([x / cnt for x in gs])
        if it % 20 == 0 or it == iters - 1:
            sys.stderr.write('  REINFORCE %d: solved %.3f\n' % (it, won.mean()))


# ------------------------------------------------------------------ driver

def load_pack(d, name):
    rows = rf.read(os.path.join(d, name + '.tsv'))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'data',
                        'sokoban', name + '.xsb')
    bs = boards(os.environ.get('LEVELKIT_DATA', '') and
                os.path.join(os.environ['LEVELKIT_DATA'], 'sokoban', name + '.xsb') or path)
    assert len(bs) == len(rows), (name, len(bs), len(rows))
    return rows, [Level(b) for b in bs]


def score_pack(rows, levs, pols, users, N, rng, chunk=150):
    """The features of a pack's levels; users[k] lists the policies that score
    level k (N // len of them episodes each, at temperature 1 and 1/2, and
    one greedy episode each)."""
    out = []
    for k, (r, L) in enumerate(zip(rows, levs)):
        sol = r['solution'].strip()
        X, A, ok = replay(L, sol) if sol else (None, None, False)
        o = {}
        if ok:
            nll = [-np.log(softmax(pols[j].logits(X))[np.arange(len(A)), A] + 1e-12)
                   for j in users[k]]
            m = np.mean(nll, 0)
            o['pol-nll'] = '%.4f' % m.mean()
            o['pol-nllsum'] = '%.3f' % m.sum()
        out.append(o)
    same = len({(len(L.wall), L.w) for L in levs}) == 1
    groups = ([list(range(s, min(s + chunk, len(levs)))) for s in range(0, len(levs), chunk)]
              if same else [[k] for k in range(len(levs))])
    for g in groups:
        S = Stack([levs[k] for k in g])
        lev, pid, temp, kind = [], [], [], []
        for gi, k in enumerate(g):
            for j in users[k]:
                for tmp, cnt, kd in ((1.0, N // len(users[k]), 0), (0.5, N // len(users[k]), 1),
                                     (0.0, 1, 2)):
                    lev += [gi] * cnt
                    pid += [j] * cnt
                    temp += [tmp] * cnt
                    kind += [kd] * cnt
        lev, pid, kind = np.array(lev), np.array(pid), np.array(kind)
        won, _ = episodes(S, lev, pols, pid, np.array(temp), rng)
        cnt = np.zeros((len(g), 3))
        np.add.at(cnt, (lev, kind), won)
        for gi, k in enumerate(g):
            out[k]['pol-fail'] = '%.4f' % -np.log10((cnt[gi, 0] + 0.5) / (N + 1))
            out[k]['pol-cold'] = '%.4f' % -np.log10((cnt[gi, 1] + 0.5) / (N + 1))
            out[k]['pol-greedy'] = '%d' % (cnt[gi, 2] * 2 < len(users[k]))
    return out


def main(argv):
    args = argv[1:]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    src, dst = args[0], args[1]
    opts = {'--hidden': '0', '--episodes': '32', '--rl': '0', '--seed': '1', '--iters': '600',
            '--l2': '1e-4', '--lr': '', '--packs': ','.join(PACKS)}
    rest = args[2:]
    while rest:
        k = rest.pop(0)
        opts[k] = rest.pop(0)
    hidden, N, rl = int(opts['--hidden']), int(opts['--episodes']), int(opts['--rl'])
    rng = np.random.default_rng(int(opts['--seed']))
    t0 = time.process_time()
    # training data: Boxoban's unfiltered levels only, two halves
    urows, ulev = load_pack(src, PACKS[0])
    halves = [[], []]
    for k, (r, L) in enumerate(zip(urows, ulev)):
        X, A, ok = replay(L, r['solution'].strip())
        if not ok:
            sys.stderr.write('policy: unfiltered %d: solution does not solve it\n' % k)
            continue
        halves[k % 2].append((X, A))
    pols = []
    for h in (0, 1):
        X = np.concatenate([x for x, _ in halves[h]])
        A = np.concatenate([a for _, a in halves[h]])
        pol = Policy(hidden, rng)
        lr = float(opts['--lr'] or (0.01 if hidden else 0.05))
        loss = imitate(pol, X, A, int(opts['--iters']), float(opts['--l2']), lr)
        sys.stderr.write('policy %s: %d moves, imitation loss %.3f (uniform %.3f), %.0f s\n'
                         % ('AB'[h], len(A), loss, np.log(4), time.process_time() - t0))
        if rl:
            mine = [L for k, L in enumerate(ulev) if k % 2 == h]
            reinforce(pol, mine, rl, rng)
            sys.stderr.write('policy %s: REINFORCE %d iterations, %.0f s\n'
                             % ('AB'[h], rl, time.process_time() - t0))
        pols.append(pol)
    # the features of every level of the four packs
    got = {}
    for name in opts['--packs'].split(','):
        rows, levs = (urows, ulev) if name == PACKS[0] else load_pack(src, name)
        users = [[1 - k % 2] if name == PACKS[0] else [0, 1] for k in range(len(rows))]
        vals = score_pack(rows, levs, pols, users, N, rng)
        got[name] = {r['record']: v for r, v in zip(rows, vals)}
        sys.stderr.write('policy: %s scored, %.0f s\n' % (name, time.process_time() - t0))

    def add(name, rows):
        for r in rows:
            v = got.get(name, {}).get(r['record'])
            for f in FEATS:
                r['f-' + f] = (v.get(f, '') if v is not None else
                               ('none' if name not in PACKS else ''))
    rf.add_columns(src, dst, add, skip=('speed.tsv',))
    rf.print_alone(dst, FEATS)
    packs = {p: rf.read(os.path.join(dst, p + '.tsv')) for p in PACKS}

    def val(r, n):
        v = rf.num(r.get('f-' + n))
        return -1e9 if v is None else v
    for n in FEATS[2:]:
        for p in PACKS:
            v = [val(r, n) for r in packs[p]]
            sys.stdout.write('%s %s mean %.3f\n' % (n, p, np.mean(v)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
