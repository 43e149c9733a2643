"""An independent check of octal's periodicity certificates, written from the definitions alone.

    python -m octal.certify FILE [--max-bound HEAPS] [--workers N] [--codes 0.16,4.07]

It imports nothing of octal (only the standard library and numpy), so a reader can audit it by itself. For each
certificate row (an octal code d0.d1d2…dk, a preperiod n0, a period p) it

1. builds G(0), G(1), … from the values stored for the row's class, through heap n0 + p − 1, and beyond by the claimed
   period, G(n) = G(n − p), up to the bound B = r·max(n0, 1) + r·p + t (t: the last non-zero digit's index; r: the
   most heaps a move leaves, 2 when some digit has the 4 bit, else 1);
2. checks that every G(n), n < B, is the mex of the values of the options the digits allow: digit d_k = b1 + 2·b2 +
   4·b4 lets a move remove k tokens from a heap and leave no heap (b1, only when the heap has exactly k), one heap
   (b2, of n − k ≥ 1) or two heaps (b4, of sizes a + b = n − k, a, b ≥ 1), whose value is G(a) xor G(b);
3. so the true values satisfy G(n + p) = G(n) for max(n0, 1) ≤ n < r·max(n0, 1) + (r − 1)·p + t, which by the
   periodicity theorem for octal games (Guy and Smith 1956; Winning Ways ch. 4: for n past that range, every option
   of n + p leaves heaps of which at most one is below n0 + p, so induction on n pairs the options of n and n + p)
   gives G(n + p) = G(n) for every n ≥ n0;
4. and checks that p is the least period (no p/f, f a prime factor of p, is one from n0 on), that n0 is the least
   start (G(n0 − 1) ≠ G(n0 − 1 + p)), and the row's largest value.

Rows whose bound exceeds --max-bound are listed as not reached, never as proven. Exit status: 0 when no row is
refuted, 1 when one is (each named on stdout), 2 when the file cannot be read.

File format (written by `octal census certificates`): an xz stream holding the line `octal-certificates 1`, one line
of JSON {"columns": [...], "rows": [[code, block, preperiod, period, saltus, bound, max_value], ...], "blocks":
[{"dtype": "uint8", "length": L}, ...]}, then each block's L values, little-endian, one block after the other.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

MAGIC = b"octal-certificates 1\n"
MAX_HEADER = 64 << 20  # bytes of the JSON line at most: a hostile file cannot make the reader hold more
MAX_VALUES = 1 << 28  # bytes of values at most, all blocks together (the 4-digit table's hold 30 MB)
MAX_TABLES = 1 << 30  # bytes of the two mex tables of one group at most (2 × bound × (largest value + 2) booleans;
# the 4-digit table's largest within 100,000 heaps need 18 MB): a row past it is not checked, and the verifier exits 2
TOO_LARGE = "too large"  # check_group's word for a group whose tables would pass MAX_TABLES
DTYPES = {"uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32}
COLUMNS = ["code", "block", "preperiod", "period", "saltus", "bound", "max_value"]


class CertificateError(Exception):
    """A certificate file that cannot be read as one."""


def _read_exact(dec: lzma.LZMADecompressor, f, want: int, have: bytearray) -> bytes:
    """`want` more decompressed bytes (never more than that in memory beyond `have`)."""
    while len(have) < want:
        if dec.eof:
            raise CertificateError(f"the file ends after {len(have):,} of the {want:,} bytes it declares")
        chunk = f.read(1 << 16) if dec.needs_input else b""
        if dec.needs_input and not chunk:
            raise CertificateError("the file is cut short")
        have += dec.decompress(chunk, max_length=want - len(have))
    out = bytes(have[:want])
    del have[:want]
    return out


def _header_line(dec: lzma.LZMADecompressor, f, have: bytearray) -> bytes:
    while b"\n" not in have:
        if len(have) > MAX_HEADER:
            raise CertificateError(f"its header is longer than {MAX_HEADER:,} bytes")
        if dec.eof:
            raise CertificateError("the file ends inside its header")
        chunk = f.read(1 << 16) if dec.needs_input else b""
        if dec.needs_input and not chunk:
            raise CertificateError("the file is cut short inside its header")
        have += dec.decompress(chunk, max_length=1 << 20)
    line, _, rest = bytes(have).partition(b"\n")
    have[:] = rest
    return line


def _int(value, what: str, least: int = 0) -> int:
    if type(value) is not int or value < least:
        raise CertificateError(f"{what} is {str(value)[:40]!r}, not a whole number ≥ {least}")
    return value


def read_certificates(path: str) -> tuple[list[dict], list[np.ndarray]]:
    """The rows and the value blocks of a certificate file, every field checked before use."""
    try:
        with open(path, "rb") as f:
            dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
            have = bytearray()
            if _read_exact(dec, f, len(MAGIC), have) != MAGIC:
                raise CertificateError("it does not start with 'octal-certificates 1'")
            try:
                head = json.loads(_header_line(dec, f, have))
            except (ValueError, UnicodeDecodeError, RecursionError) as exc:
                raise CertificateError(f"its header is not JSON ({str(exc)[:80]})") from None
            if not isinstance(head, dict) or head.get("columns") != COLUMNS:
                raise CertificateError(f"its header does not name the columns {', '.join(COLUMNS)}")
            blocks_in, rows_in = head.get("blocks"), head.get("rows")
            if not isinstance(blocks_in, list) or not isinstance(rows_in, list):
                raise CertificateError("its header has no list of blocks and rows")
            sizes = []
            for i, b in enumerate(blocks_in):
                if not isinstance(b, dict) or b.get("dtype") not in DTYPES:
                    raise CertificateError(f"block {i} has no dtype among {', '.join(DTYPES)}")
                sizes.append((DTYPES[b["dtype"]], _int(b.get("length"), f"block {i}'s length", 1)))
            total = sum(np.dtype(d).itemsize * n for d, n in sizes)
            if total > MAX_VALUES:
                raise CertificateError(f"its blocks declare {total:,} bytes of values, above {MAX_VALUES:,}")
            blocks = [np.frombuffer(_read_exact(dec, f, np.dtype(d).itemsize * n, have),
                                    dtype=np.dtype(d).newbyteorder("<")) for d, n in sizes]
            more = b"" if dec.eof else dec.decompress(f.read(1 << 16), max_length=1)
            if have or more or (dec.eof and (dec.unused_data or f.read(1))):
                raise CertificateError("it holds more than its header declares")
            if not dec.eof:
                raise CertificateError("the file is cut short (its xz stream does not end)")
    except OSError as exc:
        raise CertificateError(exc.strerror or str(exc)) from None
    except (lzma.LZMAError, EOFError) as exc:
        raise CertificateError(f"it is not an xz stream ({exc})") from None
    rows = []
    for i, r in enumerate(rows_in):
        if not isinstance(r, list) or len(r) != len(COLUMNS) or not isinstance(r[0], str):
            raise CertificateError(f"row {i} is not [{', '.join(COLUMNS)}]")
        row = dict(zip(COLUMNS, r))
        for k in COLUMNS[1:]:
            _int(row[k], f"row {i} ({r[0][:20]}) {k}", 1 if k == "period" else 0)
        if row["block"] >= len(blocks):
            raise CertificateError(f"row {i} ({row['code'][:20]}) names block {row['block']}, of {len(blocks)}")
        rows.append(row)
    return rows, blocks


def digits(code: str) -> list[int]:
    """d0, d1, …, dk of an octal code 'd0.d1…dk' (d0 is 0 or 4: a move may split a heap without removing)."""
    head, dot, body = code.partition(".")
    if not dot or head not in ("0", "4") or not body or any(c not in "01234567" for c in body):
        raise ValueError(f"{code[:20]!r} is not an octal code 0.d1…dk or 4.d1…dk")
    return [int(head)] + [int(c) for c in body]


def bound(d: list[int], n0: int, p: int) -> int:
    """Heaps 0..B−1 whose values prove the period: G(n + p) = G(n) for max(n0,1) ≤ n < r·max(n0,1) + (r−1)·p + t,
    r the most heaps a move leaves (2 when a digit has the 4 bit, else 1), t the last non-zero digit's index."""
    t = max(k for k, x in enumerate(d) if x) if any(d) else 0
    r = 2 if any(x & 4 for x in d) else 1
    return r * max(n0, 1) + r * p + t


