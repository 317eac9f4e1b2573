#!/usr/bin/env python3
"""bench/rating_repeat.py - probe: how repetitive the optimal solution is
(issue 22, docs/rating.md "Features tried and left out", eighth round).

Usage: bench/rating_repeat.py DIR OUT

DIR holds bench/rating.sh's TSVs (with their solution column); OUT gets them
with these features appended as f-NAME columns, read off each level's optimal
solution as rate writes it (LURD, pushes in capitals):

  zlen      its length compressed by zlib at level 9, in bytes
  lz        its LZ78 phrases (the dictionary a left-to-right parse builds)
  lzshare   lz over the solution's length: low where the solution repeats
            one manoeuvre (Microban 36: five boxes in a row, each taken the
            same way), which a person sees at once and a search does not

A level without a known solution gets none of them.  Pure Python, no packages.
"""
import csv
import os
import sys
import zlib


def lz78(s):
    seen, word, phrases = set(), '', 0
    for ch in s:
        word += ch
        if word not in seen:
            seen.add(word)
            phrases += 1
            word = ''
    return phrases + (1 if word else 0)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    src, dst = argv[1], argv[2]
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith('.tsv'):
            continue
        with open(os.path.join(src, name), newline='') as f:
            rows = list(csv.DictReader(f, delimiter='\t'))
        if not rows:
            continue
        fields = list(rows[0].keys()) + ['f-zlen', 'f-lz', 'f-lzshare']
        with open(os.path.join(dst, name), 'w', newline='') as f:
            out = csv.DictWriter(f, fieldnames=fields, delimiter='\t')
            out.writeheader()
            for r in rows:
                s = r.get('solution') or ''
                r['f-zlen'] = str(len(zlib.compress(s.encode(), 9))) if s else ''
                r['f-lz'] = str(lz78(s)) if s else ''
                r['f-lzshare'] = '%.4f' % (lz78(s) / len(s)) if s else ''
                out.writerow(r)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
