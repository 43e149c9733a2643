"""Certificates and their independent verifier (octal/certify.py): written from a census, re-proved from the rules
alone, and every damaged or hostile file refuted or refused in one line."""

import ast
import csv
import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from reference import reference_digits, reference_values

from octal import certify, nim_sequence
from octal.census import run_census
from octal.census.certificates import MAGIC, certificate_bytes, write_certificates
from octal.certify import check
from octal.certify.rules import triple_values

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "data" / "census-4digit-certificates.xz"
TABLE = ROOT / "data" / "census-4digit.csv"


def _xz(raw: bytes) -> bytes:
    """An xz stream of `raw` at preset 0: the default preset sets up a 94 MB dictionary each call (0.15 s here)."""
    return lzma.compress(raw, format=lzma.FORMAT_XZ, preset=0)


@pytest.fixture(scope="module")
def census_certificates(tmp_path_factory) -> Path:
    """The certificates of a small census: 0.77, 0.137, 4.07, 0.6 (open at 1,024 heaps: no certificate), 0.333."""
    tmp = tmp_path_factory.mktemp("cert")
    run_census(0, codes=["0.77", "0.137", "4.07", "0.6", "0.333", "0.07"], max_n=1024, workers=1, db=tmp / "c.sqlite")
    out = tmp / "c.xz"
    assert write_certificates(out, tmp / "c.sqlite")[0] == 5
    return out


def _edit(path: Path, tmp: Path, change) -> Path:
    """A copy of a certificate file with its header and blocks passed through `change(header, blocks)`."""
    rows, blocks = certify.read_certificates(str(path))
    header = {"columns": certify.COLUMNS, "rows": [[r[k] for k in certify.COLUMNS] for r in rows],
              "blocks": [{"dtype": str(b.dtype.newbyteorder("=")), "length": len(b)} for b in blocks]}
    blocks = [b.copy() for b in blocks]
    change(header, blocks)
    raw = MAGIC + json.dumps(header).encode() + b"\n" + b"".join(b.astype("<" + b.dtype.str[1:]).tobytes()
                                                                   for b in blocks)
    out = tmp / "edited.xz"
    out.write_bytes(_xz(raw))
    return out


def _run(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "octal.certify", str(path), "--workers", "1", *args],
                          capture_output=True, text=True, timeout=300)


def test_a_census_s_certificates_are_re_proved(census_certificates):
    res = _run(census_certificates)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.strip() == "5 certificates: 5 re-proved, 0 refuted, 0 not reached"


