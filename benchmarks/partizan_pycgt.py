"""octal's partizan toolkit (octal.partizan) against pycgt (MIT, pure Python, the tests' independent reference) on
the same work: CPU seconds of each (time.process_time, medians of --repeats), the ratio pycgt / octal, and whether the
two give the same answers (any difference: a message and exit status 1).

    python benchmarks/partizan_pycgt.py                  # every workload at full size, 3 repeats (about 5 minutes)
    python benchmarks/partizan_pycgt.py --quick          # smaller sizes (about 30 s)
    python benchmarks/partizan_pycgt.py --repeats 5
    taskset -c 1 python benchmarks/partizan_pycgt.py     # pinned to one core: steadier figures

Workloads (each library builds everything from the same plain inputs — codes, fractions, index lists — inside its
timing, so neither is handed the other's objects):

1. heaps — the canonical values of heaps 0..N−1 of a partizan heap game (Left moves by one code, Right by another),
   built as octal.partizan.heap_games.partizan_values builds them: heap h is {G^L | G^R}, each option the sum of the
   values of the heaps a move leaves (`code.options`, enumerated once, untimed, and given to both); then each
   value's temperature (thermograph). octal: `game`, `total`, `thermograph`; pycgt: `game`, `add`, `temperature`.
   The outcome and period scans of partizan_values are not timed; its values are checked to be the loop's.
2. sums — the canonical form of sums of k summands added one by one (`add` in each library): random switches
   {a | b} (a > b quarters in [−3, 3]), and random games born by day 3.
3. day 4 — 1,000 random games born by day 4 (each day's options drawn from the games made before, as in
   tests/test_partizan_text.py), built ("build") and then their thermographs, mean, temperature and stops
   ("thermographs", the games already built and left in each library's caches). Compared: forms, stops, mean,
   temperature, and both walls at t = 0, 1/8, …, 39/8.

Answers are compared by converting octal's canonical forms to pycgt's (pycgt's canonical games are equal exactly
when their values are), after the timings. Before every timed run (untimed) each library's caches are emptied, so
repeats are comparable: octal — `octal.partizan.forget()` (the STORE's ≤, +, − and x + n·↑ + *k memos) and
octal.partizan.thermal's thermograph and stops memos, every result of the previous run dropped and gc.collect()
run, so the weakly interned forms die too (save the module constants ZERO, ONE, STAR, UP); pycgt — its ≥ memo
(pycgt.game._geq_cache) and every functools.cache of its modules (canonical, _add_raw, negate, birthday, as_number,
number, nimber, left_stop, right_stop, thermograph, heat, overheat, cool, render, …: `cache_clear()` on each).

Everything runs in one thread with a large stack and a high recursion limit: both libraries recurse as deep as a
game's birthday (heap N of 0.3 | 0.33 is born on day N). CPU seconds count this process only, so a low-priority job
beside it on another core changes them little; pin the run to one core (taskset) for steadier figures.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pycgt
from pycgt.game import _geq_cache as PYCGT_GEQ  # pycgt's ≥ memo, a module-level dict (cleared in place)

from octal.partizan import ZERO, add, forget, game, number, total
from octal.partizan.heap_games import partizan_values
from octal.partizan.notation import to_text
from octal.partizan.thermal import stops, thermograph
from octal.rules.presets import as_code
from octal.version import __version__ as octal_version

# (left code, right code, N full, N quick): a cold game whose values are v_n chains (x + n·↑ + *k forms), a hot one,
# one whose values' birthdays grow with N, and one where a move splits a heap in two (digit 4 at k = 0), whose N
# stays small: pycgt's time on it grows too fast for octal's to reach a second
HEAP_GAMES = [("0.3", "0.33", 2000, 300), ("0.07", "0.7", 800, 250), ("0.8", "0.3", 200, 100),
              ("4.07", "0.6", 32, 24)]
SWITCH_SUMS = (30, 12, 10)  # full: sums, summands in each; quick: sums
SMALL_SUMS = (24, 16, 8)  # sums of games born by day 3
DAY4_GAMES = 1000  # full and quick
TS = [Fraction(i, 8) for i in range(40)]  # where the thermographs' walls are compared


# ------------------------------------------------------------------------------------------------- the two libraries

def octal_clear() -> None:
    forget()  # the store's memos: ≤, +, −, stops and thermographs
    gc.collect()


def pycgt_caches() -> list:
    """Every functools cache of pycgt's modules (imported by `import pycgt`)."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name == "pycgt" or name.startswith("pycgt."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    found[id(value)] = value
    return list(found.values())


