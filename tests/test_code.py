import math

import pytest

from octal import OctalCodeError, parse_code
from octal.rules.code import OctalCode


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("0.77", "0.77"),
        (".77", "0.77"),
        ("0\u00b777", "0.77"),
        ("  0.77  ", "0.77"),
        ("4.07", "4.07"),
        ("0.007", "0.007"),
        ("0.6", "0.6"),
        ("0.f", "0.F"),
        ("0.8", "0.8"),
        ("0.2048", "0.2048"),
        ("4.0c", "4.0C"),
        ("0.[3]", "0.[3]"),
        ("0.0[7]", "0.0[7]"),
        ("0.3[03]", "0.[30]"),
        ("0.3[3]", "0.[3]"),
        ("0.[33]", "0.[3]"),
        ("0.770", "0.77"),
        ("0.7[0]", "0.7"),
    ],
)
def test_accepts_and_canonicalises(text, canonical):
    code = parse_code(text)
    assert str(code) == canonical
    assert parse_code(str(code)) == code  # the canonical form parses back to the same game


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("77", "no point"),
        (".", "no digits"),
        (" . ", "no digits"),
        ("0.7x", "position 4"),
        ("0.7W", "not a digit"),
        ("1.7", "d0"),
        ("2.7", "d0"),
        ("0.[", "never closed"),
        ("0.[]", "empty brackets"),
        ("0.3]", "without a matching"),
        ("0.[3][4]", "more than one bracket group"),
        ("0.[3]4", "must end the code"),
        ("0..7", "second point"),
        ("12.7", "additive digits"),
        ("0." + "7" * 300, "longer than 256"),
    ],
)
def test_rejects_with_a_specific_error(text, fragment):
    with pytest.raises(OctalCodeError) as info:
        parse_code(text)
    assert fragment in str(info.value)


def test_equality_and_hash():
    assert parse_code(".77") == parse_code("0.77") == OctalCode((0, 7, 7))
    assert len({parse_code(".77"), parse_code("0\u00b777"), parse_code("0.770")}) == 1
    assert parse_code("0.77") != parse_code("0.7")


def test_max_take_and_heaps():
    assert parse_code("0.77").max_take == 2
    assert parse_code("0.007").max_take == 3
    assert parse_code("0.[3]").max_take == math.inf
    assert parse_code("0.77").max_heaps == 2
    assert parse_code("0.8").max_heaps == 3
    assert parse_code("4.0C").max_heaps == 3


def test_digit_lookup_through_the_tail():
    code = parse_code("0.3[03]")  # 0.3030303…
    assert [code.digit(k).mask for k in range(7)] == [0, 3, 0, 3, 0, 3, 0]


def test_rules_in_words():
    assert parse_code("0.77").describe() == (
        "remove 1 or 2 tokens from a heap, optionally splitting what remains into two heaps"
    )
    assert "any number" in parse_code("0.[3]").describe()
    assert "without removing" in parse_code("4.7").describe()
    assert "three heaps" in parse_code("0.8").describe()


def test_numbers_that_int_refuses_are_refused_in_one_line():
    """str.isdigit accepts superscripts and Python refuses 5,000-digit strings: both are plain OctalCodeErrors."""
    import pytest

    from octal import OctalCodeError
    from octal.rules.presets import resolve

    long = "9" * 5000
    for text in ("S(²)", "allbut(³)", "0.0n7(⁵)", f"0.&{long};", f"0.{{{long}}}", f"S({long})", f"allbut({long})"):
        with pytest.raises(OctalCodeError):
            resolve(text)
