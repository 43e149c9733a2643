"""A nim sequence as `octal run` reports it: `nim_sequence` computes G(0..N−1) of a code or preset (growing N until
Guy–Smith proves the period, if asked), resumes and saves checkpoints and values files, and hands back a
`NimSequence` with its periodicity verdict; `find_period` judges values handed in, checked against their code."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..defaults import CHECKPOINT_EVERY, HEX_MAX_N, RUN_MAX_N, RUN_N
from ..displays import HtmlRepr
from ..errors import InvalidArgumentError
from ..io import check_writable, save_bfile, save_values
from ..rules.code import GENERAL, HEXADECIMAL, OctalCode
from ..rules.presets import Preset, as_code, resolve
from ..validate import positive, value_array, whole_number
from .checkpoint import Checkpointer, CheckpointError, read_checkpoint
from .grundy import GENERAL_MAX_N, GrundySequence, check_fits, check_general, first_wrong_value
from .periodicity import APPARENT, PROVEN, Periodicity, exceptions, scan_period
from .threads import check_threads, using_threads
from .values import RESUMED, Progress

FIRST_CHECKPOINT = 64  # --until-proven starts here and doubles


def load_checkpoint(directory: str | os.PathLike, code: OctalCode, kernel: str = "auto") -> GrundySequence | None:
    """The sequence saved in DIR for `code`, resumed with its rare/common state, or None when DIR holds none."""
    saved = read_checkpoint(directory, code)
    if saved is None:
        return None
    try:
        seq = GrundySequence(code, saved.values, kernel=kernel)
    except InvalidArgumentError as exc:
        raise CheckpointError(f"checkpoint in {directory} does not follow the rules of {code}: "
                              f"{str(exc).partition(': ')[2]}; move it away to start over") from None
    if not saved.signed:  # not this user's own file: every value recomputed (as costly as computing them)
        wrong = seq.check_seed(seq.n)
        if wrong is not None:
            raise CheckpointError(f"checkpoint in {directory} does not follow the rules of {code}: G({wrong:,}) = "
                                  f"{int(saved.values[wrong])} is not what they give; move it away to start over")
    seq.restore_rare(saved.mask, saved.e, saved.k0, saved.rare)
    return seq


@dataclass
class NimSequence(HtmlRepr):
    """A computed nim sequence and its periodicity verdict (what `octal run` prints)."""

    code: OctalCode
    name: str | None
    values: np.ndarray
    periodicity: Periodicity
    threads: int = 1  # the kernel threads that computed it (the values are the same for any count)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def max(self) -> int:
        return int(self.values.max()) if self.n else 0

    @property
    def argmax(self) -> int:
        """The first heap where the largest value occurs."""
        return int(np.argmax(self.values)) if self.n else 0

    def __repr__(self) -> str:
        name = f" ({self.name})" if self.name else ""
        return f"NimSequence({self.code}{name}: {self.n:,} values, max {self.max}; {self.periodicity.describe()})"

    def value(self, heap: int) -> int:
        """G(heap), through the proven period beyond the computed range."""
        heap = whole_number(heap, "a heap size")
        return self.periodicity.value(self.values, heap)

    @property
    def exceptions(self) -> list[int]:
        """Heaps before the period whose value differs from their residue class's periodic value (Winning Ways)."""
        return exceptions(self.values, self.periodicity).tolist()

    def to_dict(self, values: bool = False) -> dict:
        """The `--json` shape: code, name, n, max, period, preperiod, saltus, status, proof_bound, exceptions,
        threads, theorem, partial [, values] (keys are only ever added: "partial" came last; it is null unless no period
        shows and an apparent partial arithmetic period does: {period, saltus, preperiod, off})."""
        p = self.periodicity
        out = {
            "code": str(self.code),
            "name": self.name,
            "n": self.n,
            "max": self.max,
            "period": p.period,
            "preperiod": p.preperiod,
            "saltus": p.saltus,
            "status": p.status,
            "proof_bound": p.proof_bound,
            "exceptions": self.exceptions,
            "threads": self.threads,
            "theorem": p.theorem if p.status == PROVEN else None,
            "partial": None if p.partial is None else {"period": p.partial.period, "saltus": p.partial.saltus,
                                                       "preperiod": p.partial.preperiod, "off": list(p.partial.off)},
        }
        if values:
            out["values"] = self.values.tolist()
        return out