def test_the_verifier_imports_nothing_of_octal():
    """Auditable alone: its files import the standard library, numpy and each other, and running it loads no octal
    module but the package's (lazy) entry and its own (octal.certify.rules is its own)."""
    for path in sorted((ROOT / "octal" / "certify").glob("*.py")):
        tree = ast.parse(path.read_text())
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
        assert all(n.level <= 1 for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)), path.name
        stdlib = {"__future__", "argparse", "concurrent", "functools", "json", "lzma", "os", "stat", "sys"}
        assert names <= stdlib | {"numpy"}, path.name
    code = ("import runpy, sys; sys.argv = ['x', '--help']\ntry: runpy.run_module('octal.certify', run_name='__main__')"
            "\nexcept SystemExit: pass\nprint(sorted(m for m in sys.modules if m.startswith('octal.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.splitlines()[-1]
    outside = [m for m in loaded.strip("[]").replace("'", "").split(", ") if not m.startswith("octal.certify")]
    assert set(outside) <= {"octal.displays", "octal.errors", "octal.lazy", "octal.version"}, loaded


def test_the_verifier_s_mex_is_the_brute_force_reference():
    for code in ("0.77", "4.07", "0.137", "0.333", "0.16", "4.3", "0.8", "0.F6", "0.9C", "8.4", "4.B"):
        G = np.array(reference_values(reference_digits(code)[0], 120), dtype=np.int64)
        d = certify.digits(code)
        P = certify.width_for(int(G.max()))
        two = certify.pair_values(G, P)
        assert np.array_equal(certify.mex_values(d, G, two, certify.triple_values(G, two)), G), code


@pytest.mark.parametrize("P", [2, 64, 128, 256])
def test_the_verifier_s_split_tables_are_their_definition(P):
    """two[m, v] and three[m, v] against every split of m written out, on random values filling the tables' width
    (past 64, a row's values span several words of bits)."""
    G = np.random.default_rng(P).integers(0, P, 90)
    two = certify.pair_values(G, P)
    three = triple_values(G, two)
    want2, want3 = np.zeros_like(two), np.zeros_like(three)
    for a in range(1, 90):
        for b in range(1, 90 - a):
            want2[a + b, G[a] ^ G[b]] = True
            for c in range(1, 90 - a - b):
                want3[a + b + c, G[a] ^ G[b] ^ G[c]] = True
    assert np.array_equal(two, want2) and np.array_equal(three, want3)


@pytest.mark.parametrize("change, message", [
    (lambda h, b: b[h["rows"][0][1]].__setitem__(40, b[h["rows"][0][1]][40] ^ 1), "but the mex is"),
    (lambda h, b: h["rows"][0].__setitem__(3, 24), "bound is"),  # period doubled, bound left
    (lambda h, b: (h["rows"][0].__setitem__(3, 24), h["rows"][0].__setitem__(5, 2 * 71 + 2 * 24 + 2)),
     "period 24 is not the least"),  # period doubled, bound recomputed
    (lambda h, b: (h["rows"][0].__setitem__(2, 72), h["rows"][0].__setitem__(5, 2 * 72 + 2 * 12 + 2)),
     "preperiod 72 is not the least"),  # preperiod moved, bound recomputed
    (lambda h, b: h["rows"][0].__setitem__(6, 7), "largest value is 8, not 7"),
    (lambda h, b: h["rows"][0].__setitem__(4, 1), "saltus theorem does not prove it: (A) for k = 1, 2, 4"),
    (lambda h, b: h["rows"][0].__setitem__(0, "0.7Z"), "is not a code"),
    (lambda h, b: h["rows"][0].__setitem__(2, 300), "not the 312 through its period"),
])
def test_a_damaged_certificate_is_refuted_by_name(census_certificates, tmp_path, change, message):
    """Kayles' row, moved first, its block the true values through 300 heaps (room for any claimed period)."""
    def on_kayles(h, b):
        i = next(i for i, r in enumerate(h["rows"]) if r[0] == "0.77")
        h["rows"].insert(0, h["rows"].pop(i))
        b[h["rows"][0][1]] = np.array(reference_values(reference_digits("0.77")[0], 300), dtype=np.uint8)
        h["blocks"][h["rows"][0][1]]["length"] = 300
        change(h, b)
    res = _run(_edit(census_certificates, tmp_path, on_kayles))
    assert res.returncode == 1
    line = next(x for x in res.stdout.splitlines() if x.startswith("REFUTED"))
    assert message in line and ("0.77" in line or "0.7Z" in line), res.stdout


@pytest.mark.parametrize("content, message", [
    (None, "not a regular file"),  # /dev/zero: refused before it is opened, never a hang
    (b"plain text, " * 10, "not an xz stream"),
    (b"plain", "cut short"),
    (_xz(b"something else, longer than the magic line\n"), "does not start with"),
    (_xz(MAGIC + b"{not json\n"), "not JSON"),
    (_xz(MAGIC + b'{"columns": []}\n'), "does not name the columns"),
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [], "blocks": [
        {"dtype": "uint8", "length": 1 << 40}]}).encode() + b"\n"), "declare"),
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [], "blocks": [
        {"dtype": "uint8", "length": 10}]}).encode() + b"\n" + bytes(5)), "ends after"),
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [], "blocks": [
        {"dtype": "uint8", "length": 4}]}).encode() + b"\n" + bytes(9)), "more than its header"),
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [["0.77", 0, "71", 12, 0, 168, 8]],
                                       "blocks": [{"dtype": "uint8", "length": 4}]}).encode() + b"\n" + bytes(4)),
     "preperiod is '71'"),
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [["0.77", 3, 71, 12, 0, 168, 8]],
                                       "blocks": [{"dtype": "uint8", "length": 4}]}).encode() + b"\n" + bytes(4)),
     "names block 3"),
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [], "blocks": [
        {"dtype": "float64", "length": 4}]}).encode() + b"\n"), "no dtype"),
    (_xz(MAGIC + b"x" * (certify.MAX_HEADER + 10)), "header is longer"),
    (_xz(MAGIC + b"[" * 100_000 + b"\n"), "not JSON"),  # nested past the parser's depth
    (_xz(MAGIC + json.dumps({"columns": certify.COLUMNS, "rows": [], "blocks": []}).encode() + b"\n")[:-12],
     "cut short"),  # every byte declared is there, but not the stream's end
])
def test_a_file_that_is_no_certificate_is_one_line_and_exit_2(tmp_path, content, message):
    path = Path("/dev/zero") if content is None else tmp_path / "bad.xz"
    if content is not None:
        path.write_bytes(content)
    res = _run(path)
    assert res.returncode == 2 and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1 and message in res.stderr, res.stderr


