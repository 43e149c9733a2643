"""The house's layout: the floors that docs/layout.md draws (read from it, so the test and the docs cannot drift), no
module imports one above it or the package top, no import cycles, and nothing below the front imports inside a
function."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "octal"
FLOOR_LINE = re.compile(r"^\d+\. \*\*(?P<name>[^*]+)\*\* — (?P<modules>.+)$")


def floors_of(text: str) -> list[tuple[str, list[str]]]:
    """The numbered floors of docs/layout.md: (name, the modules and packages on it), ground first."""
    return [(m["name"], re.findall(r"`([\w.]+)`", m["modules"])) for m in map(FLOOR_LINE.match, text.splitlines()) if m]


LAYERS = floors_of((ROOT / "docs" / "layout.md").read_text())
FRONT = len(LAYERS) - 1


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(mod: str) -> int:
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(mod == p or mod.startswith(p + ".") for p in prefixes):
            return i
    return -1


@cache  # every test reads the same modules: each parsed once per test process
def syntax(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


@cache
def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, inside a function?) for every import of a module of the package."""
    mod = module_name(path)
    tree = syntax(path)
    out = []
    funcs = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            out += [(t, id(node) in funcs) for t in names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("octal"):
            out.append((node.module, id(node) in funcs))
    return out


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def known(target: str) -> str:
    """The module a dotted import name refers to (a name imported from a module maps to the module)."""
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def test_the_docs_draw_the_floors():
    assert [name for name, _ in LAYERS][:2] == ["base", "rules"] and LAYERS[-1] == ("front", ["octal.front"])


def test_every_module_belongs_to_a_layer():
    assert [m for m in MODULES if m != "octal" and layer(m) < 0] == []


def test_a_module_importing_from_a_floor_above_is_caught():
    """The check itself: misère importing the census (a floor above it) is an import that runs back up."""
    assert layer("octal.census.store") > layer("octal.misere.quotient") > layer("octal.positions.position")
    assert layer("octal.solve") > layer("octal.misere.value") and layer("octal.front.cli") == FRONT


def test_no_module_imports_one_above_it():
    bad = []
    for mod, path in MODULES.items():
        if mod == "octal":
            continue
        for target, _ in imports(path):
            if known(target) == "octal" or layer(known(target)) > layer(mod):
                bad.append(f"{mod} → {known(target)}")
    assert bad == []


def test_no_hidden_imports_below_the_front():
    hidden = [f"{mod} → {t}" for mod, p in MODULES.items() if layer(mod) < FRONT for t, inside in imports(p) if inside]
    assert hidden == []


def test_no_import_cycles():
    graph = {m: {known(t) for t, _ in imports(p)} - {m} for m, p in MODULES.items() if m != "octal"}
    state: dict[str, int] = {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for t in graph.get(m, ()):
            if t == "octal":
                continue
            assert state.get(t) != 1, " → ".join(stack + [m, t])
            if t not in state:
                visit(t, stack + [m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])


def test_the_rules_describe_games_and_hold_no_numpy_layouts():
    """rules/ (and the partizan values beside it) import no numpy: the engine builds the kernels' input from them."""
    heavy = []
    for mod, path in MODULES.items():
        if mod.startswith(("octal.rules", "octal.partizan")):
            tree = syntax(path)
            for node in ast.walk(tree):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
                heavy += [f"{mod} → {n}" for n in names if n.split(".")[0] in ("numpy", "numba")]
    assert heavy == []


def test_no_module_reaches_into_another_packages_private_names():
    """A name starting with _ belongs to its package: another package may not import it."""
    bad = []
    for mod, path in MODULES.items():
        package = mod.rsplit(".", 1)[0] if path.name != "__init__.py" else mod
        tree = syntax(path)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("octal"):
                continue
            source = known(target)
            home = source if MODULES.get(source, Path()).name == "__init__.py" else source.rsplit(".", 1)[0]
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__") and home != package:
                    bad.append(f"{mod} imports {a.name} from {target}")
    assert bad == []
