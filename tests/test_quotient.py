"""Misère quotients: published orders, exhaustive misère search, the Sibert–Conway forms of misère Kayles."""

import itertools
import json
import random

import numpy as np
import pytest
from reference import partitions
from typer.testing import CliRunner

from octal import parse_code
from octal.engine.sequence import nim_sequence
from octal.errors import DataFileError, ResourceLimitError
from octal.front.cli import app
from octal.misere import MisereSearch, misere_quotient
from octal.misere.quotient import MisereQuotient, quotient_solution
from octal.positions.position import heap_moves
from octal.solve import solve_position

runner = CliRunner()
KAYLES = parse_code("0.77")


@pytest.fixture(scope="module")
def kayles():
    return misere_quotient(KAYLES)


# ---- published facts, computed -------------------------------------------------------------------

def test_kayles_has_order_40_p_portion_9_and_period_12(kayles):
    assert (kayles.order, kayles.p_portion) == (40, 9)
    assert kayles.status == "finite" and kayles.period == 12 and kayles.tame is False
    # the proof covers the Guy–Smith bound for period 12 from the preperiod found
    assert kayles.max_heap + 1 >= 2 * kayles.preperiod + 2 * 12 + 2


def test_r8_and_the_tame_nim_quotients():
    r8 = misere_quotient(parse_code("0.75"))
    assert (r8.order, r8.p_portion, r8.tame, r8.status) == (8, 2, False, "finite")
    nim3 = misere_quotient(parse_code("0.[3]"), max_heap=3)
    nim7 = misere_quotient(parse_code("0.[3]"), max_heap=7)
    assert (nim3.order, nim3.p_portion, nim3.tame) == (6, 2, True)
    assert (nim7.order, nim7.p_portion, nim7.tame) == (10, 2, True)
    # a game whose heaps are all *0 and *1 has the quotient of *1 alone: Z2
    assert (misere_quotient(parse_code("0.3")).order, misere_quotient(parse_code("0.3")).tame) == (2, True)


@pytest.mark.slow
def test_dawsons_kayles_keeps_growing():
    q = misere_quotient(parse_code("0.07"), max_order=120)  # 200: 360 elements by heap 30, 5 times the time
    assert q.status == "growing" and q.period is None
    assert q.order >= 120 and q.max_heap >= 25  # over a hundred elements by heap 25 (Plambeck–Siegel)
    assert "passed 120" in q.reason


# ---- exhaustive checks -----------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("text,total", [("0.77", 24), ("0.75", 24), ("0.07", 22), ("0.137", 18), ("0.15", 22),
                                        ("4.7", 16), ("0.6", 14), ("0.71", 22)])
def test_quotient_matches_exhaustive_search_on_every_small_position(text, total):
    code = parse_code(text)
    q = misere_quotient(code, max_heap=total)
    search = MisereSearch(code)
    for n in range(1, total + 1):
        for heaps in partitions(n, q.max_heap):
            assert q.is_p(heaps) == search.is_p(heaps), heaps


@pytest.mark.slow
def test_random_larger_kayles_positions_match_the_search(kayles):
    rng = random.Random(7)
    search = MisereSearch(KAYLES)
    for _ in range(60):
        heaps = []
        while sum(heaps) < rng.randint(25, 38):
            heaps.append(rng.randint(1, 20))
        assert kayles.is_p(heaps) == search.is_p(heaps), heaps


# The Sibert–Conway classification of misère Kayles (Sibert & Conway 1992, as summarised by Plambeck 1992):
# positions made of rows of lengths 1, 4, 5, 9, 12, 17, 20, 25 that are P in normal play but N in misère
# play (PN), and N in normal play but P in misère play (NP). E(S): an even number of rows with lengths in
# S; D(S): an odd number; a bare length: exactly one such row. All other positions keep their outcome.
PN_FORMS = [[("E", {5}), ("E", {4, 1})],
            [("E", {17, 12, 9}), ("E", {20, 4, 1})],
            [("1", {25}), ("E", {17, 12, 9}), ("D", {20, 4, 1})]]