def _one_row(tmp_path, code, n0, p, bound, top, values, dtype="uint8"):
    header = {"columns": certify.COLUMNS, "rows": [[code, 0, n0, p, 0, bound, top]],
              "blocks": [{"dtype": dtype, "length": len(values)}]}
    path = tmp_path / "one.xz"
    path.write_bytes(_xz(MAGIC + json.dumps(header).encode() + b"\n"
                                   + np.array(values, dtype="<" + np.dtype(dtype).str[1:]).tobytes()))
    return path


def test_a_period_twice_the_least_is_refuted_when_the_code_never_splits(tmp_path):
    """0.03 (r = 1: its bound max(n0,1) + p + t is short of n0 + 2p) claimed with period 8, twice its least 4."""
    res = _run(_one_row(tmp_path, "0.03", 0, 8, 11, 1, [0, 0, 1, 1, 0, 0, 1, 1]))
    assert res.returncode == 1 and "REFUTED 0.03: period 8 is not the least" in res.stdout


def test_a_value_no_mex_can_reach_is_refuted_before_any_table_is_built(tmp_path):
    res = _run(_one_row(tmp_path, "0.77", 0, 4, 10, 2 ** 32 - 1, [0, 1, 2, 2 ** 32 - 1], "uint32"))
    assert res.returncode == 1 and "value 4,294,967,295 exceeds every mex a heap below 12 can have" in res.stdout


KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]  # G(0..11) of 0.77


def test_the_mex_is_checked_to_the_bound_not_only_through_the_stored_values(tmp_path):
    """Kayles claimed periodic from 0 with period 12: its twelve stored values are right, and the first value the
    period gives, G(12) = G(0) = 0, is not the mex (4). Kills a verifier that checks the mex through n0 + p only."""
    res = _run(_one_row(tmp_path, "0.77", 0, 12, 28, 6, KAYLES))
    assert res.returncode == 1 and "REFUTED 0.77: G(12) = 0 by the period, but the mex is 4" in res.stdout, res.stdout


def test_a_period_a_prime_square_times_the_least_is_refuted(tmp_path):
    """0.3 (0, 1, 0, 1, …) claimed with period 4, twice its least 2 (and not a multiple of 1: G(0) ≠ G(1)). Kills
    the leastness test missing square factors (`f * f < p` finds no factor of 4)."""
    res = _run(_one_row(tmp_path, "0.3", 0, 4, 6, 1, [0, 1, 0, 1]))
    assert res.returncode == 1 and "REFUTED 0.3: period 4 is not the least" in res.stdout, res.stdout


