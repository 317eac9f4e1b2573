#!/usr/bin/env python3
"""tests/fuzz/seeds.py - make the fuzzers' seed corpora from the repository.

Usage: tests/fuzz/seeds.py SOURCE_DIR OUT_DIR

Writes OUT_DIR/record, OUT_DIR/level, OUT_DIR/expr, OUT_DIR/rules, OUT_DIR/script and
OUT_DIR/json, one
file per seed, named by the SHA-1 of its content as libFuzzer names its own
(so a seed found twice is one file).  Nothing here is committed: the seeds
are remade from what the repository holds now, so they follow the formats
as they change.

  record  every level file (levels/, tests/levels/, bench/levels/) whole,
          each of its blank-line separated blocks, and the code blocks of
          docs/format.md and docs/games/*.md
  level   the blocks of those files and docs, and the small files whole
  expr    the expressions in docs/filter.md, tests/test_expr.c and the
          filter calls of tests/*.sh
  rules   the presets (src/games/sokoban/sokoban_transform.c), tests/levels/*.rules,
          the rules in tests/test_rules.c and the code blocks of
          docs/transform.md
  script  the bundled PuzzleScript games (levels/puzzlescript/) and the
          150 smallest distinct games of the reference's test suite
          ($LEVELKIT_DATA or ../shared/data, puzzlescript/testdata.jsonl)
  json    Refraction's JSON levels (tests/levels/*.json, *.jsonl) whole and
          line by line, the JSON level strings of tests/test_laser_game.c, and
          the JSON code blocks of docs/games/laser.md
"""
import ast
import hashlib
import os
import re
import sys

LEVEL_DIRS = ["levels", "tests/levels", "bench/levels"]
LEVEL_EXTS = (".xsb", ".sok", ".slc", ".txt")
SMALL = 4096  # whole files up to this size are level seeds too
SUITE_SCRIPTS = 150  # the test suite's games among the script seeds

C_STRINGS = r'((?:"(?:[^"\\\n]|\\.)*"\s*)+)'


def c_string(literals):
    """The value of adjacent C string literals (the escapes the tests use
    are Python's too)."""
    return "".join(ast.literal_eval(s) for s in re.findall(r'"(?:[^"\\\n]|\\.)*"', literals))


def first_args(text, names):
    """The first argument of calls to the named functions, where it is a
    string literal."""
    pat = r"\b(?:%s)\(\s*%s" % ("|".join(names), C_STRINGS)
    return [c_string(m.group(1)) for m in re.finditer(pat, text)]


def code_blocks(text):
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.S)


def blocks(text):
    """Blank-line separated blocks (a rough cut: the reader's own rules
    join some of them, which the whole-file seeds cover)."""
    parts = re.split(r"\n[ \t\r]*\n", text.replace("\r\n", "\n"))
    return [p.strip("\n") + "\n" for p in parts if p.strip()]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def level_files(src):
    for d in LEVEL_DIRS:
        for root, _, files in os.walk(os.path.join(src, d)):
            for name in sorted(files):
                if name.endswith(LEVEL_EXTS):
                    yield os.path.join(root, name)


def docs(src, names):
    for name in names:
        path = os.path.join(src, "docs", name)
        if os.path.isdir(path):
            for f in sorted(os.listdir(path)):
                if f.endswith(".md"):
                    yield read(os.path.join(path, f)).decode("utf-8", "replace")
        elif os.path.exists(path):
            yield read(path).decode("utf-8", "replace")


def record_and_level(src, out):
    for path in level_files(src):
        data = read(path)
        out["record"].append(data)
        if len(data) <= SMALL:
            out["level"].append(data)
        text = data.decode("utf-8", "surrogateescape")
        for b in blocks(text):
            seed = b.encode("utf-8", "surrogateescape")
            out["record"].append(seed)
            out["level"].append(seed)
    for text in docs(src, ["format.md", "games"]):
        for b in code_blocks(text):
            out["record"].append(b.encode())
            for blk in blocks(b):
                out["level"].append(blk.encode())