PYCGT_CACHES = pycgt_caches()


def pycgt_clear() -> None:
    PYCGT_GEQ.clear()
    for fn in PYCGT_CACHES:
        fn.cache_clear()
    gc.collect()


def pycgt_total(values: list) -> object:
    acc = pycgt.ZERO
    for g in values:
        acc = pycgt.add(acc, g)
    return acc


def octal_fold(values: list) -> object:
    acc = ZERO
    for g in values:
        acc = add(acc, g)
    return acc


def to_pycgt() -> Callable:
    """A converter from octal's canonical forms to pycgt's games, memoized on the forms (the tests' converter)."""
    memo: dict = {}

    def convert(g):
        if g.uid not in memo:
            memo[g.uid] = pycgt.game([convert(x) for x in g.left], [convert(x) for x in g.right])
        return memo[g.uid]

    return convert


# --------------------------------------------------------------------------------------------------- the workloads

@dataclass
class Workload:
    name: str
    size: str
    inputs: object
    work: dict  # "octal" / "pycgt" → fn(inputs, prepared) → answer (timed)
    compare: Callable  # (octal answer, pycgt answer) → None, or a text naming the first difference
    prepare: dict | None = None  # "octal" / "pycgt" → fn(inputs) → prepared (after the caches are emptied, untimed)


def heap_moves(left: str, right: str, n: int) -> list[tuple[list, list]]:
    """For each heap h < n, (Left's moves, Right's moves), each a sorted list of the heaps a move leaves."""
    L, R = as_code(left), as_code(right)
    return [(sorted({leaves for _, leaves in L.options(h)}), sorted({leaves for _, leaves in R.options(h)}))
            for h in range(n)]


def octal_heaps(moves, _):
    values = []
    for lm, rm in moves:
        values.append(game([total(values[x] for x in p) for p in lm], [total(values[x] for x in p) for p in rm]))
    return values, [thermograph(g).temperature for g in values]


def pycgt_heaps(moves, _):
    values = []
    for lm, rm in moves:
        values.append(pycgt.game([pycgt_total([values[x] for x in p]) for p in lm],
                                 [pycgt_total([values[x] for x in p]) for p in rm]))
    return values, [pycgt.temperature(g) for g in values]


def compare_heaps(mine, theirs):
    convert = to_pycgt()
    for h, (g, t, q, u) in enumerate(zip(*mine, *theirs)):
        if convert(g) != q:
            return f"heap {h}: octal {to_text(g)}, pycgt {q}"
        if t != u:
            return f"heap {h} ({to_text(g)}): temperature octal {t}, pycgt {u}"
    return None


def random_specs(seed: int, count: int, day: int, per_day: int = 60, most: int = 4) -> list:
    """Random games born by `day` as index lists, drawn as tests/test_partizan_text.py draws them: spec i = (Left
    options, Right options), each option the index of a spec made on an earlier day (spec 0 is 0 = { | }); on each
    day d < `day`, `per_day`·d specs are drawn and those of a value seen before dropped (octal's forms tell, untimed,
    and are then dropped), so each day draws from distinct values; on the last day `count` specs, all kept."""
    rng = random.Random(seed)
    specs: list = [((), ())]
    seen = {ZERO}
    for d in range(1, day + 1):
        before = len(specs)
        made = [tuple(tuple(rng.sample(range(before), rng.randint(0, min(most, before)))) for _ in "LR")
                for _ in range(count if d == day else per_day * d)]
        if d == day:
            specs += made
            break
        values = build(specs, game)
        for lo, ro in made:
            g = game([values[i] for i in lo], [values[i] for i in ro])
            if g not in seen:
                seen.add(g)
                specs.append((lo, ro))
    return specs