def test_a_preperiod_of_one_is_tested_for_leastness(tmp_path):
    """0.3 claimed periodic from heap 1 (period 2): it is so from heap 0. Kills a preperiod test that starts at 2."""
    res = _run(_one_row(tmp_path, "0.3", 1, 2, 4, 1, [0, 1, 0]))
    assert res.returncode == 1 and "REFUTED 0.3: preperiod 1 is not the least" in res.stdout, res.stdout


def test_a_row_naming_a_block_one_past_the_last_is_refused(tmp_path):
    """A row's block index equal to the number of blocks: one line and exit 2, never an IndexError."""
    header = {"columns": certify.COLUMNS, "rows": [["0.3", 1, 0, 2, 0, 3, 1]],
              "blocks": [{"dtype": "uint8", "length": 2}]}
    path = tmp_path / "one.xz"
    path.write_bytes(_xz(MAGIC + json.dumps(header).encode() + b"\n" + bytes([0, 1])))
    res = _run(path)
    assert res.returncode == 2 and res.stderr == f"error: {path}: row 0 (0.3) names block 1, of 1\n", res.stderr


def test_a_certificate_whose_tables_pass_the_memory_bound_is_not_checked_and_exits_2(tmp_path):
    """A crafted row (bound 99,984 heaps, a value of 149,001 that some mex could reach) would need 30 GB of mex tables:
    one line on stderr, exit 2, the row counted as not reached — never a MemoryError, never proven."""
    values = list(nim_sequence("0.7777", certify.PREFIX).values) + [0] * (49_988 - certify.PREFIX) + [149_001]
    res = _run(_one_row(tmp_path, "0.7777", 0, 49_989, 99_984, 149_001, values, "uint32"), "--max-bound", "200000")
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stdout.strip() == "1 certificates: 0 re-proved, 0 refuted, 1 not reached"
    assert res.stderr == _not_checked(tmp_path / "one.xz", "0.7777")


def _not_checked(path, code: str) -> str:
    return (f"error: {path}: {code} not checked: its mex tables (bound × largest value) would pass "
            f"{certify.MAX_TABLES:,} bytes, or its three-heap table would set more than {certify.MAX_WORK:,} entries\n")


def test_a_three_heap_certificate_whose_table_passes_the_work_bound_is_not_checked_and_exits_2(tmp_path):
    """0.8's values right through the first PREFIX heaps, then a claimed period of 2,729 reaching 32,767: the mex
    tables (8,191 heaps × 32,768) stay under 1 GiB, but the three-heap table would set 1.1·10¹² entries (hours):
    one line, exit 2, not reached."""
    values = list(nim_sequence("0.8", certify.PREFIX).values) + [0] * (2_728 - certify.PREFIX) + [32_767]
    res = _run(_one_row(tmp_path, "0.8", 0, 2_729, 8_191, 32_767, values, "uint16"))
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stdout.strip() == "1 certificates: 0 re-proved, 0 refuted, 1 not reached"
    assert res.stderr == _not_checked(tmp_path / "one.xz", "0.8")


def test_a_claim_false_in_its_first_heaps_is_refuted_before_the_tables_of_its_bound(tmp_path, monkeypatch):
    """0.8 claimed with G(1) = 4,095 and a period of 682: tables through its bound (2,050 heaps × 4,096) would take
    about a minute; the first PREFIX heaps, checked first with tables of their own, refute it at once."""
    built = []
    monkeypatch.setattr(check, "triple_values", lambda G, two: built.append(len(G)) or triple_values(G, two))
    values = [0, 4_095] + [0] * 680
    rows, blocks = certify.read_certificates(_one_row(tmp_path, "0.8", 0, 682, 2_050, 4_095, values, "uint16"))
    assert check.verify(rows, blocks, 100_000, 1) == (0, {"0.8": "G(1) = 4095 claimed, but the mex is 0"}, [], [])
    assert built == [certify.PREFIX]


