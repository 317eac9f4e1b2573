#!/usr/bin/env python3
"""bench/laser/lvl_facts.py - a .lvl file (SPEC.md) as the ASP facts of
../shared/laser/refraction.lp, accepting levelkit's extension: a target on
one to four sides (it sums its beams).

Written for bench/laser.sh, independently of levelkit (Python's Fraction
for the unit), with the facts ../shared/laser/lvl2lp.py writes: dim/2,
unit/1, free/2, occ/3, ktype/2, in/2, out/2, power/2, need/2, tray/2.  On
a level without such targets the two converters write the same facts
(bench/laser.sh checks it).  stdlib only.

usage: lvl_facts.py LEVEL.lvl > LEVEL.lp
"""
import sys
from fractions import Fraction
from math import lcm

# type: (in-ports allowed, out-ports)
PORTS = {'SRC': ({0}, 1), 'TGT': ({1, 2, 3, 4}, 0), 'BND': ({1}, 1),
         'SP2': ({1}, 2), 'SP3': ({1}, 3), 'CMB2': ({2}, 1), 'CMB3': ({3}, 1)}


def fail(msg):
    sys.exit('lvl_facts: ' + msg)


def read(path):
    lines = []
    with open(path) as f:
        for raw in f:
            text = raw.strip()
            if text and not text.startswith(';'):
                lines.append(text)
    size, rows, fixed, tray = None, [], {}, []
    i = 0
    while i < len(lines):
        words = lines[i].split()
        if words[0] == 'size':
            size = (int(words[1]), int(words[2]))
        elif words[0] == 'grid':
            rows = lines[i + 1:i + 1 + size[1]]
            i += size[1]
        elif words[0] == 'fixed':
            power = Fraction(words[4]) if len(words) > 4 else None
            fixed[words[1]] = (words[2], words[3], power)
        elif words[0] == 'tray':
            tray.append((int(words[1]), words[2], words[3]))
        else:
            fail('unexpected line: ' + lines[i])
        i += 1
    return size, rows, fixed, tray


def sides(kind, spec):
    ins, outs = spec.split('>')
    allowed, nout = PORTS[kind]
    if len(ins) not in allowed or len(outs) != nout or len(set(ins + outs)) != len(ins + outs):
        fail('ports %s do not suit %s' % (spec, kind))
    return ins.lower(), outs.lower()


def main():
    (width, height), rows, fixed, tray = read(sys.argv[1])
    splits2 = sum(n for n, kind, _ in tray if kind == 'SP2')
    splits3 = sum(n for n, kind, _ in tray if kind == 'SP3')
    for row in rows:
        for ch in row:
            if ch in fixed:
                splits2 += fixed[ch][0] == 'SP2'
                splits3 += fixed[ch][0] == 'SP3'
    dens = [p.denominator for _, _, p in fixed.values() if p is not None]
    unit = (lcm(*dens) if dens else 1) * 2 ** splits2 * 3 ** splits3
    facts = ['dim(%d,%d).' % (width, height), 'unit(%d).' % unit]

    def kind_facts(name, kind, spec, power):
        ins, outs = sides(kind, spec)
        facts.append('ktype(%s,%s).' % (name, kind.lower()))
        facts.extend('in(%s,%s).' % (name, d) for d in ins)
        facts.extend('out(%s,%s).' % (name, d) for d in outs)
        if power is not None:
            units = power * unit
            facts.append('%s(%s,%d).' % ('power' if kind == 'SRC' else 'need', name, units))

    for y, row in enumerate(rows):
        if len(row) != width:
            fail('row %d is not %d wide' % (y + 1, width))
        for x, ch in enumerate(row):
            if ch == '.':
                facts.append('free(%d,%d).' % (x, y))
            elif ch == '#':
                facts.append('occ(%d,%d,blk).' % (x, y))
            elif ch in fixed:
                facts.append('occ(%d,%d,f(%s)).' % (x, y, ch.lower()))
            else:
                fail('cell %r has no fixed line' % ch)
    for letter, (kind, spec, power) in fixed.items():
        kind_facts('f(%s)' % letter.lower(), kind, spec, power)
    for line, (count, kind, spec) in enumerate(tray, 1):
        kind_facts('k(%d)' % line, kind, spec, None)
        facts.append('tray(k(%d),%d).' % (line, count))
    print('\n'.join(facts))


main()
