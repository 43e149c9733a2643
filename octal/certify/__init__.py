"""An independent check of octal's periodicity certificates, written from the definitions alone.

    python -m octal.certify FILE [--max-bound HEAPS] [--workers N] [--codes 0.16,0.F8]

It imports nothing of octal outside this folder (only the standard library and numpy), so a reader can audit it by
itself: rules.py (the digits and the mex), saltus.py (the power-of-two saltus theorem), check.py (each row),
fileformat.py (the file). For each certificate row (a code d0.d1…dk, octal or hexadecimal, a preperiod n0, a period
p, a saltus s: G(n + p) = G(n) + s for n ≥ n0, s = 0 for a plain period) it

1. computes the bound B the row's theorem needs: for s = 0, B = r·max(n0, 1) + r·p + t (t: the last non-zero digit's
   index; r: the most heaps a move leaves, 1, 2 or 3), the periodicity theorem of Guy and Smith (1956; Winning Ways
   ch. 4: past max(n0,1) ≤ n < r·max(n0,1) + (r − 1)·p + t, every option of n + p leaves a heap of at least
   max(n0,1) + p, which induction pairs with the heap p smaller); for s > 0, the bound of the power-of-two saltus
   theorem (docs/periodicity.md), its conditions (A)–(D) checked on the shapes of the code's moves, for (k·p, k·s)
   with the first k = 1, 2, 4, 8, 16 that passes — and the row's stated bound must be that B;
2. builds G(0), G(1), … from the values stored for the row's class through heap n0 + p − 1, and beyond by the claimed
   rule G(n) = G(n − p) + s, up to B, and checks that every G(n), n < B, is the mex of its options (rules.py);
3. so the true values follow the rule through B, which by the theorem gives it for every n ≥ n0;
4. and checks that p is the least (no p/f, f a prime factor of p, is one from n0 on, with any saltus), that n0 is
   the least start (G(n0 − 1 + p) ≠ G(n0 − 1) + s), and the largest value through n0 + p − 1.

A row whose block does not hold its values through n0 + p is refuted first; the first PREFIX heaps are checked with
tables of their own before the tables of the whole bound, so a claim false early costs little. Rows whose bound
exceeds --max-bound are listed as not reached, never as proven; so are rows whose tables would pass MAX_TABLES bytes,
whose three-heap table would set more than MAX_WORK entries, or past the theorem's limits (exit 2). Exit status: 0
when no row is refuted, 1 when one is (each named on stdout), 2 when the file cannot be read or a row cannot be checked.

File format (written by `octal census certificates`): an xz stream holding the line `octal-certificates 1`, one line
of JSON {"columns": [...], "rows": [[code, block, preperiod, period, saltus, bound, max_value], ...], "blocks":
[{"dtype": "uint8", "length": L}, ...]}, then each block's L values, little-endian, one block after the other.
"""

from .check import MAX_TABLES, MAX_WORK, PREFIX, TOO_LARGE, check_group, verify
from .cli import main
from .fileformat import COLUMNS, MAGIC, MAX_HEADER, MAX_VALUES, CertificateError, read_certificates
from .rules import digits, guy_smith_bound, mex_values, pair_values, triple_values, values_for, width_for
from .saltus import saltus_bound

__all__ = ["COLUMNS", "MAGIC", "MAX_HEADER", "MAX_TABLES", "MAX_VALUES", "MAX_WORK", "PREFIX", "TOO_LARGE",
           "CertificateError", "check_group", "digits", "guy_smith_bound", "main", "mex_values", "pair_values",
           "read_certificates", "saltus_bound", "triple_values", "values_for", "verify", "width_for"]