def test_a_huge_value_among_the_first_heaps_is_not_checked_rather_than_a_crash(tmp_path):
    """G(5) = 150,000,000 claimed for 0.8 (period 3,000, bound 9,004): within what a mex below the bound can be, and the
    first heaps' own tables would need 2³⁰ bytes and more, so they are not built either: "not checked", exit 2."""
    values = [0] * 5 + [150_000_000] + [0] * 2_994
    res = _run(_one_row(tmp_path, "0.8", 0, 3_000, 9_004, 150_000_000, values, "uint32"))
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stderr == _not_checked(tmp_path / "one.xz", "0.8")


def test_a_row_refuted_early_stays_refuted_beside_one_too_large_to_check(monkeypatch):
    """0.07's values claimed for 0.7 too, one block for both: with the tables of their bound refused (MAX_TABLES
    made tiny, the prefix made 50 heaps), 0.7 is still refuted by its first heaps, and 0.07 alone is not checked."""
    G = nim_sequence("0.07", 87).values
    rows = []
    for code in ("0.07", "0.7"):
        d = certify.digits(code)
        b = certify.guy_smith_bound(d, 53, 34)
        rows.append((d, {"code": code, "block": 0, "preperiod": 53, "period": 34, "saltus": 0, "bound": b,
                         "max_value": int(G.max())}, b))
    monkeypatch.setattr(check, "PREFIX", 50)
    assert check.check_group(rows, G) == [None, "G(1) = 0 claimed, but the mex is 1"]
    monkeypatch.setattr(check, "MAX_TABLES", 2_000)
    assert check.check_group(rows, G) == [certify.TOO_LARGE, "G(1) = 0 claimed, but the mex is 1"]


def test_a_row_whose_block_cannot_hold_its_period_is_refuted_whatever_its_bound(tmp_path):
    """A period of 10⁶ claimed over a block of three values: refuted (not "not reached" for its far bound)."""
    res = _run(_one_row(tmp_path, "0.77", 0, 10 ** 6, 123, 2, [0, 1, 2]))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "REFUTED 0.77: its block holds 3 values, not the 1,000,000 through its period" in res.stdout


def test_a_row_written_twice_is_one_certificate(tmp_path):
    header = {"columns": certify.COLUMNS, "rows": [["0.3", 0, 0, 2, 0, 4, 1]] * 3,
              "blocks": [{"dtype": "uint8", "length": 2}]}
    path = tmp_path / "twice.xz"
    path.write_bytes(_xz(MAGIC + json.dumps(header).encode() + b"\n" + bytes([0, 1])))
    res = _run(path)
    assert res.returncode == 0 and res.stdout == "1 certificates: 1 re-proved, 0 refuted, 0 not reached\n", res.stdout


def test_a_certificate_path_that_is_a_pipe_is_refused_without_being_opened(tmp_path):
    """A FIFO with no writer would block an open for ever: one line, exit 2, at once."""
    fifo = tmp_path / "pipe.xz"
    os.mkfifo(fifo)
    res = _run(fifo)
    assert res.returncode == 2 and res.stderr == f"error: {fifo}: it is not a regular file (a pipe, a device, a " \
        "folder or a socket)\n", res.stderr


@pytest.mark.parametrize("option", ["--max-bound", "--workers"])
def test_a_bound_or_a_worker_count_below_one_is_a_usage_error(option, census_certificates):
    res = _run(census_certificates, option, "0")
    assert res.returncode == 2 and "must be at least 1" in res.stderr


