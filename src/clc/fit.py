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


def g_erf(z):    # erf(u) = u g(u^2), z = u^2 in [0, 1]
    if z == 0:
        return 2 / mp.sqrt(mp.pi)
    u = mp.sqrt(z)
    return mp.erf(u) / u


def h_erfc(t):   # erfc(x) = exp(-x^2) h(1/x) / x, t = 1/x
    if t == 0:
        return 1 / mp.sqrt(mp.pi)
    x = 1 / t
    return mp.erfc(x) * mp.exp(x * x) * x


def g_log(f):    # log1p(f) = f + f^2 g(f), f = m - 1 in [-1/3, 1/3]
    if f == 0:
        return -mp.mpf(1) / 2
    return (mp.log1p(f) - f) / (f * f)


def p_erfc_sl(t):  # Shepherd-Laframboise: (1 + 2a) exp(a^2) erfc(a), a = 2(1 + t)/(1 - t)
    if t == 1:
        return 2 / mp.sqrt(mp.pi)
    a = 2 * (1 + t) / (1 - t)
    return (1 + 2 * a) * mp.exp(a * a) * mp.erfc(a)


FITS = {
    "erf": (g_erf, (0, 1), 7),
    "log_g": (g_log, (-mp.mpf(1) / 3, mp.mpf(1) / 3), 8),
    "erfc_sl": (p_erfc_sl, (-1, 1), 12),
    # double precision versions
    "atan_d": (g_atan, (0, mp.tan(mp.pi / 8) ** 2), 11),
    "asin_d": (g_asin, (0, mp.mpf(1) / 4), 12),
    "erf_d": (g_erf, (0, 1), 13),
    "erfc_a_d": (lambda s: h_erfc(s + mp.mpf(7) / 8), (-mp.mpf(1) / 8, mp.mpf(1) / 8), 14),
    "erfc_b_d": (lambda s: h_erfc(s + mp.mpf(5) / 8), (-mp.mpf(1) / 8, mp.mpf(1) / 8), 14),
    "erfc_c_d": (lambda s: h_erfc(s + mp.mpf(3) / 8), (-mp.mpf(1) / 8, mp.mpf(1) / 8), 14),
    "erfc_d_d": (lambda s: h_erfc(s + mp.mpf(3) / 16), (-mp.mpf(1) / 16, mp.mpf(1) / 16), 14),
    "erfc_e_d": (lambda s: h_erfc(s + mp.mpf(13) / 160), (-mp.mpf(37) / 800, mp.mpf(37) / 800), 14),
    # erfc: polynomials in s = t - centre (small coefficients, no cancellation)
    "erfc_0": (lambda s: h_erfc(s + mp.mpf(1.1666666269302368)), (-mp.mpf(1) / 6, mp.mpf(1) / 6), 9),
    "erfc_a": (lambda s: h_erfc(s + mp.mpf(3) / 4), (-mp.mpf(1) / 4, mp.mpf(1) / 4), 9),
    "erfc_b": (lambda s: h_erfc(s + mp.mpf(3) / 8), (-mp.mpf(1) / 8, mp.mpf(1) / 8), 8),
    "erfc_c": (lambda s: h_erfc(s + mp.mpf(1) / 8), (-mp.mpf(1) / 8, mp.mpf(1) / 8), 7),
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
        if name.endswith("_d"):
            print("  " + ", ".join(f"{float(c)!r}" for c in coeffs))
        else:
            print("  " + ", ".join(f"{float(c):.9e}f" for c in coeffs))


if __name__ == "__main__":
    main()