NP_FORMS = [[("D", {5}), ("D", {4, 1})],
            [("E", {5}), ("D", {4, 1})],
            [("E", {4, 1}), ("D", {9})],
            [("1", {12}), ("E", {4, 1})],
            [("E", {17, 12, 9}), ("D", {20, 4, 1})],
            [("1", {25}), ("D", {9}), ("D", {4, 1})]]


def _fits(rows, form):
    allowed = set().union(*(s for _, s in form))
    if any(r not in allowed for r in rows):
        return False
    for kind, s in form:
        k = sum(r in s for r in rows)
        if (kind == "E" and k % 2) or (kind == "D" and k % 2 == 0) or (kind == "1" and k != 1):
            return False
    return True


def test_sibert_conway_forms_of_misere_kayles(kayles):
    g = nim_sequence(KAYLES, 30).values
    for size in range(1, 7):
        for rows in itertools.combinations_with_replacement([1, 4, 5, 9, 12, 17, 20, 25], size):
            nimsum = 0
            for r in rows:
                nimsum ^= int(g[r])
            normal_p, misere_p = nimsum == 0, kayles.is_p(rows)
            assert (normal_p and not misere_p) == any(_fits(rows, f) for f in PN_FORMS), rows
            assert (misere_p and not normal_p) == any(_fits(rows, f) for f in NP_FORMS), rows


def test_any_size_misere_kayles_moves_are_consistent(kayles):
    """From a P-position every move leads to N; every listed winning move leads to P (huge heaps included)."""
    rng = random.Random(3)
    for i in range(30):
        heaps = ([rng.randint(1, 40) for _ in range(rng.randint(1, 4))]
                 + ([rng.randint(10**9, 10**12)] if i % 5 == 0 else []))
        sol = quotient_solution(kayles, heaps)
        assert sol.outcome == ("P" if kayles.is_p(heaps) else "N")
        small = [h for h in set(heaps) if h < 2000]
        for h in small:
            rest = list(heaps)
            rest.remove(h)
            for mv in heap_moves(KAYLES, h):
                after = kayles.is_p(rest + list(mv.leaves))
                if sol.outcome == "P":
                    assert not after
                elif mv in sol.winning_moves:
                    assert after
                elif not sol.truncated:
                    assert not after  # every move to a P-position is listed
        for mv in sol.winning_moves:
            rest = list(heaps)
            rest.remove(mv.heap)
            assert kayles.is_p(rest + list(mv.leaves))


def test_period_reaches_any_heap(kayles):
    n0, p = kayles.preperiod, kayles.period
    big = 10**15 + 5
    assert kayles.pretend(big) == kayles.pretend(n0 + (big - n0) % p)
    unproven = misere_quotient(parse_code("0.07"), max_heap=12)
    with pytest.raises(ResourceLimitError, match="beyond the quotient"):
        unproven.pretend(13)


# ---- the structure ---------------------------------------------------------------------------------

def _word_element(q, pres, exps):
    x = 0
    for letter, e in enumerate(exps):
        for _ in range(e):
            x = int(q.mul[x, q.phi[pres.heaps[letter]]])
    return x


@pytest.mark.parametrize("text", ["0.77", "0.75", "0.15"])
def test_table_is_a_commutative_monoid_and_the_presentation_holds(text):
    q = misere_quotient(parse_code(text))
    m = q.mul
    n = len(m)
    assert np.array_equal(m, m.T)
    a = np.arange(n)
    assert np.array_equal(m[m[a[:, None], a[None, :]][:, :, None], a[None, None, :]],
                          m[a[:, None, None], m[a[None, :, None], a[None, None, :]]])  # associativity
    pres = q.presentation
    assert sorted(_word_element(q, pres, w) for w in pres.normal) == list(range(n))
    for u, v in pres.relations:
        assert _word_element(q, pres, u) == _word_element(q, pres, v)
    # no two elements are indistinguishable: the quotient is reduced
    for x, y in itertools.combinations(range(n), 2):
        assert not np.array_equal(q.p[m[x]], q.p[m[y]])


