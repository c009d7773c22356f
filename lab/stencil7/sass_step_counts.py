#!/usr/bin/env python3
"""SASS instructions per z step of stencil7's temporal_blocking kernels.

Reads `cuobjdump -sass` of the built object, finds each stencil7_temporal
kernel's loops (a backward branch and its target) and prints, per loop, the
instructions of its body by opcode. A loop holds one step (the guarded steps)
or three (the steady steps, unrolled by 3): divide by the BAR.SYNC count.
A steady step holds two paths, the test-free one and the one with selects,
chosen per warp: per step, the instructions both paths share and each
path's own ("path A" falls through the branch, "path B" is its target).

  cuobjdump -sass build/release/src/CMakeFiles/tessera.dir/families/stencil7/06_temporal_blocking.cu.o > t.sass
  python3 lab/stencil7/sass_step_counts.py t.sass [IfLi4]

Static counts: a branch's skipped side is counted too. docs/stencil7.md
quotes them per cell-sweep: per step / (4 rows x S levels) x 1.524 (halo)
x 1.0625 (z re-read), for float S = 4.
"""
import collections
import re
import sys


def instructions(body):
    return [(int(m.group(1), 16), m.group(2).strip())
            for m in re.finditer(r'/\*([0-9a-f]{4,})\*/\s+([^;]*);', body)]


def opcode(text):
    return re.sub(r'^@!?U?P\w+\s+', '', text).split()[0].split('.')[0]


def main():
    text = open(sys.argv[1]).read()
    want = sys.argv[2] if len(sys.argv) > 2 else 'stencil7_temporal'
    for kernel in re.split(r'\n\s*Function : ', text)[1:]:
        name = kernel.split('\n', 1)[0].strip()
        if 'stencil7_temporal' not in name or want not in name:
            continue
        ins = instructions(kernel)
        at = {a: k for k, (a, _) in enumerate(ins)}
        print(f'{name}: {len(ins)} instructions')
        for k, (a, s) in enumerate(ins):
            if 'BRA' not in s:
                continue
            target = re.search(r'0x([0-9a-f]+)', s.split('BRA', 1)[1])
            if not target or int(target.group(1), 16) > a or int(target.group(1), 16) == a:
                continue
            body = ins[at[int(target.group(1), 16)]:k + 1]
            steps = sum('BAR.SYNC' in t for _, t in body)
            if steps == 0:
                continue  # not a z loop (the guard rows' initialisation)
            ops = collections.Counter(opcode(t) for _, t in body)
            print(f'  loop {body[0][0]:#x}-{a:#x}: {len(body)} instructions, {steps} step(s), '
                  f'{len(body) / steps:.0f} per step; ' + ' '.join(f'{o}:{n}' for o, n in ops.most_common()))
            if steps > 1:
                paths(body)


def paths(body):
    """Per step of an unrolled loop: the two-way branch whose fall-through
    side ends with a jump to the point where both sides join."""
    start = 0
    for k, (_, t) in enumerate(body):
        if 'BAR.SYNC' not in t:
            continue
        step = body[start:k + 1]
        start = k + 1
        split = None
        for m, (a, u) in enumerate(step):
            hit = re.match(r'@!?P\d BRA (?:`\(\.L_x_\d+\)\s*)?0x([0-9a-f]+)', u)
            if not hit:
                continue
            target = int(hit.group(1), 16)
            before = [n for n, (b, _) in enumerate(step) if b == target]
            if before and re.match(r'BRA 0x([0-9a-f]+)', step[before[0] - 1][1]):
                join = int(re.match(r'BRA 0x([0-9a-f]+)', step[before[0] - 1][1]).group(1), 16)
                ends = [n for n, (b, _) in enumerate(step) if b == join]
                if ends:
                    split = (m, before[0], ends[0])
                    break
        if split is None:
            print(f'    step: {len(step)} instructions, one path')
            continue
        m, b, e = split
        a_len, b_len = b - m - 1, e - b
        shared = len(step) - a_len - b_len
        fsel = lambda seg: sum(opcode(t) == 'FSEL' for _, t in seg)
        print(f'    step: shared {shared}, path A {a_len} ({fsel(step[m + 1:b])} FSEL), '
              f'path B {b_len} ({fsel(step[b:e])} FSEL)')


if __name__ == '__main__':
    main()
