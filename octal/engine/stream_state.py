"""The files of a stream run: its checkpoint (DIR/stream.npz), its frequency tables (DIR/frequencies.json), and its
values read back (`read_values`: from the head, the window, or the stored chunks between them, verified).

The checkpoint holds plain arrays (head, window, rare positions and values, value counts) and a JSON
header (code, counters, mask, period candidate, frequency records, the list of stored chunks) with a
SHA-256 over all of it; it is written atomically and read back verified, never trusted: a wrong code,
a failed checksum or inconsistent counts are refused with StreamStateError. A run that stores its values
keeps head and window in the chunks instead ("in_chunks"): the checkpoint names them with their checksums, so
a record run's window of 10⁸ heaps is written once, as it is computed, not again at every checkpoint.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import DataFileError, InvalidArgumentError
from ..io import atomic_write, read_npz, write_npz
from ..reading import read_text
from ..trust import sign, signed
from ..validate import is_whole, whole_number
from .chunks import Chunk, ChunkStore

FILE = "stream.npz"
FREQUENCIES = "frequencies.json"
CONVENTION = "counts[v] = number of heaps x with 1 <= x <= n and G(x) = v"
FORMAT = 1
ARRAYS = ("head", "window", "rare", "rval", "counts")
VALUE_DTYPES = ("uint8", "uint16", "uint32")


class StreamStateError(DataFileError):
    """A stream checkpoint or frequency file that belongs to another code, or is damaged."""


@dataclass
class StreamState:
    """Everything a stream run needs to go on: heaps 0..n−1 are done, heaps base..n−1 are in `window`."""

    code: str
    n: int
    base: int
    size: int  # the window size asked for (the head holds G(0..size−1))
    head: np.ndarray
    window: np.ndarray
    rare: np.ndarray
    rval: np.ndarray
    counts: np.ndarray  # counts[v] = #{1 ≤ x ≤ n−1 : G(x) = v}
    mask: int = 0
    e: int = 0
    k0: int = 0
    max: int = 0
    period: int = 0
    preperiod: int | None = None
    stored: bool = False
    records: list[dict] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    signed: bool = False  # read from a file with this user's signature (trust.signed): octal's own, unchanged

    def header(self) -> dict:
        return {
            "format": FORMAT, "code": self.code, "n": self.n, "base": self.base, "size": self.size,
            "mask": self.mask, "e": self.e, "k0": self.k0, "max": self.max, "period": self.period,
            "preperiod": self.preperiod, "stored": self.stored, "records": self.records,
            "chunks": [c.to_list() for c in self.chunks],
        }


def digest(header: dict, arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 over the header (keys sorted) and every array with its name, dtype and length."""
    h = hashlib.sha256(json.dumps(header, sort_keys=True).encode())
    for name in ARRAYS:
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype}:{len(a)}".encode())
        h.update(a)  # the array's own buffer: no copy of a long window
    return h.hexdigest()


def save_stream(directory: str | Path, state: StreamState, in_chunks: bool = False) -> Path:
    """Write DIR/stream.npz (temporary file, fsync, rename). With `in_chunks`, head and window are not written:
    the stored chunks hold every heap done (the caller stored them first), and the header says how to read them."""
    header = state.header()
    arrays = {name: np.ascontiguousarray(getattr(state, name)) for name in ARRAYS}
    if in_chunks:
        stored = state.chunks[-1].stop if state.chunks else 0
        if stored != state.n:
            raise StreamStateError(f"the stored values end at heap {stored:,}, not at {state.n:,}: head and window "
                                   "cannot be left to them")
        header.update(in_chunks=True, head_len=len(state.head), dtype=str(state.window.dtype))
        arrays["head"] = arrays["window"] = np.zeros(0, state.window.dtype)
    header["sha256"] = digest(header, arrays)
    header["hmac"] = sign(header["sha256"].encode())  # this user's key: read back as octal's own, unchanged
    path = Path(directory) / FILE
    write_npz(path, header, arrays)
    return path


