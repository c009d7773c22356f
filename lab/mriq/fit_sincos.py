#!/usr/bin/env python3
"""The coefficients of the MRI-Q FMA-pipe sin/cos (src/families/mriq/sincos.cuh).

sin(2 pi r) = r * S(u) and cos(2 pi r) = C(u), u = r^2, r in [-1/2, 1/2]:
S of degree 5 and C of degree 6 in u, interpolating the functions at the
Chebyshev nodes of u in [0, 1/4] (near-minimax), solved exactly in rationals
from the double values. Prints the coefficients and the maximum error of the
double evaluation (1.9e-7); evaluated in float with FMAs the error is
6.1e-7 absolute (checked with 2e7 random arguments in [-60, 60] turns).
With --short: S of degree 4 and C of degree 5, the split's cheaper pair
(sincos_turns_poly_short), error 1.15e-5 (double evaluation).
No dependencies: python3 lab/mriq/fit_sincos.py [--short]
"""
from fractions import Fraction
import math
import sys


def interpolate(func, degree, a, b):
    n = degree + 1
    nodes = [(a + b) / 2 + (b - a) / 2 * math.cos(math.pi * (2 * k + 1) / (2 * n)) for k in range(n)]
    rows = [[Fraction(u) ** j for j in range(n)] for u in nodes]
    y = [Fraction(func(u)) for u in nodes]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(rows[r][i]))
        rows[i], rows[p], y[i], y[p] = rows[p], rows[i], y[p], y[i]
        for r in range(i + 1, n):
            f = rows[r][i] / rows[i][i]
            for c in range(i, n):
                rows[r][c] -= f * rows[i][c]
            y[r] -= f * y[i]
    x = [Fraction(0)] * n
    for i in reversed(range(n)):
        x[i] = (y[i] - sum(rows[i][c] * x[c] for c in range(i + 1, n))) / rows[i][i]
    return [float(v) for v in x]


def horner(c, u):
    r = 0.0
    for v in reversed(c):
        r = r * u + v
    return r


short = "--short" in sys.argv[1:]
sin_degree, cos_degree = (4, 5) if short else (5, 6)
sin_c = interpolate(lambda u: math.sin(2 * math.pi * math.sqrt(u)) / math.sqrt(u) if u > 0 else 2 * math.pi,
                    sin_degree, 0, 0.25)
cos_c = interpolate(lambda u: math.cos(2 * math.pi * math.sqrt(u)), cos_degree, 0, 0.25)
print("S", ", ".join(f"{v!r}f" for v in sin_c))
print("C", ", ".join(f"{v!r}f" for v in cos_c))
err = 0.0
for i in range(200001):
    r = -0.5 + i / 200000
    err = max(err, abs(r * horner(sin_c, r * r) - math.sin(2 * math.pi * r)),
              abs(horner(cos_c, r * r) - math.cos(2 * math.pi * r)))
print(f"max error (double evaluation) {err:.3g}")
