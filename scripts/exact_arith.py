"""Exact float rounding for the generators' models (scripts/gen_golden.py,
scripts/gen_exact_integers.py): rationals rounded as IEEE arithmetic rounds them."""

from fractions import Fraction


def round_to_bits(q, bits):
    """Rounds the rational q to `bits` significant bits, half to even (no exponent limits)."""
    if q == 0:
        return Fraction(0)
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if a < Fraction(2) ** e:
        e -= 1  # now 2**e <= a < 2**(e+1)
    scale = Fraction(2) ** (bits - 1 - e)
    rounded = Fraction(round(a * scale)) / scale  # round() of a Fraction is half-to-even
    return rounded if q > 0 else -rounded
