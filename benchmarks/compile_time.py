"""Where a command's first run spends its compiling: numba's compile events, function by function and type by type.

    python benchmarks/compile_time.py octal run 0.6 --n 2097152
    python benchmarks/compile_time.py octal census --digits 4 --prefix both --shard 3/16 --max-n 4096 --workers 1
                                                  # in an empty folder: a census resumes the database it finds
    python benchmarks/compile_time.py python -m pytest -q -n auto --dist loadfile     # the test suite, cold

The command runs with an empty numba cache of its own (everything it needs compiles, as on the first run after an
install) and, in every Python process it starts (a census's workers, pytest's), a listener on numba's compile events
that starts when that process imports numba (a process that never does is left as it is). Printed: the command's wall
seconds; each process's compiling; then, function by function, its own seconds (a function compiled while another
compiles, a callee, counts for itself, not twice), of which LLVM's optimising and code generation, and how many type
signatures it compiled, with their arrays' element types. The seconds are the compiling thread's wall clock (numba
compiles under one lock per process), so a busy machine inflates them: compare them only within one run.

Under the empty cache the test suite's compile-lock test fails (it looks for the cache beside its module);
`--default-cache` leaves numba's cache where it is, beside the package, for a checkout whose cache is empty (a clean
clone, the package installed from it as `.ci/run` does).

The listener is a `sitecustomize` module put first on PYTHONPATH, so it replaces one the environment may have for
the command's duration.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import tempfile
import time
from collections import defaultdict
from pathlib import Path

# each Python process of the command: once numba.core.event is imported, a listener on "numba:compile" keeps a stack
# (compiles nest: a callee compiles inside its caller) and writes (function, signature, own s, LLVM s) at exit
LISTENER = r'''
import atexit, importlib.abc, importlib.machinery, json, os, sys, time

def _listen(event):
    records, stack, llvm = [], [], [0, 0.0]  # stack: [start, inner compiles' seconds, own LLVM seconds]

    class Compiles(event.Listener):
        def on_start(self, ev):
            stack.append([time.perf_counter(), 0.0, 0.0])

        def on_end(self, ev):
            t0, inner, own_llvm = stack.pop()
            spent = time.perf_counter() - t0
            if stack:
                stack[-1][1] += spent
            d = ev.data["dispatcher"]
            records.append((d.py_func.__module__ + "." + d.py_func.__qualname__, str(ev.data.get("args")),
                            spent - inner, own_llvm))

    class Llvm(event.Listener):  # LLVM's work, charged to the innermost function compiling
        def on_start(self, ev):
            llvm[0] += 1
            if llvm[0] == 1:
                llvm[1] = time.perf_counter()

        def on_end(self, ev):
            llvm[0] -= 1
            if llvm[0] == 0 and stack:
                stack[-1][2] += time.perf_counter() - llvm[1]

    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Llvm())

    def write():
        if records:
            with open(os.path.join(os.environ["OCTAL_COMPILE_TRACE"], f"{os.getpid()}.json"), "w") as f:
                json.dump({"argv": sys.argv, "records": records}, f)

    atexit.register(write)


class _WhenNumbaLoads(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "numba.core.event":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _listen(module)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _WhenNumbaLoads())
'''

ARRAY = re.compile(r"Array\((\w+), ")


def signature(args: str) -> str:
    """The element types of a signature's arrays, each once: 'i64 u16 u8' ('scalars' where it takes no array)."""
    short = {"uint": "u", "int": "i", "float": "f", "bool": "b"}
    kinds = set()
    for dtype in ARRAY.findall(args):
        kind = re.match(r"[a-z]+", dtype).group()
        kinds.add(f"{short.get(kind, kind)}{dtype[len(kind):]}")
    return " ".join(sorted(kinds)) or "scalars"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    parser.add_argument("--default-cache", action="store_true",
                        help="numba's cache where it is (a clean clone's), not an empty one of the command's own")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command and its arguments")
    args = parser.parse_args()
    if not args.command:
        parser.error("give a command to run, e.g. octal run 0.6 --n 2097152")
    with tempfile.TemporaryDirectory(prefix="octal-compile-") as tmp:
        hook, trace, cache = (Path(tmp) / name for name in ("hook", "trace", "cache"))
        for folder in (hook, trace, cache):
            folder.mkdir()
        (hook / "sitecustomize.py").write_text(LISTENER)
        env = dict(os.environ, OCTAL_COMPILE_TRACE=str(trace),
                   PYTHONPATH=os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH", "")) if p))
        if not args.default_cache:
            env["NUMBA_CACHE_DIR"] = str(cache)
        t0 = time.perf_counter()
        try:
            done = subprocess.run(args.command, env=env, stdout=subprocess.DEVNULL)
        except OSError as e:
            parser.error(f"cannot run {args.command[0]}: {e.strerror}")
        except KeyboardInterrupt:
            raise SystemExit("stopped: nothing measured") from None
        wall = time.perf_counter() - t0
        processes = [json.loads(f.read_text()) for f in sorted(trace.iterdir())]
    where = "numba's cache where it is" if args.default_cache else "an empty numba cache"
    print(f"{' '.join(args.command)}: exit {done.returncode}, {wall:.1f} s wall, {where}")
    own: dict[str, float] = defaultdict(float)
    llvm: dict[str, float] = defaultdict(float)
    sigs: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))  # seconds by the arrays' types
    signatures: dict[str, set[str]] = defaultdict(set)
    for p in processes:
        spent = sum(r[2] for r in p["records"])
        print(f"  process {' '.join(Path(a).name if i == 0 else a for i, a in enumerate(p['argv'][:6]))[:70]}: "
              f"{spent:.1f} s compiling, {len(p['records'])} compiles")
        for name, sig, seconds, llvm_s in p["records"]:
            own[name] += seconds
            llvm[name] += llvm_s
            sigs[name][signature(sig)] += seconds
            signatures[name].add(sig)
    total = sum(own.values())
    print(f"compiling in all: {total:.1f} s in {len(processes)} processes\n")
    print(f"{'own s':>7} {'LLVM s':>7} {'sigs':>4}  function: seconds by signature's arrays")
    for name, seconds in sorted(own.items(), key=lambda kv: -kv[1])[: args.top]:
        by = "; ".join(f"{s} {t:.1f}" for s, t in sorted(sigs[name].items(), key=lambda kv: -kv[1])[:3])
        print(f"{seconds:7.2f} {llvm[name]:7.2f} {len(signatures[name]):4d}  {name.removeprefix('octal.')}: {by}")
    rest = total - sum(sorted(own.values(), reverse=True)[: args.top])
    if rest > 0:
        print(f"{rest:7.2f}              the other {max(len(own) - args.top, 0)} functions")


if __name__ == "__main__":
    main()
