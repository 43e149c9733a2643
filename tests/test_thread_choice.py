"""The choice of one thread or all, piece by piece, on a clock the test runs: on a machine where the parallel pass is
many times slower (busy cores) a run stays within a few per cent of one thread; where it is faster (idle cores) it
keeps nearly all of the speed-up; small work never goes parallel; load that comes and goes is followed."""

import pytest

from octal.engine.thread_choice import SERIAL_SECONDS, ThreadChoice


def simulate(choice: ThreadChoice, n: int, seconds_per_heap, kind: str = "sparse", naive: bool = False,
             parallel_call: float = 0.0, one_call: float = 0.0, share=lambda heap: 1.0, stops=(),
             dear: float = 0.0) -> float:
    """Heaps 0..n−1 in the pieces `choice` asks for, each taking seconds_per_heap(threads, heap) per heap (naive:
    times the heap, as that kernel's cost grows), and each parallel call `parallel_call` seconds more (its threads
    woken), each call on one thread `one_call` more (its set-up, caches the other thread left cold), the run's thread
    on the CPU for share(heap) of them; the seconds it all took. The kernel stops right after each heap of `stops`
    (ascending), which costs `dear` seconds more: a piece that meets one is cut short there."""
    done, total = 0, 0.0
    stops = iter(stops)
    stop = next(stops, n)
    while done < n:
        threads, planned = choice.piece(kind, done, n, scale=done if naive else 1.0)
        assert done < planned <= n and threads in (1, choice.most)
        end = min(planned, stop + 1)
        mid = (done + end) / 2  # the cost at the piece's middle: exact for the naive kernel's linear growth
        seconds = seconds_per_heap(threads, mid) * (mid if naive else 1) * (end - done)
        seconds += (parallel_call if threads > 1 else one_call) + (dear if end == stop + 1 else 0.0)
        choice.record(kind, threads, end - done, seconds, scale=(done + end) / 2 if naive else 1.0,
                      cpu=share(mid) * seconds, planned=planned - done)
        total += seconds
        done = end
        if done > stop:
            stop = next(stops, n)
    return total


def fixed(one: float, many: float):
    return lambda threads, heap: one if threads == 1 else many


@pytest.mark.parametrize("slower, over", [(3, 1.05), (30, 1.05), (100, 1.1)])
def test_a_busy_machine_costs_a_few_per_cent_over_one_thread(slower, over):
    """Each try of the parallel way costs its first stages (a pass, then 1/64 of a piece) times how much slower it is,
    once every RETRY_MOST pieces at most."""
    one = simulate(ThreadChoice(1), 4_000_000, fixed(1e-6, 1e-6))
    busy = simulate(choice := ThreadChoice(2), 4_000_000, fixed(1e-6, slower * 1e-6))
    assert busy <= over * one, (busy, one, choice)


def test_an_idle_machine_keeps_the_speed_up():
    one = 4.0
    idle = simulate(choice := ThreadChoice(2), 4_000_000, fixed(1e-6, 0.6e-6))
    assert idle <= 1.05 * 0.6 * one, (idle, choice)
    assert choice.heaps[2] > 0.9 * 4_000_000


def test_a_parallel_calls_fixed_cost_does_not_end_its_try():
    """Waking the threads costs some 0.2 ms a call, more than the first stage's pass of 16 heaps does: a try of the
    parallel way allows for it (TRY_SLACK), so an idle machine still goes parallel."""
    idle = simulate(choice := ThreadChoice(2), 4_000_000, fixed(1e-6, 0.6e-6), parallel_call=0.0002)
    assert choice.heaps[2] > 0.9 * 4_000_000 and idle <= 1.1 * 0.6 * 4.0, (idle, choice)


def test_a_try_of_one_thread_on_an_idle_machine_ends_early():
    """One thread 1.6× slower than two: each try of it ends at its second stage (1/64 of a piece), so beyond the
    first SERIAL_SECONDS of work hardly a heap runs on one thread (a try's slack for one thread is a call's cost, not
    the parallel call's millisecond, under which the tries ran whole pieces: 243,000 heaps here)."""
    n = 4_000_000
    simulate(choice := ThreadChoice(2), n, fixed(1e-6, 0.6e-6))
    serial = SERIAL_SECONDS / 1e-6
    assert choice.heaps[1] <= serial + 0.01 * n, choice