def build(specs, make):
    values: list = []
    for lo, ro in specs:
        values.append(make([values[i] for i in lo], [values[i] for i in ro]))
    return values


def octal_sums(inputs, _):
    kind, spec, picks = inputs
    parts = ([game([number(a)], [number(b)]) for a, b in spec] if kind == "switches" else build(spec, game))
    return [octal_fold([parts[i] for i in pick]) for pick in picks]


def pycgt_sums(inputs, _):
    kind, spec, picks = inputs
    parts = ([pycgt.game([pycgt.number(a)], [pycgt.number(b)]) for a, b in spec] if kind == "switches"
             else build(spec, pycgt.game))
    return [pycgt_total([parts[i] for i in pick]) for pick in picks]


def compare_forms(mine, theirs):
    convert = to_pycgt()
    for i, (g, q) in enumerate(zip(mine, theirs)):
        if convert(g) != q:
            return f"#{i}: octal {to_text(g)}, pycgt {q}"
    return None


def octal_build(inputs, _):
    specs, count = inputs
    return build(specs, game)[-count:]


def pycgt_build(inputs, _):
    specs, count = inputs
    return build(specs, pycgt.game)[-count:]


def octal_thermographs(_, games):
    out = []
    for g in games:
        th = thermograph(g)
        out.append((g, th, stops(g)))
    return out


def pycgt_thermographs(_, games):
    out = []
    for q in games:
        out.append((q, pycgt.thermograph(q), (pycgt.left_stop(q), pycgt.right_stop(q))))
    return out


def compare_thermographs(mine, theirs):
    convert = to_pycgt()
    for i, ((g, th, st), (q, ref, rst)) in enumerate(zip(mine, theirs)):
        if convert(g) != q:
            return f"game #{i}: octal {to_text(g)}, pycgt {q}"
        if st != rst or (th.mean, th.temperature) != (ref.mast, ref.temperature):
            return (f"game #{i} {to_text(g)}: stops/mean/temperature octal {st} {th.mean} {th.temperature}, pycgt "
                    f"{rst} {ref.mast} {ref.temperature}")
        for t in TS:
            if (th.left.at(t), th.right.at(t)) != ref.at(t):
                return f"game #{i} {to_text(g)}: walls at t = {t}: octal {th.left.at(t), th.right.at(t)}, " \
                       f"pycgt {ref.at(t)}"
    return None


def workloads(quick: bool) -> list[Workload]:
    out = []
    for left, right, n_full, n_quick in HEAP_GAMES:
        n = n_quick if quick else n_full
        out.append(Workload(f"heaps {left} | {right}", f"N={n}", heap_moves(left, right, n),
                            {"octal": octal_heaps, "pycgt": pycgt_heaps}, compare_heaps))
    rng = random.Random(2024)
    quarters = [Fraction(i, 4) for i in range(-12, 13)]
    count, k, count_quick = SWITCH_SUMS
    count = count_quick if quick else count
    spec = [tuple(sorted(rng.sample(quarters, 2), reverse=True)) for _ in range(4 * k)]
    picks = [[rng.randrange(len(spec)) for _ in range(k)] for _ in range(count)]
    out.append(Workload("sums of switches {a|b}", f"{count}×{k}", ("switches", spec, picks),
                        {"octal": octal_sums, "pycgt": pycgt_sums}, compare_forms))
    count, k, count_quick = SMALL_SUMS
    count = count_quick if quick else count
    spec = random_specs(7, 40, 3, per_day=40, most=3)
    picks = [[rng.randrange(len(spec)) for _ in range(k)] for _ in range(count)]
    out.append(Workload("sums of games by day 3", f"{count}×{k}", ("games", spec, picks),
                        {"octal": octal_sums, "pycgt": pycgt_sums}, compare_forms))
    count = DAY4_GAMES
    specs = (random_specs(4, count, 4), count)
    out.append(Workload("day-4 games: build", f"{count:,}", specs,
                        {"octal": octal_build, "pycgt": pycgt_build}, compare_forms))
    out.append(Workload("day-4 games: thermographs", f"{count:,}", specs,
                        {"octal": octal_thermographs, "pycgt": pycgt_thermographs}, compare_thermographs,
                        {"octal": lambda x: octal_build(x, None), "pycgt": lambda x: pycgt_build(x, None)}))
    return out


