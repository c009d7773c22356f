#!/usr/bin/env python3
"""Writes the ladder tables of the docs from a `tessera bench --json` file, so
that the figures on a page are the figures of the committed run.

  tools/ladder_table.py RESULTS.json --problem LABEL      print one table
  tools/ladder_table.py RESULTS.json --update docs/x.md   refill every table
                                                         under a marker

A marker is a line `<!-- ladder-table: LABEL -->` (LABEL as in the JSON's
"problem" field, e.g. `float sum n=268435456`); the table below it (up to the
first line that does not start with `|`) is replaced. Several JSON files may
be given: the first that has the problem wins.
"""
import argparse
import gzip
import json
import re
import sys

MARKER = re.compile(r"^<!-- ladder-table: (.+?)(?: \| (\w+))? -->$")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def rows_of(results, label, pattern=None):
    return [r for r in results if r.get("problem") == label and (pattern is None or r.get("pattern") == pattern)]


def fmt(v, spec):
    return "–" if v is None else format(v, spec)


def table(rows):
    out = ["| step | variant | role | what it adds | time ms | % of ceiling | vs vendor |",
           "| ---: | --- | --- | --- | ---: | ---: | ---: |"]
    for r in rows:
        name = f"**{r['variant']}**" if r.get("api_pick") else f"`{r['variant']}`"
        if not r.get("verified"):
            out.append(f"| {r['step']} | {name} | {r.get('role', r['kind'])} | {r['adds']} | failed | | |")
            continue
        out.append(f"| {r['step']} | {name} | {r.get('role', r['kind'])} | {r['adds']} | {fmt(r.get('time_ms'), '.4f')} "
                   f"| {fmt(r.get('pct_ceiling'), '.1f')} | {fmt(r.get('vs_vendor'), '.2f')}× |".replace("–×", "–"))
    return "\n".join(out)


def update(doc, results):
    lines = open(doc).read().split("\n")
    out, i, missing = [], 0, []
    while i < len(lines):
        out.append(lines[i])
        m = MARKER.match(lines[i].strip())
        i += 1
        if not m:
            continue
        rows = rows_of(results, m.group(1), m.group(2))
        while i < len(lines) and lines[i].startswith("|"):
            i += 1
        if rows:
            out.append(table(rows))
        else:
            missing.append(m.group(1))
    open(doc, "w").write("\n".join(out))
    return missing


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("--problem")
    ap.add_argument("--update", action="append", default=[])
    a = ap.parse_args()
    # The first file that has a problem gives all of its rows.
    results, seen = [], set()
    for path in a.json:
        rows = load(path)["results"]
        keys = {(r.get("problem"), r.get("pattern")) for r in rows}
        results += [r for r in rows if (r.get("problem"), r.get("pattern")) not in seen]
        seen |= keys
    if a.problem:
        print(table(rows_of(results, a.problem)))
    for doc in a.update:
        for label in update(doc, results):
            print(f"{doc}: no results for '{label}'", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