def test_a_call_of_one_threads_fixed_cost_does_not_end_its_try():
    """One thread slower than two at first, then 1.5× faster (0.167 to 2²² on a day this machine's two threads ran
    slow), a call on one thread costing 0.3 ms of set-up and caches the other thread left cold, as measured there: a
    try of one thread must be long enough that the call's cost does not decide it, so the run goes back to one thread
    (tried for one pass of 16 heaps, one thread always lost: 94 % of the heaps stayed on two threads, 1.07 × one
    thread's wall)."""
    n = 4_000_000

    def cost(threads, heap):
        return 0.37e-6 if threads > 1 else (0.45e-6 if heap < n // 8 else 0.25e-6)

    best = (n // 8) * 0.37e-6 + (n - n // 8) * 0.25e-6
    total = simulate(choice := ThreadChoice(2), n, cost, one_call=0.0003)
    assert total <= 1.1 * best and choice.heaps[1] > 0.6 * n, (total, best, choice)


def test_the_naive_kernels_growing_cost_is_compared_fairly():
    """Its cost per heap grows like n: the choice compares costs per unit of n, so a later, dearer piece on one
    thread does not make the parallel way look cheaper than it is, nor the other way round."""
    one = simulate(ThreadChoice(1), 60_000, fixed(1e-9, 1e-9), naive=True)
    busy = simulate(ThreadChoice(2), 60_000, fixed(1e-9, 10e-9), naive=True)
    idle = simulate(ThreadChoice(2), 60_000, fixed(1e-9, 0.55e-9), naive=True)
    assert busy <= 1.05 * one and idle <= 0.62 * one, (one, busy, idle)


def test_small_work_never_goes_parallel():
    choice = ThreadChoice(2)
    simulate(choice, int(SERIAL_SECONDS / 1e-6) - 1000, fixed(1e-6, 0.1e-6))
    assert set(choice.heaps) == {1}


def test_load_that_comes_and_goes_is_followed():
    """Busy (parallel 20× slower) for the middle third of the run, idle before and after: within a quarter of the best
    one could do knowing the load in advance. What is lost: the parallel piece under way when the load comes (20×
    its time), and up to RETRY_MOST pieces on one thread after it goes."""
    n = 6_000_000

    def cost(threads, heap):
        busy = n // 3 <= heap < 2 * n // 3
        return 1e-6 if threads == 1 else (20e-6 if busy else 0.6e-6)

    total = simulate(choice := ThreadChoice(2), n, cost)
    best = (n // 3) * 0.6e-6 * 2 + (n // 3) * 1e-6
    assert total <= 1.25 * best, (total, best, choice)


def test_one_thread_is_one_piece():
    choice = ThreadChoice(1)
    assert choice.piece("sparse", 10, 1_000_000) == (1, 1_000_000)


def test_a_run_without_a_core_of_its_own_stays_on_one_thread():
    """Two busy processes on two cores: the run's one thread gets about 2/3 of a core, so a second thread would have
    none; the run never tries several (nor loads their entry: sparse_run asks `ripe` first) — where trying them cost
    9–15 % of one thread's wall beside two busy loops, most of it loading the parallel entry. Had it its core (the
    same costs, share 1), it would try them."""
    busy = simulate(choice := ThreadChoice(2), 4_000_000, fixed(1e-6, 0.6e-6), share=lambda heap: 0.67)
    assert set(choice.heaps) == {1} and not choice.ripe("sparse"), choice
    assert busy == pytest.approx(4.0)
    simulate(choice := ThreadChoice(2), 4_000_000, fixed(1e-6, 0.6e-6), share=lambda heap: 0.95)
    assert choice.heaps[2] > 0.9 * 4_000_000, choice


def test_a_core_that_comes_free_is_taken():
    """Busy (2/3 of a core) for the first half, idle after: the run goes to two threads within a few pieces of the
    load's leaving (the share measured so far fades: CORE_MEMORY)."""
    n = 4_000_000
    simulate(choice := ThreadChoice(2), n, fixed(1e-6, 0.6e-6), share=lambda heap: 0.67 if heap < n // 2 else 1.0)
    assert 0.9 * (n // 2) < choice.heaps[2] < n // 2, choice


def test_pieces_cut_short_at_a_dear_heap_leave_the_run_on_the_faster_way():
    """The sparse kernel stops right after a new rare value, whose heap scanned every pair (Treblecross: some 500
    such stops in 200,000 heaps, each such heap 1–3 ms): a piece cut short there ends on its dearest heap and, judged
    alone, made two threads look slower than one. Stops every 397 heaps, the dear heap 3 ms (300 ordinary heaps), two
    threads 0.6 of one thread's time on the others: most heaps run on two (judged piece by piece: 3 %)."""
    choice = ThreadChoice(2)
    simulate(choice, 400_000, fixed(1e-5, 0.6e-5), stops=range(137, 400_000, 397), dear=3e-3)
    assert choice.heaps[2] >= 0.8 * 400_000, choice
