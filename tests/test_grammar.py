"""CGSuite's take-and-break grammar: canonical forms, errors, and nim values against a brute-force reference.

Random codes of each grammar form are written as text from a plain description (for each k: which heap counts
are allowed and under which mark, and whether the top count's rule goes on for ever), and their values are
checked against `rule_values`, which enumerates every partition of what is left and filters it by the
description alone — no code from octal.rules.options or the kernels.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from reference import partitions

from octal import GrundySequence, OctalCodeError, nim_sequence, parse_code
from octal.engine.kernels.general import fill_general
from octal.engine.moves import kernel_moves, tie_table

B32 = "0123456789ABCDEFGHIJKLMNOPQRSTUV"


# ---- the reference --------------------------------------------------------------------------------
class Rule:
    """One digit as plain data: marks[j] for each allowed count j, `more`: the top count's mark for every count
    above."""

    def __init__(self, marks: dict[int, str], more: bool = False):
        self.marks, self.more = marks, more

    def mark(self, j: int) -> str | None:
        if j in self.marks:
            return self.marks[j]
        top = max(self.marks, default=-1)
        return self.marks[top] if self.more and j > top and top >= 0 else None


def rule_values(rules: list[Rule | None], n: int, tail: list[Rule] | None = None) -> list[int]:
    """G(0..n−1) by the definition: every k, every multiset of heaps left, kept when its count and mark allow it.

    rules[k] is digit k (None: zero) for k < len(rules); the tail repeats from k = len(rules)."""

    def rule(k: int) -> Rule | None:
        if k < len(rules):
            return rules[k]
        return tail[(k - len(rules)) % len(tail)] if tail else None

    G: list[int] = []
    for h in range(n):
        opts = set()
        for k in range(0, h + 1):
            r = rule(k)
            if r is None:
                continue
            for parts in partitions(h - k):
                j = len(parts)
                if k == 0 and j < 2:
                    continue
                mark = r.mark(j)
                if mark is None:
                    continue
                distinct = len(set(parts))
                if j >= 2 and ((mark == "!" and distinct != j) or (mark == "?" and distinct == 1)
                               or (mark == "=" and distinct != 1)):
                    continue
                x = 0
                for p in parts:
                    x ^= G[p]
                opts.add(x)
        v = 0
        while v in opts:
            v += 1
        G.append(v)
    return G


# ---- random codes of each form, as text and as rules ---------------------------------------------------
MARKS = ["", "", "!", "?", "="]


def random_digit(rng: random.Random, form: str, splits_only: bool = False) -> tuple[str, Rule | None]:
    """A digit token of `form` and its meaning; d0 (`splits_only`) never allows 0 or 1 heap."""
    low = 2 if splits_only else 0
    if form == "base32":
        mask = rng.randrange(32) & ~(3 if splits_only else 0)
        mark = rng.choice(MARKS)
        counts = [j for j in range(5) if mask >> j & 1]
        text = B32[mask] + mark
    elif form == "amp":
        counts = sorted(rng.sample(range(low, 7), rng.randint(1, 3)))
        mark = rng.choice(MARKS)
        text = f"&{sum(1 << j for j in counts)};" + mark
    elif form == "star":
        mark = rng.choice(MARKS)
        if splits_only:
            return "{2+}" + mark, Rule({2: mark}, more=True)
        return "*" + mark, Rule({0: mark}, more=True)
    else:  # "{…}" lists: per-count marks, or one mark after the brace, with or without '+'
        counts = sorted(rng.sample(range(low, 6), rng.randint(1, 3)))
        more = rng.random() < 0.4
        if rng.random() < 0.5:
            marks = {j: rng.choice(MARKS) for j in counts}
            text = "{" + ",".join(f"{j}{marks[j]}" for j in counts) + ("+" if more else "") + "}"
        else:
            mark = rng.choice(MARKS)
            marks = {j: mark for j in counts}
            text = "{" + ",".join(map(str, counts)) + ("+" if more else "") + "}" + mark
        return text, Rule(marks, more)
    if not counts:
        return text, None
    return text, Rule({j: mark for j in counts})


def random_code(rng: random.Random, form: str) -> tuple[str, list[Rule | None], list[Rule] | None]:
    """A code of `form` as text, with its digits d0, d1, … and its repeating tail as plain rules."""
    d0_text, d0 = random_digit(rng, form, splits_only=True) if rng.random() < 0.4 else ("0", None)
    texts, rules = [d0_text], [d0]
    for _ in range(rng.randint(1, 4)):
        text, r = random_digit(rng, "base32" if form == "tail" else form) if rng.random() < 0.7 else ("0", None)
        texts.append(text)
        rules.append(r)
    code = texts[0] + "." + "".join(texts[1:])
    if form != "tail":
        return code, rules, None
    tail_texts, tail = [], []
    for _ in range(rng.randint(1, 2)):
        mask = rng.choice([1, 2, 3, 4, 6, 7])
        tail_texts.append(B32[mask])
        tail.append(Rule({j: "" for j in range(3) if mask >> j & 1}))
    return code + "[" + "".join(tail_texts) + "]", rules, tail


FORMS = ["base32", "amp", "star", "list", "tail"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("seed", range(24))
def test_random_codes_match_the_reference(form, seed):
    rng = random.Random(f"{form}-{seed}")
    text, rules, tail = random_code(rng, form)
    n = 22 if form in ("star", "list") else 26
    want = rule_values(rules, n, tail)
    code = parse_code(text)
    assert parse_code(str(code)) == code, text
    got = nim_sequence(code, n).values.tolist()
    assert got == want, (text, str(code))
    # the rules' own options give the same values (positions, play and misère use them)
    G: list[int] = []
    for h in range(n):
        seen = set()
        for _, leaves in code.options(h):
            x = 0
            for p in leaves:
                x ^= G[p]
            seen.add(x)
        G.append(min(set(range(len(seen) + 1)) - seen))
    assert G == want


@pytest.mark.parametrize("seed", range(12))
def test_two_heap_constraints_agree_on_every_kernel(seed):
    """Octal-tier codes with ! ? = on splits: naive, sparse and the general kernel agree far beyond brute force."""
    rng = random.Random(seed)
    digits = [rng.choice("01234567") + (rng.choice(["!", "?", "=", ""]) if rng.random() < 0.5 else "")
              for _ in range(rng.randint(1, 3))]
    text = rng.choice(["0", "4", "4!", "4=", "4?"]) + "." + "".join(digits)
    code = parse_code(text)
    n = 3000
    naive = GrundySequence(code, kernel="naive")
    naive.extend(n)
    if len(kernel_moves(code, n).two) + len(kernel_moves(code, n).two_unequal):
        sparse = GrundySequence(code, kernel="sparse")
        sparse.extend(n)
        assert np.array_equal(naive.values, sparse.values), text
    m = 1500  # the general kernel, sized for the largest value
    words = 1
    while 64 * words <= int(naive.values[:m].max()):
        words *= 2
    G = np.zeros(m, np.uint16)
    reached, _ = fill_general(G, 0, m, 0, tie_table(code, m), words, 65535)
    assert reached == m and np.array_equal(G, naive.values[:m]), text


def test_grundys_game_matches_the_oeis_and_the_reference(oeis_rows):
    want = oeis_rows["4!.0"]["values"]
    for text in ("4!.0", "4?.0", "{2!}.0", "&4;!.0"):
        assert nim_sequence(text, 100).values.tolist() == want, text
    assert rule_values([Rule({2: "!"})], 30) == want[:30]


def test_grundys_game_sparse_matches_naive_and_flammenkamp():
    """Sparse and naive agree on 2¹⁶ heaps; the first rare positions are Flammenkamp's published sparse values."""
    n = 1 << 16
    a, b = GrundySequence("grundy", kernel="naive"), GrundySequence("grundy", kernel="sparse")
    a.extend(n)
    b.extend(n)
    assert np.array_equal(a.values, b.values)
    assert b.mask & ~1 == b.mask and b.mask >= 0x7E  # rare: popcount(G(n) >> 1) even
    first = [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31, 34, 37, 40, 43, 46, 49, 50, 52, 53, 55, 58, 61,
             87, 90, 93, 146, 149, 152, 158, 161, 164, 167, 176, 179, 181, 182, 185, 188, 190, 193, 196, 231]
    assert b.rare[: len(first)].tolist() == first
    assert [int(a.values[h]) for h in (87, 146, 158, 181, 196)] == [7, 6, 11, 12, 10]


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("4!.0", "4!.0"),
        ("4?.0", "4?.0"),
        ("4!.", "4!.0"),
        ("{2!}.0", "4!.0"),
        ("&4;!.0", "4!.0"),
        ("0.&16;", "0.G"),
        ("0.&96;!", "0.&96;!"),
        ("0.*", "0.*"),
        ("0.{0,1,2,3+}", "0.*"),
        ("0.{2+}", "0.{2+}"),
        ("0.{2,3,4+}", "0.{2+}"),
        ("0.{2,3}", "0.C"),
        ("0.{0,2!}", "0.5!"),
        ("0.{0,2!,3=}", "0.{0,2!,3=}"),
        ("0.{2+}!", "0.{2+}!"),
        ("0.v", "0.V"),
        ("0.g", "0.G"),
        ("0.3?", "0.3"),
        ("00.77", "0.77"),
        ("4!.[3]", "4!.[3]"),
        ("4!.0[3]", "4!.0[3]"),
    ],
)
def test_canonical_forms_are_cgsuites(text, canonical):
    code = parse_code(text)
    assert str(code) == canonical
    assert parse_code(str(code)) == code


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("0.&7", "closing ';'"),
        ("0.&x;", "not a whole number"),
        ("0.&" + str(1 << 70) + ";", "more than 63 heaps"),
        ("0.{2,3", "never closed"),
        ("0.{2,x}", "not a heap count"),
        ("0.{64}", "at most 63 heaps"),
        ("0.{2!}?", "a mark inside"),
        ("*.7", "d0"),
        ("6.7", "d0"),
        ("74.07", "additive digits"),
        ("0.7#", "not a digit"),
        ("[3].0", "before the point"),
    ],
)
def test_bad_codes_name_the_problem(text, fragment):
    with pytest.raises(OctalCodeError) as info:
        parse_code(text)
    assert fragment in str(info.value)