def read_stream(directory: str | Path, code: str | None = None) -> StreamState | None:
    """The verified stream state in DIR (of `code`, when given), or None when DIR holds none."""
    path = Path(directory) / FILE
    if not path.exists():
        return None
    header, arrays = read_npz(path, ARRAYS, StreamStateError, "stream state")
    if header.get("format") != FORMAT:
        raise StreamStateError(f"stream state {path} is not a format-{FORMAT} stream checkpoint")
    if code is not None and header.get("code") != code:
        raise StreamStateError(f"stream state {path} belongs to code {header.get('code')}, not {code}")
    mac = header.pop("hmac", None)
    sha = header.pop("sha256", None)
    if sha != digest(header, arrays):
        raise StreamStateError(f"stream state {path} fails its checksum; move it away to start over")
    def whole(key: str, allow_none: bool = False):
        x = header[key]
        if (x is None and allow_none) or (is_whole(x) and x < 1 << 62):
            return x
        raise ValueError(f"{key} is {repr(x)[:30]}, not a whole number in range")

    try:
        if not isinstance(header.get("records"), list) or not all(isinstance(r, dict) for r in header["records"]):
            raise ValueError(f"its records are {repr(header.get('records'))[:30]}, not a list of frequency records")
        if not isinstance(header.get("chunks"), list):
            raise ValueError(f"its chunks are {repr(header.get('chunks'))[:30]}, not a list")
        if header.get("in_chunks") is True:
            arrays.update(_from_chunks(directory, header, whole))
        state = StreamState(
            header["code"], whole("n"), whole("base"), whole("size"), *(arrays[a] for a in ARRAYS),
            mask=whole("mask"), e=whole("e"), k0=whole("k0"), max=whole("max"), period=whole("period"),
            preperiod=whole("preperiod", allow_none=True), stored=header["stored"] is True,
            records=list(header["records"]), chunks=[Chunk.from_list(c) for c in header["chunks"]],
            signed=signed(mac, sha.encode()))
        if any(a.ndim != 1 or a.dtype.kind not in "iu" for a in (state.head, state.window, state.rare, state.rval,
                                                                   state.counts)):
            raise ValueError("an array is not a list of whole numbers")
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise StreamStateError(f"stream state {path} is damaged: {exc}") from None
    except DataFileError as exc:  # a chunk the checkpoint names is missing or fails its checksum
        raise StreamStateError(f"stream state {path} cannot be read back: {exc}") from None
    _check(state, path)
    return state


def _from_chunks(directory: str | Path, header: dict, whole) -> dict[str, np.ndarray]:
    """Head and window of an "in_chunks" checkpoint, read from the chunks it names (each verified as it is read)."""
    if header.get("dtype") not in VALUE_DTYPES:
        raise ValueError(f"dtype is {repr(header.get('dtype'))[:30]}, not one of {', '.join(VALUE_DTYPES)}")
    n, base, head_len, dtype = whole("n"), whole("base"), whole("head_len"), np.dtype(header["dtype"])
    if not (base <= n and head_len <= n):
        raise ValueError("head or window reach past the heaps done")
    store = ChunkStore(directory, [Chunk.from_list(c) for c in header["chunks"]])
    return {"head": store.read_into(0, head_len, np.zeros(head_len, dtype)),
            "window": store.read_into(base, n, np.zeros(n - base, dtype))}


def _check(s: StreamState, path: Path) -> None:
    """Counts, ranges and rare values must agree with each other and with the values held."""
    problems = []
    if not (0 <= s.mask < 1 << 32 and s.e in (0, 1) and 0 <= s.k0 < 1 << 32 and 0 < s.size):
        problems.append("its rare/common state or sizes are out of range")
    if not 0 <= s.base <= s.n or len(s.window) != s.n - s.base or len(s.head) > s.n:
        problems.append("window and head do not cover the heaps done")
    if problems:  # the checks below index the arrays by these numbers
        raise StreamStateError(f"stream state {path} is inconsistent: {'; '.join(problems)}")
    if int(s.counts.sum()) != max(s.n - 1, 0):
        problems.append("value counts do not add up to the heaps done")
    if len(s.rare) != len(s.rval) or (len(s.rare) and (np.any(np.diff(s.rare) <= 0) or s.rare[-1] >= s.n)):
        problems.append("rare positions are not an ascending list of computed heaps")
    else:
        inside = s.rare >= s.base
        if not np.array_equal(s.window[s.rare[inside] - s.base], s.rval[inside]):
            problems.append("rare values differ from the window")
        early = s.rare < len(s.head)
        if not np.array_equal(s.head[s.rare[early]], s.rval[early]):
            problems.append("rare values differ from the head")
    if s.period > 0 and s.preperiod is not None and len(s.window) == s.n - s.base:
        # the period tracked so far holds over every heap held past its preperiod (head and window alike)
        p, n0 = s.period, s.preperiod
        for held, start in ((s.head, 0), (s.window, s.base)):
            first = max(n0 + p, start + p) - start
            if first < len(held) and not np.array_equal(held[first:], held[first - p : len(held) - p]):
                problems.append(f"the values held do not follow the period {p} from heap {n0} it records")
                break
    if 0 <= s.base <= len(s.head) and len(s.window) == s.n - s.base:
        both = min(len(s.head), s.n) - s.base  # heaps held twice, in the head and in the window
        if both > 0 and not np.array_equal(s.head[s.base : s.base + both], s.window[:both]):
            problems.append("the head and the window differ where both hold a heap")
    if s.stored and s.base > 0 and (not s.chunks or s.chunks[-1].stop < s.base):
        problems.append("stored chunks do not reach the window")
    problems += _count_problems(s)
    if problems:
        raise StreamStateError(f"stream state {path} is inconsistent: {'; '.join(problems)}")


