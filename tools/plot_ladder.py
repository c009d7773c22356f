#!/usr/bin/env python3
"""Draw each problem's ladder from `tessera bench --json` output.

One PNG per (pattern, problem): achieved GB/s (or GFLOP/s for compute-bound
patterns) per variant in ladder order, coloured by kind, with the measured
device ceiling as a line. Also prints a markdown table per problem, which the
docs pages are generated from.

  tools/plot_ladder.py bench.json --out docs/plots [--markdown docs/results/table.md]
  tools/plot_ladder.py --check bench.json      # validate the schema (CI), draw to a temp dir
"""
import argparse
import json
import os
import re
import sys
import tempfile

REQUIRED_TOP = ["device", "results"]
REQUIRED_RESULT = ["pattern", "variant", "kind", "step", "type", "op", "shape", "problem", "verified", "max_rel_err"]
TIMED_RESULT = ["time_ms", "gbps", "gflops", "pct_ceiling", "vs_vendor", "vs_naive"]
KINDS = {"reference": "#888888", "seed": "#4878a8", "tessera": "#d95f02", "vendor": "#1b9e77"}


def validate(doc):
    errors = []
    for key in REQUIRED_TOP:
        if key not in doc:
            errors.append(f"missing top-level field '{key}'")
    for i, r in enumerate(doc.get("results", [])):
        for key in REQUIRED_RESULT:
            if key not in r:
                errors.append(f"results[{i}] ({r.get('variant')}): missing '{key}'")
        if r.get("kind") not in KINDS:
            errors.append(f"results[{i}]: kind '{r.get('kind')}' is not one of {sorted(KINDS)}")
        if r.get("verified") and "time_ms" in r:
            for key in TIMED_RESULT:
                if key not in r:
                    errors.append(f"results[{i}] ({r.get('variant')}): timed but missing '{key}'")
    return errors


def group_problems(doc):
    groups = {}
    for r in doc["results"]:
        groups.setdefault((r["pattern"], r["problem"]), []).append(r)
    return groups


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def markdown(doc):
    lines = []
    dev = doc.get("device") or {}
    for (pattern, problem), rows in group_problems(doc).items():
        lines.append(f"### {pattern} · {problem}\n")
        lines.append(f"{dev.get('name', 'no GPU')}; copy ceiling {dev.get('copy_gbps', 0):.0f} GB/s\n")
        lines.append("| step | variant | kind | time (ms) | GB/s | % ceiling | vs naive | vs vendor |")
        lines.append("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            if not r["verified"] or "time_ms" not in r:
                lines.append(f"| {r['step']} | {r['variant']} | {r['kind']} | failed | | | | |")
                continue
            f = lambda v, s="{:.2f}": "-" if v is None else s.format(v)
            lines.append(f"| {r['step']} | {r['variant']} | {r['kind']} | {r['time_ms']:.4f} | {r['gbps']:.1f} | "
                         f"{f(r['pct_ceiling'], '{:.1f}')} | {f(r['vs_naive'], '{:.2f}×')} | {f(r['vs_vendor'], '{:.2f}×')} |")
        lines.append("")
    return "\n".join(lines)


def plot(doc, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(out_dir, exist_ok=True)
    dev = doc.get("device") or {}
    host = doc.get("host") or {}
    written = []
    for (pattern, problem), rows in group_problems(doc).items():
        rows = [r for r in rows if r.get("verified") and r.get("time_ms")]
        if not rows:
            continue
        bound = next((r.get("bound") for r in rows if r.get("bound")), "memory")
        compute = bound != "memory"
        key, unit, ceiling_key = {
            "memory": ("gbps", "GB/s", "copy_gbps"),
            "compute": ("gflops", "GFLOP/s", "fp32_gflops"),
            "special": ("special_gops", "G MUFU ops/s", "mufu_gops"),
        }[bound]
        fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(rows) + 2), 4.5))
        names = [f"{r['step']}·{r['variant']}" for r in rows]
        values = [r.get(key, 0) for r in rows]
        ax.bar(range(len(rows)), values, color=[KINDS[r["kind"]] for r in rows])
        ceiling = dev.get(ceiling_key)
        if ceiling:
            ax.axhline(ceiling, color="black", linestyle="--", linewidth=1)
            ax.text(len(rows) - 0.5, ceiling, f" GPU ceiling {ceiling:.0f} {unit}", va="bottom", ha="right", fontsize=8)
        if not compute and host.get("copy_gbps"):
            ax.axhline(host["copy_gbps"], color="gray", linestyle=":", linewidth=1)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel(unit)
        ax.set_title(f"{pattern}: {problem}\n{dev.get('name', 'CPU only')}", fontsize=10)
        handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in KINDS.values()]
        ax.legend(handles, KINDS.keys(), fontsize=8, loc="upper left")
        fig.tight_layout()
        path = os.path.join(out_dir, f"{slug(pattern)}__{slug(problem)}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="output of tessera bench --json")
    ap.add_argument("--out", default="ladder-plots", help="directory for the PNGs")
    ap.add_argument("--markdown", help="also write the markdown tables to this file")
    ap.add_argument("--check", action="store_true", help="validate the schema and draw to a temporary directory")
    args = ap.parse_args()

    with open(args.json) as f:
        doc = json.load(f)
    errors = validate(doc)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        sys.exit(1)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            written = plot(doc, tmp)
            print(f"plot_ladder: schema ok, {len(doc['results'])} results, {len(written)} plots drawn")
        return
    written = plot(doc, args.out)
    for p in written:
        print(p)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(doc))
        print(args.markdown)


if __name__ == "__main__":
    main()