def default_max_n(code: OctalCode) -> int:
    """--until-proven's budget unless told: RUN_MAX_N heaps, or HEX_MAX_N for a code whose moves may leave three heaps
    (its kernel's cost per heap grows like n², so 2²⁴ heaps would take days)."""
    return HEX_MAX_N if code.tier == HEXADECIMAL else RUN_MAX_N


def nim_sequence(
    game: str | OctalCode | Preset,
    n: int | None = None,
    *,
    until_proven: bool = False,
    max_n: int | None = None,
    kernel: str = "auto",
    progress: Progress | None = None,
    resume: GrundySequence | np.ndarray | None = None,
    checkpoint: str | os.PathLike | None = None,
    checkpoint_every: float = CHECKPOINT_EVERY,
    out: str | os.PathLike | None = None,
    bfile: str | os.PathLike | None = None,
    threads: int | None = None,
) -> NimSequence:
    """Compute G(0..n−1) of a code or preset and its period; `until_proven` grows N until Guy–Smith proves it.

    With `until_proven`, N grows geometrically (64, 128, …) and jumps straight to the proof bound once a
    period appears, stopping at once when proven or at `max_n` (default: `default_max_n`). `resume` reuses values
    already computed; `checkpoint` names a folder whose saved state is resumed and which is re-saved every
    `checkpoint_every` seconds, at the end, and on Ctrl-C. `out` names a values file (.npy, .csv, .json; checked
    before computing) written at the end, or on Ctrl-C with the values computed so far ("complete": false); `bfile`
    an OEIS b-file (.txt, "n a(n)" from n = 0) written at the end. `threads` kernel threads share each block of heaps
    (default: every core the process may use; the values never depend on it). On Ctrl-C the KeyboardInterrupt carries
    what was computed as `partial` (a NimSequence), whatever was asked.
    """
    code, preset = resolve(game)
    if max_n is None:
        max_n = default_max_n(code)
    if n is not None:
        n = whole_number(n, "N (the number of heaps)", 1)
    max_n = whole_number(max_n, "--max-n", 1)
    threads = check_threads(threads)
    if code.tier == GENERAL:
        check_general(code, n or 0)
        max_n = min(max_n, GENERAL_MAX_N)  # --until-proven stops there (it cannot prove such a code anyway)
    checkpoint_every = positive(checkpoint_every, "--checkpoint-every")
    if out is not None:
        check_writable(out)
    if bfile is not None:
        check_writable(bfile, (".txt",))
    want = n if n is not None else (0 if until_proven else RUN_N)
    check_fits(code, max(want, max_n if until_proven else 1))  # --until-proven may grow to --max-n: it must fit
    saver = None
    if isinstance(resume, GrundySequence):
        if str(resume.code) != str(code):
            raise InvalidArgumentError(f"resume holds the sequence of {resume.code}, not of {code}")
        seq = resume
    else:
        seq = None
        if checkpoint is not None and resume is None:
            seq = load_checkpoint(checkpoint, code, kernel)
        if seq is None:
            seq = GrundySequence(code, resume, kernel=kernel)
    if checkpoint is not None:
        saver = Checkpointer(checkpoint, checkpoint_every)
        outer = progress

        def progress(done: int, total: int, largest: int, state: str = "") -> None:
            saver.maybe(seq)
            if outer is not None:
                outer(done, total, largest, state)

    name = preset.name if preset else None
    if progress is not None and seq.n:
        progress(seq.n, max(want, seq.n), seq.max_value, RESUMED)  # where a resumed run starts
    try:
        with using_threads(threads):
            result = NimSequence(code, name, *_compute(seq, code, want, until_proven, max_n, progress), threads)
            _certify(seq, result.periodicity, checkpoint)
    except KeyboardInterrupt as e:  # nothing computed is lost: the state, the values asked for, and the caller's copy
        if saver is not None:
            saver.now(seq)
        e.partial = NimSequence(code, name, seq.values.copy(), Periodicity(), threads)
        if out is not None and seq.n:
            save_values(out, seq.values, {"code": str(code), "n": seq.n, "complete": False})
        raise
    if saver is not None:
        saver.now(seq)
    if out is not None:
        save_values(out, result.values, result.to_dict())
    if bfile is not None:
        save_bfile(bfile, result.values)
    return result


