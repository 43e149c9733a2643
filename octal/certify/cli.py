"""`python -m octal.certify FILE`: the certificates read and re-proved; the outcome in a few lines, an exit status."""

from __future__ import annotations

import argparse
import os
import sys

from .check import MAX_TABLES, MAX_WORK, verify
from .fileformat import CertificateError, read_certificates

DESCRIPTION = "Re-prove the periods and arithmetic periods of octal's certificates from the rules alone."


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m octal.certify", description=DESCRIPTION)
    ap.add_argument("file", help="a certificate file (octal census certificates writes one)")
    ap.add_argument("--max-bound", type=int, default=100_000, metavar="HEAPS",
                    help="re-prove only rows whose bound is at most this many heaps (default 100,000)")
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), metavar="N",
                    help="processes (default: the CPUs this process may use)")
    ap.add_argument("--codes", metavar="LIST", help="only these codes, comma-separated (0.77 finds 0.7700)")
    args = ap.parse_args(argv)
    if args.max_bound < 1 or args.workers < 1:
        ap.error("--max-bound and --workers must be at least 1")
    try:
        rows, blocks = read_certificates(args.file)
    except CertificateError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    rows = list({tuple(r.values()): r for r in rows}.values())  # a row written twice is one certificate
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
              f"{MAX_TABLES:,} bytes, or its three-heap table would set more than {MAX_WORK:,} entries",
              file=sys.stderr)
        return 2
    return 1 if refuted else 0
