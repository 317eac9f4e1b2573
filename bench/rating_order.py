#!/usr/bin/env python3
"""bench/rating_order.py - how well each measure of a rated pack follows the
pack's own order (its author's, easy to hard): Spearman's rho between the
record number and each column of `rate -f tsv` output, with the conventions of
bench/rating_fit.py (a bound '>= X' read as X, a level without a value ranked
lowest).  The rating is the one in the source, so on a pack the fit did not
see the figure is held out.

Usage: bench/rating_order.py TSV [COLUMN...]
  (default columns: rating difficulty difficulty-min pushes moves)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rating_fit import num, read, spearman  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read(sys.argv[1])
    cols = sys.argv[2:] or ['rating', 'difficulty', 'difficulty-min', 'pushes', 'moves']
    order = [float(r['record']) for r in rows]
    bounds = sum(1 for r in rows if (r.get('rating') or '').startswith('>='))
    print('levels\t%d\trating bounds\t%d' % (len(rows), bounds))
    for c in cols:
        v = [num(r.get(c)) for r in rows]
        v = [x if x is not None else -1e300 for x in v]
        print('%s\t%.3f' % (c, spearman(order, v)))


if __name__ == '__main__':
    main()