# ------------------------------------------------------------------------------------------------------ the driver

def timed(w: Workload, lib: str) -> tuple[float, object]:
    """One run of one library on a workload, from empty caches: (CPU seconds, answer)."""
    (octal_clear if lib == "octal" else pycgt_clear)()
    prepared = w.prepare[lib](w.inputs) if w.prepare else None
    t0 = time.process_time()
    answer = w.work[lib](w.inputs, prepared)
    return time.process_time() - t0, answer


def check_heaps_api(quick: bool, only: list[str] | None) -> str | None:
    """partizan_values' values are the benchmark loop's (so the loop times what `octal partizan` computes)."""
    for left, right, n_full, n_quick in HEAP_GAMES:
        n = n_quick if quick else n_full
        if only and not any(o in f"heaps {left} | {right}" for o in only):
            continue
        octal_clear()
        mine = octal_heaps(heap_moves(left, right, n), None)[0]
        if list(partizan_values(left, right, n).values) != mine:
            return f"heaps {left} | {right}: partizan_values differs from the loop timed here"
    return None


def run(args: argparse.Namespace) -> int:
    repeats = max(1, args.repeats)
    print(f"octal {octal_version} against pycgt {pycgt.__version__}, Python {sys.version.split()[0]}: CPU seconds "
          f"(time.process_time), medians of {repeats}, caches emptied before each run"
          f"{' (--quick sizes)' if args.quick else ''}")
    print(f"{'workload':30} {'size':>8} {'octal s':>9} {'pycgt s':>9} {'pycgt/octal':>12}  answers")
    failures = []
    mismatch = check_heaps_api(args.quick, args.only)
    if mismatch:
        failures.append(mismatch)
    ratios = []
    for w in workloads(args.quick):
        if args.only and not any(o in w.name for o in args.only):
            continue
        secs: dict[str, list[float]] = {"octal": [], "pycgt": []}
        verdict = "same"
        for r in range(repeats):
            answers = {}
            for lib in ("octal", "pycgt"):
                s, answers[lib] = timed(w, lib)
                secs[lib].append(s)
            if r == 0:
                diff = w.compare(answers["octal"], answers["pycgt"])
                if diff is not None:
                    verdict = "DIFFER"
                    failures.append(f"{w.name} {w.size}: {diff}")
            del answers
        mo, mp = statistics.median(secs["octal"]), statistics.median(secs["pycgt"])
        ratio = mp / max(mo, 1e-9)
        ratios.append(ratio)
        print(f"{w.name:30} {w.size:>8} {mo:>9.3f} {mp:>9.3f} {ratio:>11.1f}×  {verdict}", flush=True)
    if ratios:
        print(f"{'geometric mean of the ratios':49} {statistics.geometric_mean(ratios):>11.1f}×")
    for f in failures:
        print(f"MISMATCH {f}", file=sys.stderr)
    return 1 if failures else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3, help="timed runs of each library on each workload (median)")
    ap.add_argument("--quick", action="store_true", help="smaller sizes: the whole run in under a minute")
    ap.add_argument("--only", nargs="+", metavar="TEXT", help="only the workloads whose name contains TEXT")
    args = ap.parse_args()
    sys.setrecursionlimit(200_000)
    threading.stack_size(512 << 20)  # deep recursion in both libraries: a 512 MiB stack for the one worker thread
    status = []
    worker = threading.Thread(target=lambda: status.append(run(args)))
    worker.start()
    worker.join()
    sys.exit(status[0] if status else 1)  # no status: the worker raised (its traceback is printed)


if __name__ == "__main__":
    main()