def test_a_file_cut_short_is_refused(census_certificates, tmp_path):
    data = census_certificates.read_bytes()
    cut = tmp_path / "cut.xz"
    cut.write_bytes(data[: len(data) // 2])
    res = _run(cut)
    assert res.returncode == 2 and "cut short" in res.stderr


def test_a_certificate_with_a_far_bound_is_not_reached_never_proven(census_certificates):
    res = _run(census_certificates, "--max-bound", "100")
    assert res.returncode == 0
    assert res.stdout.strip().endswith("not reached (bound above 100 heaps: 0.07, 0.137, 0.77)")


def test_writing_certificates_refuses_a_damaged_census_row(tmp_path):
    from octal.census import CensusDB
    from octal.errors import DataFileError

    db = tmp_path / "c.sqlite"
    run_census(0, codes=["0.77"], max_n=1024, workers=1, db=db)
    store = CensusDB(db)
    store.conn.execute("UPDATE codes SET period = 24, proof_bound = 2 * 71 + 2 * 24 + 2")
    store.conn.commit()
    store.close()
    with pytest.raises(DataFileError, match="0.77"):
        write_certificates(tmp_path / "x.xz", db)
    assert not (tmp_path / "x.xz").exists()


def test_blocks_are_shared_by_equal_values():
    v = np.arange(10) % 3
    row = {"preperiod": 0, "period": 3, "proof_bound": 9, "max_value": 2}
    _, blocks = certificate_bytes([({**row, "code": "0.1"}, v), ({**row, "code": "0.2"}, v)])
    assert blocks == 1


def test_the_shipped_certificates_are_the_table_s_proven_rows():
    """One certificate per proven row of data/census-4digit.csv, with its period, preperiod, bound and largest value;
    none for an open row."""
    rows, blocks = certify.read_certificates(str(SHIPPED))
    with TABLE.open() as f:
        table = {r["code"]: r for r in csv.DictReader(f)}
    assert len(rows) == sum(r["status"] == "proven" for r in table.values()) == 4727
    for r in rows:
        t = table[r["code"]]
        assert t["status"] == "proven"
        assert (int(t["preperiod"]), int(t["period"]), int(t["proof_bound"]), int(t["max_value"])) == \
            (r["preperiod"], r["period"], r["bound"], r["max_value"]), r["code"]
        assert len(blocks[r["block"]]) >= r["preperiod"] + r["period"]


@pytest.mark.slow
def test_every_shipped_certificate_within_100000_heaps_is_re_proved():
    """Issue #42's target: ≥ 4,554 rows re-proved (every proven row to its bound, and (n0, p) the least), none
    refuted; the rest listed as not reached."""
    res = subprocess.run([sys.executable, "-m", "octal.certify", str(SHIPPED)], capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr
    assert res.stdout.startswith("4,727 certificates: 4,554 re-proved, 0 refuted, 173 not reached")


@pytest.fixture(scope="module")
def hex_certificates(tmp_path_factory) -> Path:
    """The certificates of a small hexadecimal census: 0.8 and 0.F8 (arithmetic periods), 0.0B2 (proven through
    (4p, 4s)), 0.B14 (period 84 from heap 780: a plain period with r = 3) and 0.9 (open: no certificate)."""
    tmp = tmp_path_factory.mktemp("hexcert")
    run_census(0, codes=["0.8", "0.F8", "0.0B2", "0.B14", "0.9"], max_n=4096, workers=1, db=tmp / "h.sqlite",
               hexadecimal=True)
    out = tmp / "h.xz"
    assert write_certificates(out, tmp / "h.sqlite")[0] == 4
    return out


@pytest.mark.slow
def test_a_hexadecimal_census_s_certificates_are_re_proved(hex_certificates):
    rows, _ = certify.read_certificates(str(hex_certificates))
    got = {r["code"]: (r["preperiod"], r["period"], r["saltus"], r["bound"]) for r in rows}
    assert got == {"0.8": (1, 3, 1, 22), "0.F8": (7, 6, 4, 61), "0.0B2": (7, 2, 1, 71),
                   "0.B14": (780, 84, 0, 3 * 780 + 3 * 84 + 3)}, got
    res = _run(hex_certificates)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.strip() == "4 certificates: 4 re-proved, 0 refuted, 0 not reached"


@pytest.mark.slow
@pytest.mark.parametrize("code, change, message", [
    ("0.8", lambda r, b: r.__setitem__(5, 21), "its bound is 21, but the theorem needs 22 heaps"),
    ("0.8", lambda r, b: r.__setitem__(4, 2), "the power-of-two saltus theorem does not prove it"),
    ("0.8", lambda r, b: r.__setitem__(4, 3), "saltus 3 is not a power of two"),
    ("0.B14", lambda r, b: b.__setitem__(400, b[400] ^ 1), "G(400) = "),
    ("0.0B2", lambda r, b: r.__setitem__(0, "0.0B3"), None),  # the same game: re-proved under its own digits
    ("0.0B2", lambda r, b: r.__setitem__(0, "0.0B6"), None),
    ("0.0B2", lambda r, b: (r.__setitem__(3, 4), r.__setitem__(4, 2), np.append(b, [b[7] + 1, b[8] + 1]))[2],
     "period 4 is not the least"),
    ("0.0B2", lambda r, b: (r.__setitem__(2, 8), r.__setitem__(5, 72), np.append(b, b[7] + 1))[2],
     "preperiod 8 is not the least"),
    ("0.B14", lambda r, b: r.__setitem__(5, 2 * 780 + 2 * 84 + 3), "but the theorem needs 2,595 heaps"),  # r = 2
    ("0.B14", lambda r, b: r.__setitem__(0, "0.314"), "but the theorem needs 1,731 heaps"),  # an octal code: r = 2
])
def test_a_damaged_hexadecimal_certificate_is_refuted_by_name(hex_certificates, tmp_path, code, change, message):
    def edit(h, b):
        row = next(r for r in h["rows"] if r[0] == code)
        longer = change(row, b[row[1]])  # a change may hand back a longer block
        if isinstance(longer, np.ndarray):
            b[row[1]] = longer.astype(b[row[1]].dtype)
            h["blocks"][row[1]]["length"] = len(longer)
        h["rows"] = [row]
    res = _run(_edit(hex_certificates, tmp_path, edit))
    if message is None:
        assert res.returncode == 0, res.stdout
        return
    assert res.returncode == 1, res.stdout + res.stderr
    line = next(x for x in res.stdout.splitlines() if x.startswith("REFUTED"))
    assert message in line, res.stdout


HEX_SHIPPED = ROOT / "data" / "census-hex-certificates.xz"
HEX_TABLE = ROOT / "data" / "census-hex.csv"


def test_the_shipped_hexadecimal_certificates_are_the_table_s_proven_rows():
    """One certificate per proven row of data/census-hex.csv, with its period, preperiod, saltus and bound, and the
    largest value of its block; none for an open row."""
    rows, blocks = certify.read_certificates(str(HEX_SHIPPED))
    with HEX_TABLE.open() as f:
        table = {r["code"]: r for r in csv.DictReader(f)}
    assert len(rows) == sum(r["status"] == "proven" for r in table.values()) >= 1798
    for r in rows:
        t = table[r["code"]]
        assert t["status"] == "proven"
        assert (int(t["preperiod"]), int(t["period"]), int(t["saltus"]), int(t["proof_bound"])) == \
            (r["preperiod"], r["period"], r["saltus"], r["bound"]), r["code"]
        block = blocks[r["block"]]
        assert len(block) >= r["preperiod"] + r["period"] and r["max_value"] == int(block.max())


@pytest.mark.slow
def test_every_shipped_hexadecimal_certificate_is_re_proved():
    """Issue #50's target: every proven row of the hexadecimal table re-proved from the rules alone (periods by
    Guy–Smith with r = 3, arithmetic periods by the verifier's own saltus theorem), none refuted, none left out."""
    rows, _ = certify.read_certificates(str(HEX_SHIPPED))
    res = subprocess.run([sys.executable, "-m", "octal.certify", str(HEX_SHIPPED)], capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr
    assert res.stdout.strip() == f"{len(rows):,} certificates: {len(rows):,} re-proved, 0 refuted, 0 not reached"