def test_verification_rejects_a_wrong_quotient(kayles):
    assert kayles.check()
    for x in range(kayles.order):
        bad = MisereQuotient(KAYLES, kayles.mul, kayles.p.copy(), kayles.phi.copy(), [])
        bad.p[x] = not bad.p[x]
        assert not bad.check()
    bad = MisereQuotient(KAYLES, kayles.mul, kayles.p, kayles.phi.copy(), [])
    bad.phi[7] = bad.phi[6]
    assert not bad.check()


# ---- saving, loading, the command line ---------------------------------------------------------

def test_save_and_load(tmp_path, kayles):
    path = kayles.save(tmp_path / "kayles.json")
    back = MisereQuotient.load(path)
    assert np.array_equal(back.mul, kayles.mul) and np.array_equal(back.p, kayles.p)
    assert (back.period, back.preperiod, back.status) == (12, kayles.preperiod, "finite")
    assert back.is_p([10**12, 7, 3]) == kayles.is_p([10**12, 7, 3])
    doc = json.loads(path.read_text())
    doc["p"] = doc["p"][1:]
    path.write_text(json.dumps(doc))
    with pytest.raises(DataFileError, match="does not match the rules"):
        MisereQuotient.load(path)
    path.write_text("{not json")
    with pytest.raises(DataFileError, match="cannot read"):
        MisereQuotient.load(path)
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(DataFileError, match="not a saved misère quotient"):
        MisereQuotient.load(path)


@pytest.mark.slow
def test_misere_cli_json_contract():
    r = runner.invoke(app, ["misere", "kayles", "--json"])
    assert r.exit_code == 0
    doc = json.loads(r.output)
    assert list(doc)[:8] == ["code", "order", "p_portion", "tame", "max_heap", "period", "preperiod", "status"]
    assert (doc["code"], doc["order"], doc["p_portion"], doc["tame"], doc["period"], doc["status"]) == (
        "0.77", 40, 9, False, 12, "finite")
    r = runner.invoke(app, ["misere", "nim", "--max-heap", "3", "--json"])
    doc = json.loads(r.output)
    assert (doc["order"], doc["tame"], doc["max_heap"], doc["status"]) == (6, True, 3, "finite")
    r = runner.invoke(app, ["misere", "0.07", "--max-order", "150", "--json"])
    doc = json.loads(r.output)
    assert doc["status"] == "growing" and doc["period"] is None and doc["order"] > 20


def test_misere_cli_text_and_saved_quotient_for_solve(tmp_path):
    out = tmp_path / "q.json"
    r = runner.invoke(app, ["misere", "kayles", "--out", str(out)])
    assert r.exit_code == 0
    assert "|Q| = 40, |P| = 9" in r.output and "a = Φ(1)" in r.output and "a² = 1" in r.output
    assert "Φ(n + 12) = Φ(n)" in r.output and " 12+" in r.output and "status     finite" in r.output
    r = runner.invoke(app, ["solve", "kayles", "5", "4", "1", "1", "--misere", "--quotient", str(out), "--json"])
    doc = json.loads(r.output)
    assert doc["outcome"] == "P" and doc["play"] == "misere" and "quotient" in doc["method"]
    r = runner.invoke(app, ["misere", "--load", str(out)])
    assert r.exit_code == 0 and "|Q| = 40" in r.output


def test_solve_misere_kayles_any_size():
    sol = solve_position(KAYLES, [10**12, 5], misere=True)
    assert "quotient" in sol.method and sol.outcome in "PN"
    r = runner.invoke(app, ["solve", "kayles", "1000000000000", "--misere"])
    assert r.exit_code == 0 and "misère quotient" in r.output
    # Sibert–Conway's NP and PN positions: one row of 5 and three of {4, 1}; two rows of 5
    assert "an NP position" in runner.invoke(app, ["solve", "kayles", "5", "4", "1", "1", "--misere"]).output
    assert "a PN position" in runner.invoke(app, ["solve", "kayles", "5", "5", "--misere"]).output


@pytest.mark.parametrize("args,fragment", [
    (["misere", "kayles", "--max-heap", "-1"], "non-negative"),
    (["misere", "kayles", "--max-order", "0"], "positive"),
    (["misere", "kayles", "--time-limit", "0"], "positive"),
    (["misere", "0.9z"], "digit"),
    (["misere"], "name a game"),
    (["misere", "--load", "/nonexistent/q.json"], "cannot read"),
    (["misere", "kayles", "--out", "q.txt"], ".json"),
    (["solve", "kayles", "3", "--quotient", "q.json"], "--misere"),
])
def test_misere_cli_errors(args, fragment):
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and fragment in r.output and len(r.output.strip().splitlines()) == 1


