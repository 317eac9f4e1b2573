#!/usr/bin/env python3
"""svg_sheet_check.py - judge an SVG sheet levelkit drew (-f svg of several
levels) against the records it was drawn from, parsing the SVG as XML:

  - every level is there, in input order, with a caption that is its title
    or its title shortened in the middle (an ellipsis, more of the end kept);
  - each caption sits under its own level: centred on it, less than a cell
    below its bottom edge, and nearer to it than to any other level's box
    (no caption reads as another row's);
  - captions of one row do not run into each other (at 0.6 em a letter);
  - the sheet is at most 1600 pixels wide and not mostly empty: its area is
    at most three times the levels' own (with their caption lines).

usage: svg_sheet_check.py SHEET.svg RECORDS.xsb NAME
The records' grids give each level's size in cells (24 units a cell).
Prints one line per failure and exits 1 if there is any.
"""
import re
import sys
import xml.etree.ElementTree as ET

svg_path, xsb_path, name = sys.argv[1:4]
U = 24
NS = "{http://www.w3.org/2000/svg}"
failures = []


def fail(msg):
    failures.append(f"{name}: {msg}")


# the records: title (title field, else the last comment before the
# grid) and the grid's size in cells
records = []
for block in re.split(r"\n\s*\n", open(xsb_path, encoding="utf-8").read()):
    title, comment, grid = None, None, []
    for line in block.split("\n"):
        if not line.strip():
            continue
        if line.startswith(";"):
            if not grid and line[1:].strip():
                comment = line[1:].strip()
            continue
        m = re.match(r"^([A-Za-z][A-Za-z0-9_.-]*):\s?(.*)$", line)
        if m:
            if m.group(1).lower() == "title" and m.group(2).strip():
                title = m.group(2).strip()
            continue
        grid.append(line.rstrip("\r"))
    if grid:
        records.append({"title": title or comment, "w": max(len(r) for r in grid), "h": len(grid)})


def translate(el):
    m = re.search(r"translate\((-?\d+)[ ,](-?\d+)\)", el.get("transform", ""))
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


root = ET.parse(svg_path).getroot()
vb = [float(v) for v in root.get("viewBox").split()]
width_px = float(root.get("width"))
levels = []
for g in root.findall(f"{NS}g"):
    if g.get("class") != "level":
        continue
    gx, gy = translate(g)
    tip = g.find(f"{NS}title")
    pic = [c for c in g if c.tag == f"{NS}g"]
    caps = [c for c in g if c.tag == f"{NS}text"]
    if len(pic) != 1 or len(caps) != 1:
        fail(f"a level group has {len(pic)} pictures and {len(caps)} captions")
        continue
    ox, oy = translate(pic[0])
    cap = caps[0]
    levels.append({"x": gx + ox, "y": gy + oy, "tip": tip.text if tip is not None else None,
                   "cx": gx + float(cap.get("x")), "cy": gy + float(cap.get("y")),
                   "size": float(cap.get("font-size")), "text": cap.text or ""})

if len(levels) != len(records):
    fail(f"{len(levels)} levels on the sheet, {len(records)} records")
for lv, rec in zip(levels, records):
    lv["w"], lv["h"] = rec["w"] * U, rec["h"] * U
    title, text = rec["title"], lv["text"]
    if lv["tip"] != title:
        fail(f"the tooltip is '{lv['tip']}', the title '{title}'")
    if text != title:
        head, sep, tail = text.partition("\u2026")
        if not sep or not title.startswith(head) or not title.endswith(tail) or len(tail) < len(head) \
                or len(head) + len(tail) >= len(title):
            fail(f"the caption '{text}' is not '{title}' shortened in the middle")

for i, lv in enumerate(levels):
    below = lv["cy"] - (lv["y"] + lv["h"])
    if abs(lv["cx"] - (lv["x"] + lv["w"] / 2)) > 1:
        fail(f"'{lv['text']}' is not centred under its level ({lv['cx']} for {lv['x']}+{lv['w']}/2)")
    if not 0 < below <= U:
        fail(f"'{lv['text']}' is {below} units below its level's bottom edge, not within a cell")
    for j, other in enumerate(levels):
        if j == i or not other["x"] <= lv["cx"] <= other["x"] + other["w"]:
            continue
        if other["y"] <= lv["cy"] <= other["y"] + other["h"]:
            fail(f"'{lv['text']}' lies on level {j + 1}")
        d = min(abs(lv["cy"] - other["y"]), abs(lv["cy"] - other["y"] - other["h"]))
        if d <= below:
            fail(f"'{lv['text']}' is as near to level {j + 1} ({d}) as to its own ({below})")
    half = len(lv["text"]) * 0.6 * lv["size"] / 2
    for other in levels[i + 1:]:
        if other["cy"] != lv["cy"]:
            continue
        ohalf = len(other["text"]) * 0.6 * other["size"] / 2
        if lv["cx"] + half > other["cx"] - ohalf and other["cx"] + ohalf > lv["cx"] - half:
            fail(f"the captions '{lv['text']}' and '{other['text']}' overlap")

if width_px > 1600:
    fail(f"the sheet is {width_px:.0f} pixels wide")
own = sum(lv["w"] * (lv["h"] + U) for lv in levels)
if own and vb[2] * vb[3] > 3 * own + 600 * 600:
    fail(f"the sheet's area is {vb[2] * vb[3] / own:.1f} times the levels' own")

for msg in failures:
    print("FAIL: " + msg)
print(f"{name}: {len(levels)} levels, {vb[2]:.0f} x {vb[3]:.0f} units, {width_px:.0f} px wide, "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)
