#!/usr/bin/env python3
"""tests/fuzz/grow.py - make large inputs from a fuzz corpus, to find parsers
whose time grows faster than their input.

Usage: tests/fuzz/grow.py SIZE COUNT OUT_DIR CORPUS_DIR...

For the COUNT smallest inputs of the corpora (the fuzzer's reduced ones,
each about one thing), writes two inputs of about SIZE bytes to OUT_DIR:
the input repeated ("NAME.rep"), and each of its lines repeated in place
("NAME.lines").  Most inputs that make a parser quadratic are a
small piece many times over (many NUL lines, many unclosed tags, many
"Comment:" fields, a long run of one character), and the fuzzer itself
rarely grows inputs past a few kilobytes.  tests/fuzz/run.sh --grow runs the
fuzzers on the result with the usual -timeout.
"""
import os
import sys


def lines_repeated(data, times):
    out = bytearray()
    for line in data.splitlines(keepends=True):
        out += line * times
    return bytes(out)


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: tests/fuzz/grow.py SIZE COUNT OUT_DIR CORPUS_DIR...")
    size, count = int(sys.argv[1]), int(sys.argv[2])
    out = sys.argv[3]
    os.makedirs(out, exist_ok=True)
    inputs = {}
    for corpus in sys.argv[4:]:
        for name in sorted(os.listdir(corpus)):
            with open(os.path.join(corpus, name), "rb") as f:
                data = f.read()
            if data and len(data) <= size // 4:
                inputs.setdefault(data, name)
    n = 0
    for data in sorted(inputs, key=lambda d: (len(d), inputs[d]))[:count]:
        times = max(2, size // len(data))
        for suffix, grown in ((".rep", data * times), (".lines", lines_repeated(data, times))):
            with open(os.path.join(out, inputs[data] + suffix), "wb") as f:
                f.write(grown[: size * 2])
            n += 1
    print("grow: %d inputs of about %d bytes in %s" % (n, size, out))


if __name__ == "__main__":
    main()
