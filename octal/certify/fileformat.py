"""The certificate file read, every field checked before use: an xz stream holding the line `octal-certificates 1`,
one line of JSON {"columns": [...], "rows": [[code, block, preperiod, period, saltus, bound, max_value], ...],
"blocks": [{"dtype": "uint8", "length": L}, ...]}, then each block's L values, little-endian, one after the other."""

from __future__ import annotations

import json
import lzma
import os
import stat

import numpy as np

MAGIC = b"octal-certificates 1\n"
MAX_HEADER = 64 << 20  # bytes of the JSON line at most: a hostile file cannot make the reader hold more
MAX_VALUES = 1 << 28  # bytes of values at most, all blocks together (the 4-digit table's hold 30 MB)
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
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe with no writer would block the open for ever
            raise CertificateError("it is not a regular file (a pipe, a device, a folder or a socket)")
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