def _certify(seq: GrundySequence, verdict: Periodicity, checkpoint: str | os.PathLike | None) -> None:
    """A proven verdict reads heaps 0..proof_bound−1: those that came from a checkpoint or a caller (checked on a
    sample when read) are computed again and compared before the proof is given; a difference is refused."""
    if verdict.status != PROVEN or not seq.seeded:
        return
    wrong = seq.check_seed(verdict.proof_bound)
    if wrong is None:
        return
    where = f"the checkpoint in {checkpoint}" if checkpoint is not None else "the values handed in"
    error = CheckpointError if checkpoint is not None else InvalidArgumentError
    raise error(f"{where} do not follow the rules of {seq.code}: G({wrong:,}) = {int(seq.values[wrong])} is not "
                "the value the rules give, so no period is certified on them; move the checkpoint away to start over")


def _compute(seq: GrundySequence, code: OctalCode, want: int, until_proven: bool, max_n: int, progress):
    """(values, periodicity): `want` values, or growth until proven (see nim_sequence)."""
    if not until_proven:
        values = seq.extend(want, progress)[:want]
        return values, scan_period(values, code)
    target = max(want, min(FIRST_CHECKPOINT, max_n))
    while True:
        seq.extend(target, progress)
        verdict = scan_period(seq.values, code)
        if verdict.status == PROVEN or target >= max_n:
            return seq.values, verdict
        if verdict.status == APPARENT and verdict.proof_bound is None:
            return seq.values, verdict  # no theorem applies (repeating tail, arithmetic period): stop here
        if verdict.status == APPARENT and verdict.proof_bound is not None and verdict.proof_bound > target:
            target = min(verdict.proof_bound, max_n)  # straight to the Guy–Smith bound
            continue
        # a period seen once past its preperiod (over at least 32 heaps) is worth trying if it is near
        hint = scan_period(seq.values, code, repeats=1, min_agree=32, share=0.0)
        if hint.status == APPARENT and hint.proof_bound is not None and target < hint.proof_bound <= 2 * target:
            target = min(hint.proof_bound, max_n)
        else:
            target = min(2 * target, max_n)


def find_period(values: np.ndarray, code: OctalCode | str | None = None, repeats: int = 3, min_agree: int = 0,
                share: float = 1.0) -> Periodicity:
    """The period of `values` (periodicity.scan_period); with a code, the values must be that code's own sequence.

    Values that the mex recurrence contradicts (`grundy.first_wrong_value`) are refused. The Guy–Smith theorem proves
    a period of the code's sequence, not of any array: so a proven verdict is given only after G(0..bound−1) is
    computed from the rules and found equal to the values handed in; otherwise it is the verdict the values earn
    without a code (apparent at best).
    """
    values = value_array(values)
    if code is not None:
        code = as_code(code)
        wrong = first_wrong_value(code, values)
        if wrong is not None:
            raise InvalidArgumentError(f"the values handed in are not those of {code}: G({wrong:,}) = "
                                       f"{int(values[wrong])} is not the mex of its options")
    verdict = scan_period(values, code, repeats, min_agree, share)
    if verdict.status != PROVEN:
        return verdict
    bound = verdict.proof_bound
    own = GrundySequence(code).extend(bound)
    if np.array_equal(own.astype(np.int64), np.asarray(values[:bound], np.int64)):
        return verdict
    return scan_period(values, None, repeats, min_agree, share)
