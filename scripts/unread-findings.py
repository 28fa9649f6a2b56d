#!/usr/bin/env python3
"""unread-findings.py REPORT.json [--read docs/precision.md] > UNREAD.json

Keeps the findings of a `stormcheck audit --format json` report whose files
docs/precision.md does not list as read, for ../shared/tools/sample-findings.py
to draw from. That tool's --exclude-read takes the names it finds with
[\\w./@+-]+\\.json, which cannot hold a space, so a file named with spaces (most
of n8n-fresh) is never left out: part FP's draw held 68 files read before in
its 78. This reads each list item of the document whole: every `quoted` path in
it, else the item up to its first ".json" ("- owner__repo/name.json", below the
corpus folder or naming it; an "RS101: " label before it is dropped).

Usage: python3 scripts/unread-findings.py fresh.json > unread.json &&
       python3 ../shared/tools/sample-findings.py unread.json --per-rule 10 --notes 5 --seed N
"""
import argparse
import json
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("--read", default="docs/precision.md")
a = ap.parse_args()


def below_corpus(path):
    # "../shared/corpus/n8n-fresh/owner__repo/x.json", "n8n-fresh/owner__repo/x.json"
    # and "owner__repo/x.json" alike
    return re.sub(r"^(?:.*?/corpus/[^/]+/|n8n-(?:fresh|more|real)/)", "", path)


read = set()
with open(a.read, encoding="utf-8") as doc:
    for line in doc:
        s = line.strip()
        if s.startswith("- ") and ".json" in s:
            quoted = re.findall(r"`([^`]*?\.json)`", s)
            if quoted:  # "- RS101: `a.json`, `b.json`"
                read.update(below_corpus(q) for q in quoted)
                continue
            m = re.match(r"(?:RS\d{3}[^:]*:\s*)?(.*?\.json)", s[2:])
            if m:
                read.add(below_corpus(m.group(1).strip()))
rep = json.load(open(a.report, encoding="utf-8"))
kept = [f for f in rep.get("findings", []) if below_corpus(f.get("file", "")) not in read]
print(f"{len(read)} files listed as read; {len(rep.get('findings', []))} findings, {len(kept)} outside them", file=sys.stderr)
rep["findings"] = kept
json.dump(rep, sys.stdout)
