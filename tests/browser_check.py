#!/usr/bin/env python3
"""browser_check.py - judge what a levelkit page reported from its #selftest
run in Chromium (tests/browser_test.sh), against truths found without the
page: the records as levelkit wrote them (read here from the .xsb), whether
`solve --verify` accepts each solution, and `filter -c` for the filter.

usage: browser_check.py DOM XSB VERIFIED_TSV FILTER_COUNT NAME [CHARTS]
  DOM           the page's DOM as `chromium --dump-dom` printed it
  XSB           the records the page was made of (text format)
  VERIFIED_TSV  `solve --verify -f tsv --fields record,title,verified` of them
  FILTER_COUNT  how many records `filter -c EXPR` keeps (EXPR as in the URL)
  NAME          what to call the page in messages
  CHARTS        how many charts the page must show (grade, difficulty,
                difficulty against length), if given
Prints one line per failure and exits 1 if there is any.
"""
import html
import json
import re
import sys

dom_path, xsb_path, verified_path, filter_count, name = sys.argv[1:6]
charts_wanted = int(sys.argv[6]) if len(sys.argv) > 6 else None
failures = []


def fail(msg):
    failures.append(f"{name}: {msg}")


dom = open(dom_path, encoding="utf-8", errors="replace").read()
# the last one: the page's script mentions the element too
found = re.findall(r'<pre id="lk-selftest">(\{.*?)</pre>', dom, re.S)
m = found[-1] if found else None
if not m:
    print(f"FAIL: {name}: the page wrote no self-test result (did its script run?)")
    sys.exit(1)
out = json.loads(html.unescape(m))

# The records, read here: title, grid, fields.
records = []
for block in re.split(r"\n\s*\n", open(xsb_path, encoding="utf-8").read()):
    lines = [l for l in block.split("\n") if l.strip()]
    fields, grid = {}, []
    for l in lines:
        if l.startswith(";"):
            continue
        fm = re.match(r"^([A-Za-z][A-Za-z0-9_.-]*):\s?(.*)$", l)
        if fm:
            fields[fm.group(1).lower()] = fm.group(2)
        else:
            grid.append(l)
    if grid:
        records.append({"fields": fields, "grid": grid})

verified = {}
rows = open(verified_path, encoding="utf-8").read().splitlines()
for row in rows[1:]:
    cols = row.split("\t")
    if len(cols) >= 3:
        verified[int(cols[0])] = cols[2]   # record number -> yes/no

# 1. every level drawn, each card with as many elements as its first frame
if out["levels"] != len(records):
    fail(f"the page has {out['levels']} levels, the records {len(records)}")
if out["drawn"] != out["levels"]:
    bad = [c["title"] for c in out["cards"].values() if c["elements"] != c["expected"] or not c["elements"]]
    fail(f"{out['drawn']} of {out['levels']} levels drawn; not drawn: {bad}")

# 1b. each card as a person sees it: the title whole or shortened in the
# middle (never cut at its end), fitting its box, the whole title on hover;
# every field row inside the card; no field the same on every card, and
# nothing of where the level came from (script, settings, ...) instead of
# the answers
same = set()
if len(records) > 1:
    names = set().union(*(set(r["fields"]) for r in records))
    same = {n for n in names if len({r["fields"].get(n) for r in records}) == 1}
# answers are shown even when every card has the same one (page.js's ANSWERS)
answers = {"moves", "pushes", "grade", "difficulty", "difficulty-min", "solutions", "unique", "stars",
           "combo-moves", "dead-ends", "rank", "verified", "verify-error", "requires", "shortcut", "exists",
           "example", "error", "limit", "optimum", "states"}
provenance = {"solution", "title", "settings", "game", "script", "script-hash", "level", "message",
              "from", "generator", "seed", "index"}
for i, c in sorted(out["cards"].items(), key=lambda kv: int(kv[0])):
    title, shown = c["title"], c["shown"]
    if c["tip"] != title:
        fail(f"card {i}: its tooltip is '{c['tip']}', not the title '{title}'")
    if not c["titleFits"]:
        fail(f"card {i}: the title '{shown}' does not fit its card")
    if shown != title:
        head, sep, tail = shown.partition("\u2026")
        if not sep or not title.startswith(head) or not title.endswith(tail) or len(tail) < len(head):
            fail(f"card {i}: '{shown}' is not '{title}' shortened in the middle")
    if not c["rowsFit"]:
        fail(f"card {i} ({title}): its last field row is cut off ({c['rows']} rows)")
    wrong = [f for f in c["fields"] if f in provenance or (f in same and f not in answers)]
    if wrong:
        fail(f"card {i} ({title}) shows {wrong}, the same on every card or not an answer")