def expressions(src, out):
    for text in docs(src, ["filter.md", "commands.md", "batch.md"]):
        for m in re.finditer(r"filter [^\n]*?'([^'\n]+)'", text):
            out["expr"].append(m.group(1).encode())
        for m in re.finditer(r"`([^`\n]+)`", text):
            span = m.group(1)
            if re.search(r"==|!=|<|>|has\(|&&|\|\|", span):
                out["expr"].append(span.replace("\\|", "|").encode())
    text = read(os.path.join(src, "tests", "test_expr.c")).decode()
    for e in first_args(text, ["eval_on", "eval_fails", "parse_fails", "parse_ok",
                               "lk_expr_parse"]):
        out["expr"].append(e.encode())
    tests = os.path.join(src, "tests")
    for name in sorted(os.listdir(tests)):
        if name.endswith(".sh"):
            for line in read(os.path.join(tests, name)).decode().splitlines():
                if "FILTER" in line or "filter" in line:
                    for m in re.finditer(r"'([^'\n]+)'", line):
                        out["expr"].append(m.group(1).encode())


def rules(src, out):
    text = read(os.path.join(src, "src", "games", "sokoban", "sokoban_transform.c")).decode()
    for m in re.finditer(r'\{\s*"\w+",\s*' + C_STRINGS + r"\}", text):
        out["rules"].append(c_string(m.group(1)).encode())
    tl = os.path.join(src, "tests", "levels")
    for name in sorted(os.listdir(tl)):
        if name.endswith(".rules"):
            out["rules"].append(read(os.path.join(tl, name)))
    text = read(os.path.join(src, "tests", "test_rules.c")).decode()
    for r in first_args(text, ["expect", "parse_error", "lk_rules_parse", "parse_ok"]):
        out["rules"].append(r.encode())
    for doc in docs(src, ["transform.md", "gen.md"]):
        for b in code_blocks(doc):
            if "->" in b:
                out["rules"].append(b.encode())


def scripts(src, out):
    """The bundled PuzzleScript games and the reference test suite's games
    (../shared/data/puzzlescript/testdata.jsonl, when it is beside)."""
    d = os.path.join(src, "levels", "puzzlescript")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if name.endswith(".txt"):
            out["script"].append(read(os.path.join(d, name)))
    data = os.environ.get("LEVELKIT_DATA") or os.path.join(src, "..", "shared", "data")
    suite = os.path.join(data, "puzzlescript", "testdata.jsonl")
    if os.path.exists(suite):
        import json
        seen = set()
        for line in read(suite).decode("utf-8").splitlines():
            if line.strip():
                seen.add(json.loads(line).get("source", ""))
        # the smallest SUITE_SCRIPTS games: a short run must get past
        # running its seeds once (the largest take seconds each under the
        # sanitizers), and small inputs mutate faster
        for source in sorted(seen, key=len)[:SUITE_SCRIPTS]:
            out["script"].append(source.encode("utf-8"))


def json_levels(src, out):
    tl = os.path.join(src, "tests", "levels")
    for name in sorted(os.listdir(tl)):
        if name.endswith((".json", ".jsonl")):
            data = read(os.path.join(tl, name))
            out["json"].append(data)
            for line in data.splitlines(keepends=True):
                if line.strip():
                    out["json"].append(line)
    text = read(os.path.join(src, "tests", "test_laser_game.c")).decode()
    m = re.search(r"json_levels\[\] =\s*" + C_STRINGS, text)
    if m:
        out["json"].append(c_string(m.group(1)).encode())
    for doc in docs(src, ["games"]):
        for b in code_blocks(doc):
            if b.lstrip().startswith(("{", "[")):
                out["json"].append(b.encode())


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tests/fuzz/seeds.py SOURCE_DIR OUT_DIR")
    src, dst = sys.argv[1], sys.argv[2]
    out = {"record": [], "level": [], "expr": [], "rules": [], "script": [], "json": []}
    record_and_level(src, out)
    expressions(src, out)
    rules(src, out)
    scripts(src, out)
    json_levels(src, out)
    for kind, seeds in out.items():
        d = os.path.join(dst, kind)
        os.makedirs(d, exist_ok=True)
        names = set()
        for s in seeds:
            name = hashlib.sha1(s).hexdigest()
            names.add(name)
            with open(os.path.join(d, name), "wb") as f:
                f.write(s)
        print("seeds: %s: %d" % (kind, len(names)))
        if not names:
            sys.exit("seeds: no %s seeds found in %s" % (kind, src))


if __name__ == "__main__":
    main()
