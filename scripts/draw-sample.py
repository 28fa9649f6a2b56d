#!/usr/bin/env python3
"""draw-sample.py REPORT.json UNREAD.json [--seed N] [--loud 10] [--notes 5]

Draws the sample issue 28 asks for from a `stormcheck audit --format json`
report: per rule, LOUD warning-or-error findings and NOTES notes (all when
fewer), taken first from the findings of files docs/precision.md does not
list as read (UNREAD.json, from scripts/unread-findings.py), then, when
those run out, from the rest of the report (marked "(re-read)"). Prints one
line a finding: FILE:LINE [severity] RULE message (cut at 160 characters).

Usage: python3 scripts/unread-findings.py fresh.json > unread.json &&
       python3 scripts/draw-sample.py fresh.json unread.json --seed 7001
"""
import argparse
import json
import random

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("unread")
ap.add_argument("--seed", type=int, required=True)
ap.add_argument("--loud", type=int, default=10)
ap.add_argument("--notes", type=int, default=5)
a = ap.parse_args()

full = json.load(open(a.report))["findings"]
unread = json.load(open(a.unread))["findings"]


def key(f):
    return (f["file"], f["line"], f["rule"], f["message"])


fresh = {key(f) for f in unread}
rng = random.Random(a.seed)
groups = {}
for f in full:
    loud = "loud" if f["severity"] != "note" else "note"
    groups.setdefault((f["rule"], loud), []).append(f)
for rule, loud in sorted(groups):
    fs = groups[(rule, loud)]
    u = [f for f in fs if key(f) in fresh]
    r = [f for f in fs if key(f) not in fresh]
    rng.shuffle(u)
    rng.shuffle(r)
    for f in (u + r)[: a.loud if loud == "loud" else a.notes]:
        msg = f["message"].replace("\n", " ")[:160]
        mark = "" if key(f) in fresh else " (re-read)"
        print(f"{f['file']}:{f['line']} [{f['severity']}] {f['rule']} {msg}{mark}")