def values_for(block: np.ndarray, n0: int, p: int, length: int) -> np.ndarray:
    """G(0..length−1): the stored values through n0 + p − 1, then G(n) = G(n − p)."""
    G = np.empty(length, dtype=np.int64)
    head = min(length, n0 + p)
    G[:head] = block[:head]
    for start in range(n0 + p, length, p):
        stop = min(start + p, length)
        G[start:stop] = G[start - p:stop - p]
    return G


def pair_values(G: np.ndarray, width: int) -> np.ndarray:
    """seen[m, v]: some a + b = m, a, b ≥ 1, has G(a) xor G(b) = v (values ≥ width fall in column width)."""
    N = len(G)
    seen = np.zeros((N, width + 1), dtype=bool)
    flat, base = seen.reshape(-1), np.arange(N, dtype=np.int64) * (width + 1)
    for a in range(1, N // 2 + 1):
        x = np.minimum(G[a] ^ G[a:N - a], width)  # b = a .. N−1−a, so m = a + b = 2a .. N−1
        flat[base[2 * a:N] + x] = True
    return seen


def mex_values(d: list[int], G: np.ndarray, seen: np.ndarray, width: int) -> np.ndarray:
    """mex of each heap's options under the digits d, from the values G and the pair table `seen`."""
    N = len(G)
    opts = np.zeros((N, width + 1), dtype=bool)
    flat, base = opts.reshape(-1), np.arange(N, dtype=np.int64) * (width + 1)
    for k, x in enumerate(d):
        if x & 1 and 1 <= k < N:
            opts[k, 0] = True  # the whole heap taken
        if x & 2 and k >= 1 and k + 1 < N:
            flat[base[k + 1:] + np.minimum(G[1:N - k], width)] = True  # one heap of n − k left
        if x & 4 and k + 2 < N:
            opts[k + 2:] |= seen[2:N - k]  # two heaps of n − k in all
    missing = ~opts[:, :width]
    return np.where(missing.any(axis=1), missing.argmax(axis=1), width)


def check_group(d_rows: list[tuple[list[int], dict]], block: np.ndarray) -> list[str | None]:
    """Each row's refutation (None: re-proved); all rows share a block, a preperiod and a period."""
    n0, p = d_rows[0][1]["preperiod"], d_rows[0][1]["period"]
    B = max(bound(d, n0, p) for d, _ in d_rows)
    if len(block) < min(B, n0 + p):
        return [f"its block holds {len(block):,} values, not the {n0 + p:,} through its period"] * len(d_rows)
    G = values_for(block, n0, p, max(B, n0 + 2 * p))  # past B only for the leastness test: periodic by then
    top = int(G[:B].max())
    if top > max(len(d) for d, _ in d_rows) * (B // 2 + 2):  # a mex is at most the number of options
        return [f"its value {top:,} exceeds every mex a heap below {B:,} can have"] * len(d_rows)
    width = top + 1
    if 2 * B * (width + 1) > MAX_TABLES:
        return [TOO_LARGE] * len(d_rows)
    seen = pair_values(G[:B], width)
    out = []
    for d, row in d_rows:
        b = bound(d, n0, p)
        mex = mex_values(d, G[:b], seen[:b], width)
        bad = np.flatnonzero(mex != G[:b])
        if row["bound"] != b:
            out.append(f"its bound is {row['bound']:,}, but the theorem needs {b:,} heaps")
        elif len(bad):
            n = int(bad[0])
            out.append(f"G({n:,}) = {G[n]} {'claimed' if n < n0 + p else 'by the period'}, but the mex is {mex[n]}")
        elif any(np.array_equal(G[n0 + p // f:n0 + p + p // f], G[n0:n0 + p]) for f in _primes(p)):
            out.append(f"period {p} is not the least")
        elif n0 > 0 and G[n0 - 1] == G[n0 - 1 + p]:
            out.append(f"preperiod {n0} is not the least")
        elif row["max_value"] != int(G[:n0 + p].max()):
            out.append(f"its largest value is {int(G[:n0 + p].max())}, not {row['max_value']}")
        elif row["saltus"] != 0:
            out.append(f"saltus {row['saltus']}: an octal code's period has none")
        else:
            out.append(None)
    return out


def _primes(p: int) -> list[int]:
    out, f = [], 2
    while f * f <= p:
        if p % f == 0:
            out.append(f)
            while p % f == 0:
                p //= f
        f += 1
    return out + ([p] if p > 1 else [])


def _check(job: tuple[list[tuple[list[int], dict]], np.ndarray]) -> list[str | None]:
    return check_group(*job)


def verify(rows: list[dict], blocks: list[np.ndarray], max_bound: int, workers: int):
    """(re-proved, refuted {code: why}, not reached [codes], too large to check within MAX_TABLES [codes]) over
    `rows`."""
    groups: dict[tuple[int, int, int], list] = {}
    refuted, far, large = {}, [], []
    for row in rows:
        try:
            d = digits(row["code"])
        except ValueError as exc:
            refuted[row["code"]] = str(exc)
            continue
        if bound(d, row["preperiod"], row["period"]) > max_bound:
            far.append(row["code"])
            continue
        groups.setdefault((row["block"], row["preperiod"], row["period"]), []).append((d, row))
    jobs = sorted(((g, blocks[key[0]]) for key, g in groups.items()),
                  key=lambda j: -max(bound(d, r["preperiod"], r["period"]) for d, r in j[0]))
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
            results = list(pool.map(_check, jobs))
    else:
        results = [_check(j) for j in jobs]
    proved = 0
    for (g, _), res in zip(jobs, results):
        for (_, row), why in zip(g, res):
            if why is None:
                proved += 1
            elif why == TOO_LARGE:
                large.append(row["code"])
            else:
                refuted[row["code"]] = why
    return proved, refuted, far, sorted(large)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m octal.certify", description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="a certificate file (octal census certificates writes one)")
    ap.add_argument("--max-bound", type=int, default=100_000, metavar="HEAPS",
                    help="re-prove only rows whose bound is at most this many heaps (default 100,000)")
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), metavar="N",
                    help="processes (default: the CPUs this process may use)")
    ap.add_argument("--codes", metavar="LIST", help="only these codes, comma-separated (0.77 finds 0.7700)")
    args = ap.parse_args(argv)
    try:
        rows, blocks = read_certificates(args.file)
    except CertificateError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.codes:
        wanted = {c.strip().rstrip("0") for c in args.codes.split(",")}  # trailing zeros: the same game
        rows = [r for r in rows if r["code"].rstrip("0") in wanted]
        if missing := wanted - {r["code"].rstrip("0") for r in rows}:
            print(f"error: no certificate for {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    proved, refuted, far, large = verify(rows, blocks, args.max_bound, args.workers)
    for code, why in sorted(refuted.items()):
        print(f"REFUTED {code}: {why}")
    print(f"{len(rows):,} certificates: {proved:,} re-proved, {len(refuted):,} refuted, {len(far) + len(large):,} "
          "not reached" + (f" (bound above {args.max_bound:,} heaps: {', '.join(far)})" if far else ""))
    if large:
        print(f"error: {args.file}: {', '.join(large)} not checked: its mex tables (bound × largest value) would pass "
              f"{MAX_TABLES:,} bytes", file=sys.stderr)
        return 2
    return 1 if refuted else 0


if __name__ == "__main__":
    sys.exit(main())
