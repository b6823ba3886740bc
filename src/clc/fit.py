#!/usr/bin/env python3
"""Fit the builtin library's polynomial coefficients (run by hand; its output is pasted
into the .cl files, which say which fit they use).

Each fit is a near-minimax Chebyshev approximation (mpmath.chebyfit) of a smooth
auxiliary function g on an interval, printed as float literals highest degree first
(Horner order) with the fit's absolute error. usage: python3 src/clc/fit.py [NAME...]
"""
import sys
import mpmath as mp

mp.mp.prec = 120


def g_atan(z):   # atan(u) = u + u^3 g(u^2), u^2 in [0, tan(pi/8)^2]
    if z == 0:
        return mp.mpf(-1) / 3
    u = mp.sqrt(z)
    return (mp.atan(u) / u - 1) / z


def g_asin(z):   # asin(u) = u + u z g(z), z = u^2 in [0, 1/4]
    if z == 0:
        return mp.mpf(1) / 6
    u = mp.sqrt(z)
    return (mp.asin(u) / u - 1) / z


FITS = {
    "atan": (g_atan, (0, mp.tan(mp.pi / 8) ** 2), 5),
    "asin": (g_asin, (0, mp.mpf(1) / 4), 6),
}


def main():
    names = sys.argv[1:] or list(FITS)
    for name in names:
        g, interval, degree = FITS[name]
        coeffs, err = mp.chebyfit(g, interval, degree + 1, error=True)
        print(f"{name}: degree {degree} on [{mp.nstr(interval[0], 6)}, "
              f"{mp.nstr(interval[1], 6)}], abs error {mp.nstr(err, 3)}")
        print("  " + ", ".join(f"{float(c):.9e}f" for c in coeffs))


if __name__ == "__main__":
    main()