def test_constrained_and_open_codes_are_never_proven():
    """A constraint breaks the Guy–Smith shifting argument, an open count makes r unbounded: apparent at most."""
    for text in ("4=.0", "0.4!", "0.7!", "0.{2+}", "0.*", "4?.07"):
        code = parse_code(text)
        assert code.proof_criteria is None
        r = nim_sequence(code, 4000 if code.tier == "octal" else 400)
        assert r.periodicity.status != "proven"
        assert r.periodicity.proof_bound is None
    # plain base-32 digits are inside the theorem, with r the most heaps a move leaves
    assert parse_code("0.G").proof_criteria.heaps == 4
    assert parse_code("0.3&64;").proof_criteria.heaps == 6


def test_constraints_in_words():
    assert "split a heap into two unequal heaps" in parse_code("4!.0").describe()
    assert "two equal heaps" in parse_code("4=.0").describe()
    assert "three pairwise unequal heaps" in parse_code("0.{3!}").describe()
    assert "any number of heaps from 2 up" in parse_code("0.{2+}").describe()


def test_the_general_kernel_refuses_hours_of_work():
    from octal import ResourceLimitError
    from octal.engine.grundy import GENERAL_MAX_N

    with pytest.raises(ResourceLimitError, match="general kernel"):
        nim_sequence("0.{2+}", GENERAL_MAX_N + 1)
    with pytest.raises(ResourceLimitError, match="general kernel"):
        GrundySequence("0.G").extend(GENERAL_MAX_N + 1)
