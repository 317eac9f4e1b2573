#!/usr/bin/env python3
"""bench/rating_agent.py - join bench/rating_agent.c's agent features onto the
rating's tables and print each one's figures alone (issue 22, docs/rating.md).

Usage: bench/rating_agent.py DIR OUT AGENTDIR

DIR holds bench/rating.sh's TSVs; AGENTDIR holds rating_agent's output for
boxoban_{unfiltered_test,medium_valid,hard}_0-999 and microban, as NAME.agent
(`rating_agent < pack.xsb > NAME.agent`); OUT gets DIR's TSVs with the agent's
features appended as f-NAME columns (oriented so that more is harder: a success
rate r is written as its failure rate, fail-X = 1 - r; empty where the level's
moves graph was over the probe's state bound; the PuzzleScript games and
Sasquatch get 'none').  Then

    bench/rating_fit.py OUT --features <the model's>,NAME

gives the held-out figures with the feature beside the model's.  Printed here:
each feature alone, AUC on Boxoban unfiltered vs medium and medium vs hard,
Spearman rho on Microban's order (no fit: the raw value).
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rating_fit as rf  # noqa: E402

PACKS = rf.ALONE_PACKS
FAIL = {'rate-2', 'rate-4', 'rate-8', 'rate-16', 'hrate-1', 'hrate-2', 'hrate-4'}


def agent_rows(path):
    with open(path) as f:
        return {int(r['index']): r for r in csv.DictReader(f, delimiter='\t')}


def names(path):
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
    return [('fail-' + h[5:] if h.startswith('rate-') else
             'hfail-' + h[6:] if h.startswith('hrate-') else h) for h in head[1:]]


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    src, dst, adir = argv[1:4]
    feats = names(os.path.join(adir, PACKS[0] + '.agent'))

    def add(name, rows):
        got = agent_rows(os.path.join(adir, name + '.agent')) if name in PACKS else None
        for r in rows:
            a = got.get(int(r['record'])) if got is not None else None
            for h, n in zip(list(a.keys())[1:] if a else [], feats):
                v = a[h].strip()
                if v and h in FAIL:
                    v = '%g' % (1 - float(v))
                r['f-' + n] = v
            if got is None:
                for n in feats:
                    r['f-' + n] = 'none'
    rf.add_columns(src, dst, add, skip=('speed.tsv',))
    # each feature alone, raw (a level without a value ranks lowest)
    rf.print_alone(dst, feats + ['moves', 'pushes'],
                   lambda n: n if n in ('moves', 'pushes') else 'f-' + n)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