def test_the_any_size_kayles_quotient_matches_the_search_on_every_position_to_24_tokens(kayles):
    search = MisereSearch(KAYLES)
    for n in range(1, 25):
        for heaps in partitions(n):
            assert kayles.is_p(heaps) == search.is_p(heaps), heaps


def test_tameness_is_recognised_structurally():
    for heaps, order in [(1, 2), (3, 6), (7, 10), (15, 18)]:
        q = misere_quotient(parse_code("0.[3]"), max_heap=heaps)
        assert (q.order, q.tame) == (order, True)
    assert misere_quotient(parse_code("0.56"), max_heap=30).tame is True  # a tame game other than nim
    assert misere_quotient(parse_code("0.07"), max_heap=20).tame is False


def _ctrl_c_at(monkeypatch, heap: int) -> None:
    """The quotient builder gets Ctrl-C when it would add heap `heap`."""
    from octal.misere import quotient as qmod

    real_add = qmod._Builder.add

    def add(self):
        if self.n >= heap:
            raise KeyboardInterrupt
        real_add(self)

    monkeypatch.setattr(qmod._Builder, "add", add)


def test_ctrl_c_saves_the_part_verified_so_far(tmp_path, monkeypatch):
    _ctrl_c_at(monkeypatch, 20)
    out = tmp_path / "partial.json"
    r = runner.invoke(app, ["misere", "kayles", "--out", str(out)])
    assert r.exit_code == 130 and "saved the quotient so far" in r.output
    q = MisereQuotient.load(out)  # checked against the rules on loading
    assert q.max_heap == 20 and q.status == "growing" and q.reason == "interrupted"


def test_the_api_saves_the_quotient_asked_for_at_the_end_and_on_ctrl_c(tmp_path, monkeypatch):
    """misere_quotient(out=…) writes the file itself, so the CLI only prints: the whole quotient at the end, the part
    verified so far on Ctrl-C (also handed back as `partial`); a bad name is refused before any computing."""
    done = misere_quotient("0.75", out=tmp_path / "whole.json").to_dict()
    read = MisereQuotient.load(tmp_path / "whole.json").to_dict()  # verified on loading; it did no search work
    assert {k: v for k, v in read.items() if k not in ("seconds", "work")} == \
        {k: v for k, v in done.items() if k not in ("seconds", "work")}
    with pytest.raises(DataFileError):
        misere_quotient("0.75", out=tmp_path / "q.npy")
    _ctrl_c_at(monkeypatch, 9)
    with pytest.raises(KeyboardInterrupt) as caught:
        misere_quotient("kayles", out=tmp_path / "part.json")
    saved = MisereQuotient.load(tmp_path / "part.json")
    assert saved.max_heap == caught.value.partial.max_heap == 9 and saved.reason == "interrupted"


def test_monoid_building_blocks():
    from octal.misere import monoid

    c = monoid.cyclic(2, 3)  # x^0..x^4 with x^5 = x^2
    assert c.shape == (5, 5) and c[1, 4] == 2 and c[4, 4] == 2 + (8 - 2) % 3 and c[0, 3] == 3
    pm = monoid.ProductMonoid([monoid.cyclic(0, 2), monoid.cyclic(1, 2)], [(1, 0), (0, 1)], limit=100)
    assert pm.size == 6  # Z2 × ⟨b | b³ = b⟩
    g = pm.index((1, 1))
    assert pm.product(g, g) == pm.index((0, 2)) and pm.column(g)[0] == g
    with pytest.raises(OverflowError):
        monoid.ProductMonoid([monoid.cyclic(0, 2), monoid.cyclic(1, 2)], [(1, 0), (0, 1)], limit=3)
    # P = {x^2} in ⟨x | x^4 = x^2⟩: x·x^k and x^3·x^k are in P for the same k (odd), the rest differ
    cls = monoid.syntactic_classes(monoid.cyclic(2, 2)[:, [1]], np.array([False, False, True, False]))
    assert cls.tolist() == [0, 1, 2, 1]


