#!/usr/bin/env python3
"""bench/yass_compare.py - levelkit beside the peer solver YASS, level by
level: which levels each solves, YASS only, levelkit only (issue 23's
side-by-side run; docs/benchmarks.md, section hard-yass41).

Usage: bench/yass_compare.py LEVELKIT_OUT YASS_STATS...
  LEVELKIT_OUT: `solve --stats` output of the packs, concatenated in order
                (a record is solved when it says `solvable: yes`; its `cpu:`
                field is its processor time);
  YASS_STATS:   the "..., Statistics.txt" file YASS writes for each pack,
                in the same order (a level is solved when its row has a push
                count; YASS leaves the time blank under one second).
Levels are matched by their place in the files, pack after pack, and the
two solvers' level counts must agree.
"""
import re
import sys


def levelkit_levels(path):
    out = []
    for rec in re.split(r'\n\s*\n', open(path, encoding='utf-8').read()):
        s = re.search(r'^solvable:\s*(\S+)', rec, re.M)
        if not s:
            continue
        c = re.search(r'^cpu:\s*([\d.]+)', rec, re.M)
        out.append((s.group(1) == 'yes', float(c.group(1)) if c else None))
    return out


def yass_levels(path):
    """(solved, seconds or None) for each level row of a YASS statistics file."""
    rows, inside = [], False
    for line in open(path, encoding='latin-1'):
        if line.lstrip().startswith('No ') and 'W' in line:
            inside = True
            continue
        if not inside:
            continue
        if line.startswith('---'):
            if rows:
                break   # the rule under the last level: the totals follow
            continue
        f = line.split()
        # No W H <name, which may hold spaces> [Pushes] positions pushes [Seconds],
        # in fixed columns: Pushes ends at column 44, Seconds at column 80
        pushes = line[36:44].strip()
        secs = line[70:80].strip()
        if not f[0].isdigit():
            continue
        rows.append((pushes.isdigit(), float(secs) if secs.isdigit() else None))
    return rows


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    lk = levelkit_levels(argv[1])
    packs = [yass_levels(p) for p in argv[2:]]
    ys = [r for p in packs for r in p]
    if len(lk) != len(ys):
        sys.exit('yass_compare: %d levelkit records against %d YASS rows' % (len(lk), len(ys)))
    at = 0
    print('| pack | levels | levelkit | YASS | both | levelkit only | YASS only |')
    print('|---|---|---|---|---|---|---|')
    for k, p in enumerate(packs, 1):
        n = len(p)
        a = [lk[at + i][0] for i in range(n)]
        b = [p[i][0] for i in range(n)]
        only_lk = [i + 1 for i in range(n) if a[i] and not b[i]]
        only_y = [i + 1 for i in range(n) if b[i] and not a[i]]
        print('| %d | %d | %d | %d | %d | %s | %s |' % (
            k, n, sum(a), sum(b), sum(x and y for x, y in zip(a, b)),
            ' '.join(map(str, only_lk)) or '-', ' '.join(map(str, only_y)) or '-'))
        at += n
    print('| all | %d | %d | %d | %d | %d | %d |' % (
        len(lk), sum(x for x, _ in lk), sum(x for x, _ in ys),
        sum(a[0] and b[0] for a, b in zip(lk, ys)),
        sum(a[0] and not b[0] for a, b in zip(lk, ys)),
        sum(b[0] and not a[0] for a, b in zip(lk, ys))))


if __name__ == '__main__':
    main(sys.argv)
