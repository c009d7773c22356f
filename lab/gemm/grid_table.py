#!/usr/bin/env python3
"""Summarise a gemm size-grid run for policy.hpp's SHAPE_RULES.

    tessera-lab bench gemm --input lab/gemm/size_grid.txt --json grid.json
    python3 lab/gemm/grid_table.py grid.json [more.json ...]

For each A*B shape: m * n / SMs (the rules' band key), cublas_sgemm's time,
the API pick's (warp_tiled) vs_vendor, and the fastest verified
(tile, splits) among the rows warp_tiled_<tile> (splits 1) and
warp_tiled_<tile>_split<S>, with the runners-up. A rule is then
{band upper bound, least k, tile, splits, "<GPU>: <shape> <vs_vendor> (<file>)"}.
"""
import json
import os
import re
import sys

# The product's tile configurations (a rule may name only these); other lab
# rows are listed with a '*'.
POLICY = os.path.join(os.path.dirname(__file__), "..", "..", "src", "families", "gemm", "policy.hpp")
try:
    with open(POLICY) as f:
        PRODUCT_TILES = set(re.findall(r'\{"([0-9a-z_x]+)", \d+, \d+, \d+, [\d.]+,', f.read()))
except OSError:
    PRODUCT_TILES = set()

SPLIT = re.compile(r"^warp_tiled_(?P<tile>.+?)(?:_split(?P<splits>\d+))?$")


def main(paths):
    rows, sms, gpu = {}, None, None
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        sms = sms or doc.get("device", {}).get("sm_count")
        gpu = gpu or doc.get("device", {}).get("name")
        for r in doc.get("results", []):
            if r.get("pattern") != "gemm" or not str(r.get("op", "")).startswith("ab"):
                continue
            rows.setdefault(r["problem"], []).append(r)
    print(f"# {gpu}, {sms} SMs; vs = cublas_sgemm time / row time (> 1: faster than cuBLAS)")
    print(f"{'problem':34} {'C/SM':>8} {'cuBLAS ms':>10} {'pick':>6}  best (tile, splits, vs)   next")
    for problem, rs in rows.items():
        vendor = next((r for r in rs if r["variant"] == "cublas_sgemm" and r.get("verified")), None)
        pick = next((r for r in rs if r["variant"] == "warp_tiled" and r.get("verified")), None)
        cands = []
        for r in rs:
            m = SPLIT.match(r["variant"])
            if not m or not r.get("verified") or not r.get("time_ms") or m.group("tile").endswith("stream_k"):
                continue
            tile = m.group("tile") + ("" if m.group("tile") in PRODUCT_TILES or not PRODUCT_TILES else "*")
            cands.append((r["time_ms"], tile, int(m.group("splits") or 1)))
        cands.sort()
        m_, n_, k_ = (rs[0].get("shape") or [0, 0, 0])[:3]
        c_per_sm = m_ * n_ / sms if sms else float("nan")
        vt = vendor["time_ms"] if vendor else None

        def vs(t):
            return f"{vt / t:.2f}x" if vt else "  -  "

        best = f"{cands[0][1]}, {cands[0][2]}, {vs(cands[0][0])}" if cands else "-"
        nxt = "; ".join(f"{t}/{s} {vs(ms)}" for ms, t, s in cands[1:4])
        print(f"{problem:34} {c_per_sm:8.0f} {vt if vt else float('nan'):10.4f} "
              f"{vs(pick['time_ms']) if pick else '  -  ':>6}  {best:24} {nxt}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