def held_counts(s: StreamState) -> tuple[np.ndarray, bool]:
    """(the value counts of the heaps 1.. that head and window hold, each once; whether they hold every heap)."""
    head_only = s.head[1 : min(len(s.head), s.base)] if s.base > 1 else s.head[:0]
    window = s.window[max(0, 1 - s.base):]
    c = np.bincount(np.concatenate([head_only, window]).astype(np.int64), minlength=1)
    return c, s.base <= max(len(s.head), 1)


def _count_problems(s: StreamState) -> list[str]:
    """What the value counts, the largest value and the records claim, held against the values in memory: exactly
    where head and window hold every heap, as lower bounds otherwise; records must add up, grow, and end below the
    counts. (Counts of heaps that left memory are recounted from the stored values by `recount`, where stored.)"""
    problems, counts = [], s.counts
    if s.n > 1 and not (len(counts) > s.max and counts[s.max] > 0 and not counts[s.max + 1 :].any()):
        problems.append(f"its largest value {s.max} is not the largest value counted")
    held, everything = held_counts(s)
    width = max(len(held), len(counts))
    held, padded = np.pad(held, (0, width - len(held))), np.pad(counts, (0, width - len(counts)))
    if np.any(held > padded):
        problems.append("the value counts are below those of the values held")
    elif everything and not np.array_equal(held, padded):
        problems.append("the value counts differ from the values held")
    last = np.zeros(0, np.int64)
    for r in s.records:
        try:
            rc = np.asarray(r["counts"], np.int64)
            ok = (is_whole(r["n"]) and r["n"] < s.n and rc.ndim == 1 and int(rc.sum()) == r["n"]
                  and r["max"] == len(rc) - 1 and len(last) <= len(rc) <= len(counts)
                  and not np.any(rc > counts[: len(rc)]) and not np.any(last > rc[: len(last)]))
        except (KeyError, TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            problems.append(f"the frequency record at n = {str(r.get('n'))[:20]} does not agree with the counts")
            break
        last = rc
    return problems


def recount(s: StreamState, directory: str | Path) -> None:
    """Recount every value and every frequency record from the stored values (the chunks, then the window), one
    chunk in memory at a time, and refuse a state whose counts or records differ: with the values on disk the table
    rests on them, not on the file."""
    store = ChunkStore(directory, s.chunks)
    counts = np.zeros(len(s.counts), np.int64)
    records = {r["n"]: np.asarray(r["counts"], np.int64) for r in s.records}
    marks = sorted(records)

    def add(start: int, values: np.ndarray) -> None:
        """Count heaps start.. (from heap 1), comparing each record whose heap 2^k falls among them."""
        lo = max(start, 1)
        for mark in [m for m in marks if lo <= m < start + len(values)] + [start + len(values) - 1]:
            if mark >= lo:
                c = np.bincount(values[lo - start : mark + 1 - start], minlength=len(counts))
                if len(c) > len(counts):
                    raise StreamStateError(f"stream state in {directory}: a stored value is larger than any counted")
                counts[:] += c
                lo = mark + 1
            if mark in records and not np.array_equal(counts[: len(records[mark])], records[mark]):
                raise StreamStateError(f"stream state in {directory}: its frequency record at n = {mark:,} is not "
                                       "what the stored values give; move it away to start over")

    for start, values in store.each():
        add(start, values[: max(0, min(len(values), s.n - start))])
    if store.stop < s.n:
        add(store.stop, s.window[store.stop - s.base :])
    if not np.array_equal(counts, s.counts):
        raise StreamStateError(f"stream state in {directory}: its value counts are not those of the stored values; "
                               "move it away to start over")


def write_frequencies(directory: str | Path, code: str, records: list[dict]) -> None:
    """DIR/frequencies.json: the code and one record per power of two (see stream.FrequencyRecord)."""
    doc = {"code": code, "convention": CONVENTION, "records": records}
    atomic_write(Path(directory) / FREQUENCIES, json.dumps(doc, indent=1).encode())


def read_frequencies(directory: str | Path) -> dict:
    """The frequency records of the stream run in DIR, as write_frequencies writes them: read from the verified
    checkpoint (stream.npz, under its checksum, held against the values and, where they are stored, recounted from
    them); DIR/frequencies.json, a copy for people, must say the same or it was edited, and is refused."""
    path = Path(directory) / FREQUENCIES
    state = read_stream(directory)
    if state is None:
        raise StreamStateError(f"{directory} holds no stream run ({FILE} is missing)")
    if state.stored:
        recount(state, directory)
    doc = {"code": state.code, "convention": CONVENTION, "records": state.records}
    try:
        written = json.loads(read_text(path))
        copied = written["records"]
        # a copy one save behind (killed between the two writes) holds fewer records, each the same
        agrees = {**written, "records": []} == {**doc, "records": []} and copied == state.records[: len(copied)]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StreamStateError(f"frequency file {path} cannot be read ({exc})") from None
    if not agrees:
        raise StreamStateError(f"frequency file {path} differs from the records of the checkpoint {FILE} (edited by "
                               "hand?); the checkpoint's records are the run's")
    return doc


def read_values(directory: str | os.PathLike, start: int = 0, stop: int | None = None) -> np.ndarray:
    """G(start..stop−1) of the stream run saved in DIR, from its stored chunks, head and window (verified)."""
    start = whole_number(start, "start")  # the arguments first, the files after
    if stop is not None and whole_number(stop, "stop") < start:
        raise InvalidArgumentError(f"cannot read heaps {start:,}..{stop - 1:,}: stop comes before start")
    state = read_stream(directory)
    if state is None:
        raise InvalidArgumentError(f"{directory} holds no stream run")
    stop = state.n if stop is None else stop
    if not start <= stop <= state.n:
        raise InvalidArgumentError(f"the run in {directory} has heaps 0..{state.n - 1:,}; "
                                   f"cannot read {start:,}..{stop - 1:,}")
    store = ChunkStore(directory, state.chunks) if state.stored else None
    if store is not None and start < min(stop, store.stop):
        store.read(start, min(stop, store.stop))  # every chunk in the range is verified, even where memory holds it
    return values_between(start, stop, state.head, state.base, state.window, store)


def values_between(start: int, stop: int, head: np.ndarray | None, base: int, window: np.ndarray,
                   store: ChunkStore | None) -> np.ndarray:
    """G(start..stop−1) from the head (heaps 0…), the window (heaps base…) or, between them, the stored chunks."""
    parts, x = [], start
    if x < base:
        cut = min(stop, base)
        if head is not None and cut <= len(head):
            parts.append(head[x:cut])
        elif store is not None:
            parts.append(store.read(x, cut))
        else:
            raise InvalidArgumentError(
                f"heaps {x:,}..{cut - 1:,} left memory and were not stored: run with --store-values to keep them")
        x = cut
    if x < stop:
        parts.append(window[x - base : stop - base])
    if not parts:
        return np.zeros(0, window.dtype)
    dtype = np.result_type(*parts)
    return np.concatenate([p.astype(dtype, copy=False) for p in parts])


def _plain(records: list[dict]) -> str:
    """What frequency records say of the values (n, counts, largest value; not the split each run chose), as JSON
    text whether their counts are lists or arrays."""
    kept = [{k: r.get(k) for k in ("n", "counts", "max")} for r in records]
    return json.dumps(kept, default=lambda x: x.tolist() if hasattr(x, "tolist") else int(x))


def state_difference(saved: StreamState, again: StreamState) -> str | None:
    """What two states of one code at one heap count say differently of the values (None: nothing): heap count,
    largest value, period, records, head, the heaps both windows hold (where each slid is its own affair), counts."""
    lo = max(saved.base, again.base)
    held = {"window": (saved.window[lo - saved.base:], again.window[lo - again.base:]),
            "records": (_plain(saved.records), _plain(again.records))}
    for name in ("n", "max", "period", "preperiod", "records", "head", "window", "counts"):
        a, b = held.get(name, (getattr(saved, name), getattr(again, name)))
        if not (np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b):
            return f"its {name} differs from the run made again from heap 0"
    return None


def chunk_difference(mine: ChunkStore, fresh: ChunkStore) -> str | None:
    """The first stored value of `mine` unlike `fresh`'s (None: all alike), one chunk in memory at a time."""
    if mine.stop != fresh.stop:
        return f"it stores heaps 0..{mine.stop - 1:,}, not the 0..{fresh.stop - 1:,} it has done"
    for start, values in mine.each():
        bad = np.flatnonzero(values.astype(np.int64) != fresh.read(start, start + len(values)).astype(np.int64))
        if len(bad):
            return f"its stored G({start + int(bad[0]):,}) differs from the run made again from heap 0"
    return None
