#!/usr/bin/env python3
"""bench/rating_check.py - the rating on packs that are not in the repository
and were never fitted on (issue 22: "the rating will also be checked on other
packs"), each ordered by its author from easy to hard: Spearman's rho of the
rating, of the two published measures and of the solution lengths against the
pack's order (docs/rating.md, "How well it does"; docs/benchmarks.md).

Usage: bench/rating_check.py TSV...

Each TSV is `rate --features -f tsv` of one pack, its records in the author's
order.  A bound ('>= 7.5') counts as its value and a level a measure has no
value for ranks lowest, as in bench/rating_fit.py.  Pure Python, no packages.
"""
import csv
import os
import sys

from rating_fit import num, spearman

COLUMNS = ['rating', 'difficulty', 'difficulty-min', 'pushes', 'moves']


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    print('| pack | levels | bounds | ' + ' | '.join(COLUMNS) + ' |')
    print('|---|---|---|' + '---|' * len(COLUMNS))
    for path in argv[1:]:
        with open(path, newline='') as f:
            rows = list(csv.DictReader(f, delimiter='\t'))
        order = list(range(len(rows)))
        bounds = sum(1 for r in rows if (r.get('rating') or '').startswith('>='))
        cells = []
        for c in COLUMNS:
            v = [num(r.get(c)) for r in rows]
            v = [x if x is not None else -1e300 for x in v]
            cells.append('%.3f' % spearman(v, order))
        name = os.path.splitext(os.path.basename(path))[0]
        print('| %s | %d | %d | %s |' % (name, len(rows), bounds, ' | '.join(cells)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