def _classes_by_tuples(cols: np.ndarray, p: np.ndarray) -> list[int]:
    """Moore's refinement by Python tuples, classes numbered by first element: the reference for syntactic_classes."""
    cls = [int(b) for b in p]
    while True:
        names: dict = {}
        new = [names.setdefault((cls[x], *(cls[y] for y in cols[x])), len(names)) for x in range(len(cls))]
        if len(names) == len(set(cls)):
            return new
        cls = new


@pytest.mark.parametrize("m, gens, seed", [(60, 3, 0), (300, 70, 1), (2000, 9, 2), (500, 40, 3)])
def test_syntactic_classes_are_moore_s_refinement(m, gens, seed):
    """Against plain tuples, with enough generators that the int64 keys must be renumbered before they overflow
    (70 generators with two classes: 2⁷¹ keys)."""
    from octal.misere import monoid

    rng = np.random.default_rng(seed)
    cols = rng.integers(0, m, (m, gens))
    cols[:, 0] = np.minimum(np.arange(m) + 1, m - 1)  # one generator walks every element: classes of many sizes
    p = rng.random(m) < 0.3
    assert monoid.syntactic_classes(cols, p).tolist() == _classes_by_tuples(cols, p)
    # 70 generators that send everything to the identity: the classes are P and the rest, read off 2⁷¹ keys
    assert monoid.syntactic_classes(np.zeros((m, 70), dtype=np.int64), p).tolist() == [int(p[0] != b) for b in p]


def test_a_product_monoid_s_table_among_some_elements_is_read_off_its_columns(monkeypatch):
    from octal.misere import monoid

    pm = monoid.ProductMonoid([monoid.cyclic(3, 4), monoid.cyclic(2, 6), monoid.cyclic(0, 3)],
                              [(1, 0, 0), (0, 1, 1), (1, 1, 0)], limit=1000)
    elems = np.array([0, 5, 2, pm.size - 1, 7, 11, 3])
    expect = np.stack([pm.column(int(y))[elems] for y in elems], axis=1)
    monkeypatch.setattr(monoid, "TABLE_BAND", 10)  # bands of one row, then of several with a short last one
    assert (pm.table(elems) == expect).all()
    monkeypatch.setattr(monoid, "TABLE_BAND", 3 * len(elems))
    assert (pm.table(elems) == expect).all()
    assert all(pm.product(int(x), int(y)) == expect[i, j] for i, x in enumerate(elems) for j, y in enumerate(elems))


def test_a_quotient_stopped_by_its_budget_is_asked_once(monkeypatch):
    from octal import solve
    from octal.misere import quotient as qmod

    calls = []
    real = qmod.misere_quotient

    def counting(*args, **kwargs):
        calls.append(kwargs.get("max_heap"))
        return real(*args, **kwargs)

    monkeypatch.setattr(solve, "misere_quotient", counting)  # the name solve.py calls
    monkeypatch.setattr(solve, "_QUOTIENTS", {})
    code = parse_code("0.6")  # its quotient passes 600 elements by heap 17
    first = solve.solve_position(code, (20, 1), misere=True)
    second = solve.solve_position(code, (19, 2), misere=True)
    small = solve.solve_position(code, (9, 4), misere=True)
    assert len(calls) == 1
    assert "exhaustive" in first.method and "exhaustive" in second.method and "quotient" in small.method


def test_a_loaded_quotient_refuses_options_that_ask_for_computing(tmp_path):
    """`octal misere --load q.json --max-heap 5` used to ignore --max-heap silently: it asks for a quotient to be
    computed, so with --load it is one line and exit 2; --load alone shows the saved quotient."""
    path = tmp_path / "q.json"
    assert CliRunner().invoke(app, ["misere", "kayles", "--out", str(path), "--quiet"]).exit_code == 0
    r = CliRunner().invoke(app, ["misere", "--load", str(path), "--max-heap", "5"])
    assert r.exit_code == 2 and "--max-heap" in r.output and "--load" in r.output
    assert CliRunner().invoke(app, ["misere", "--load", str(path)]).exit_code == 0
