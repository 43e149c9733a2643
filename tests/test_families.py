"""Subtraction games S(…) and their all-but forms, against a plain mex reference and the known facts."""

import random

import pytest

from octal import OctalCodeError, UnknownGameError, nim_sequence, resolve
from octal.rules.families import allbut_code, parse_family, subtraction_code


def reference(n: int, allowed) -> list[int]:
    """G(0..n−1) by the definition: G(h) = mex{G(h − k) : k allowed, k ≤ h}."""
    g: list[int] = []
    for h in range(n):
        seen = {g[h - k] for k in range(1, h + 1) if allowed(k)}
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return g


@pytest.mark.parametrize("seed", range(12))
def test_random_subtraction_sets_match_the_reference(seed):
    rng = random.Random(seed)
    ks = sorted(rng.sample(range(1, 20), rng.randint(1, 5)))
    text = rng.choice(["S({})", "subtraction:{}", "s( {} )"]).format(",".join(map(str, ks)))
    code, _ = resolve(text)
    assert code == subtraction_code(ks)
    assert nim_sequence(text, 400).values.tolist() == reference(400, lambda k: k in ks)


@pytest.mark.parametrize("seed", range(8))
def test_random_allbut_sets_match_the_reference(seed):
    rng = random.Random(100 + seed)
    ks = sorted(rng.sample(range(1, 12), rng.randint(0, 4)))
    text = rng.choice(["allbut({})", "all-but:{}"]).format(",".join(map(str, ks)))
    assert resolve(text)[0] == allbut_code(ks)
    assert nim_sequence(text, 300).values.tolist() == reference(300, lambda k: k not in ks)


@pytest.mark.parametrize("k", range(1, 9))
def test_s_one_to_k_has_period_k_plus_one(k):
    r = nim_sequence("S({})".format(",".join(map(str, range(1, k + 1)))), until_proven=True)
    p = r.periodicity
    assert (p.status, p.period, p.preperiod) == ("proven", k + 1, 0)
    assert all(r.value(h) == h % (k + 1) for h in (10**6, 10**12 + 7))


@pytest.mark.parametrize("ks", [(2, 3, 7), (1, 4, 5), (3, 5, 8), (2, 5, 7), (1, 3, 4)])
def test_a_proven_subtraction_period_holds_far_beyond_its_bound(ks):
    """The one-heap bound n0 + t + p (r = 1) is what proves these: the period must hold over 3,000 heaps."""
    text = "S({})".format(",".join(map(str, ks)))
    r = nim_sequence(text, until_proven=True)
    assert r.periodicity.status == "proven"
    ref = reference(3000, lambda k: k in ks)
    assert [r.value(h) for h in range(3000)] == ref


def test_until_proven_on_s_2_3_7_end_to_end():
    from typer.testing import CliRunner

    from octal.front.cli import app

    out = CliRunner().invoke(app, ["run", "S(2,3,7)", "--until-proven"]).output
    assert "proven" in out and "code     0.0330003" in out


@pytest.mark.parametrize("text", ["S()", "S(0)", "S(-1)", "S(a)", "S(1,2", "allbut(1.5)", "S(300)", "S(1)(2)"])
def test_bad_sets_are_refused(text):
    with pytest.raises((OctalCodeError, UnknownGameError)):
        resolve(text)


def test_other_text_is_not_a_family():
    assert parse_family("0.77") is None and parse_family("kayles") is None


def test_flammenkamps_0_0n7_family_by_its_parameter():
    """0.0n7(n): remove exactly n tokens leaving 0, 1 or 2 heaps; n = 1, 2, 3 are 0.7, Dawson's Kayles, Treblecross."""
    assert [str(resolve(f"0.0n7({n})")[0]) for n in (1, 2, 3, 5)] == ["0.7", "0.07", "0.007", "0.00007"]
    assert resolve("0.0n7:2")[1].name == "Dawson's Kayles"
    r = nim_sequence("0.0n7(2)", until_proven=True)
    assert (r.periodicity.status, r.periodicity.period, r.periodicity.preperiod) == ("proven", 34, 53)
    for bad in ("0.0n7()", "0.0n7(1,2)", "0.0n7(0)", "0.0n7(x)"):
        with pytest.raises(OctalCodeError):
            resolve(bad)