# 2. every solution played: the end is "solved" exactly when solve --verify
# says yes, and the final frame shows a won position of the game
for play, rec in zip(out["plays"], records):
    title = play.get("title")
    if "error" in play:
        fail(f"level {play['i']}: {play['error']}")
        continue
    if play["steps"] != max(0, play["frames"] - 1):
        fail(f"{title}: {play['steps']} steps for {play['frames']} frames")
    for key in ("consistent", "backToStart", "closed"):
        if not play[key]:
            fail(f"{title}: {key} is false")
    has_solution = "solution" in rec["fields"]
    ok = verified.get(play["n"])
    solved_shown = play["status"] == "solved"
    if has_solution and ok is None:
        fail(f"{title}: no verify answer for it")
    if solved_shown != (has_solution and ok == "yes"):
        fail(f"{title}: the page ends on '{play['status']}', solve --verify says {ok}")
    if not solved_shown:
        continue
    names, game = play["names"], rec["fields"].get("game", "sokoban")
    grid = "".join(rec["grid"])
    if game == "sokoban":
        boxes = grid.count("$") + grid.count("*")
        if names.get("sokoban.box", 0) or names.get("sokoban.box-goal", 0) != boxes:
            fail(f"{title}: the last frame shows {names} for {boxes} boxes")
    elif game in ("fruit", "skiddy"):
        left = [n for n in names if n.startswith("slide.fruit.") or n.startswith("slide.skiddy.")]
        if left:
            fail(f"{title}: the last frame still shows {left}")
    elif game == "puzzlescript":
        # one frame per input of the solution, and for the demo Sokoban
        # (win condition "all Target on Crate") every target under a crate
        inputs = len(re.sub(r"[\s,]", "", rec["fields"].get("solution", "")))
        if play["frames"] != inputs + 1:
            fail(f"{title}: {play['frames']} frames for a solution of {inputs} inputs")
        places = play.get("places", {})
        if rec["fields"].get("script", "").endswith("microban.txt"):
            targets, crates = places.get("ps.target", []), places.get("ps.crate", [])
            if not targets or not set(targets) <= set(crates):
                fail(f"{title}: the last frame has targets at {targets}, crates at {crates}")
    elif game == "combination":
        pieces = sum(int(n) for n in re.findall(r"(\d+)\s+\S+\s+\S+", rec["fields"].get("pieces", "")))
        shown = sum(v for n, v in names.items() if re.match(r"comb\.\d+\.", n))
        if shown != pieces:
            fail(f"{title}: the last frame shows {shown} pieces, the level has {pieces}")

# 3. sorting through the control: numbers in order, levels without last
s = out["sort"]
if s["selected"] != s["field"]:
    fail(f"the sort control did not take {s['field']}")
for key, sign in (("ascending", 1), ("descending", -1)):
    vals = s[key]
    if len(vals) != out["levels"]:
        fail(f"sorted {key}: {len(vals)} cards seen for {out['levels']} levels")
    present = [float(v) for v in vals if v is not None]
    if any(v is not None for v in vals[len(present):]):
        fail(f"sorted {key}: levels without {s['field']} are not last: {vals}")
    if any(sign * (b - a) < 0 for a, b in zip(present, present[1:])):
        fail(f"sorted {key} by {s['field']}: out of order: {vals}")

# 4. filtering through the box: the levels filter keeps
f = out["filter"]
if f["cards"] != int(filter_count):
    fail(f"filter '{f['expression']}' shows {f['cards']} cards, filter -c says {filter_count}")

if charts_wanted is not None and out["charts"] != charts_wanted:
    fail(f"{out['charts']} charts shown, not {charts_wanted}")

# 5. the charts say what the records hold, bounds as bounds: a grade known
# only as a lower bound ("grade: >= medium") is drawn at its band as an
# "at least" part of the bar, never as a band of its own; a difficulty
# that is a bound or unknown has no value to draw, and the note says how
# many were left out
NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
grades = [r["fields"]["grade"].strip() for r in records if "grade" in r["fields"]]
diffs = [r["fields"]["difficulty"].strip() for r in records if "difficulty" in r["fields"]]
if out["charts"] and len(out.get("chartText", [])) != out["charts"]:
    fail("the page did not report what its charts say")
for chart in out.get("chartText", []):
    if chart["caption"] == "grade":
        lower = [g for g in grades if g.startswith(">=")]
        if any(l.startswith(">=") for l in chart["labels"]):
            fail(f"the grade chart has a band of its own for a bound: {chart['labels']}")
        if sum(chart["bars"]) != len(grades) - len(lower) or sum(chart["atLeast"]) != len(lower):
            fail(f"the grade chart draws {chart['bars']} and at least {chart['atLeast']} for "
                 f"{len(grades) - len(lower)} grades and {len(lower)} lower bounds")
        for band in {g[2:].strip() for g in lower}:
            k = chart["labels"].index(band) if band in chart["labels"] else -1
            if k < 0:
                fail(f"the grade chart has no band {band} for its lower bounds")
        if lower and str(len(lower)) not in chart["note"]:
            fail(f"the grade chart's note does not count the {len(lower)} lower bounds: '{chart['note']}'")
    elif chart["caption"].startswith("difficulty (states"):
        exact = [d for d in diffs if NUMBER.match(d)]
        if sum(chart["bars"]) != len(exact):
            fail(f"the difficulty chart counts {sum(chart['bars'])} levels, {len(exact)} have a value")
        left = len(diffs) - len(exact)
        if left and not chart["note"].startswith(f"{left} level"):
            fail(f"the difficulty chart does not say that {left} levels are not drawn: '{chart['note']}'")
        if not left and chart["note"]:
            fail(f"the difficulty chart says '{chart['note']}' with every difficulty drawn")

for msg in failures:
    print("FAIL: " + msg)
print(f"{name}: {out['levels']} levels, {len(out['plays'])} played, {out['charts']} charts, "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)
