"""The house's layout: data flows one way (base → rules and partizan values → engine → positions, misère, graphs,
census → front), no module imports one above it, no import cycles, and nothing below the front imports inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "octal"
LAYERS = [
    ("base", ["octal.errors", "octal.validate", "octal.io", "octal.outcomes", "octal.lazy", "octal.displays"]),
    ("rules", ["octal.rules", "octal.partizan"]),  # the rules of games and the values of partizan ones
    ("engine", ["octal.engine"]),
    ("above", ["octal.positions", "octal.misere", "octal.graphs", "octal.census", "octal.solve"]),
    ("front", ["octal.front"]),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(mod: str) -> int:
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(mod == p or mod.startswith(p + ".") for p in prefixes):
            return i
    return -1


def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, inside a function?) for every import of a module of the package."""
    mod = module_name(path)
    tree = ast.parse(path.read_text())
    out = []
    funcs = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(f)}
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


def test_every_module_belongs_to_a_layer():
    assert [m for m in MODULES if m != "octal" and layer(m) < 0] == []


def test_no_module_imports_one_above_it():
    bad = []
    for mod, path in MODULES.items():
        if mod == "octal":
            continue
        for target, _ in imports(path):
            if layer(known(target)) > layer(mod):
                bad.append(f"{mod} → {known(target)}")
    assert bad == []


def test_no_hidden_imports_below_the_front():
    hidden = [f"{mod} → {t}" for mod, p in MODULES.items() if layer(mod) < 4 for t, inside in imports(p) if inside]
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
            tree = ast.parse(path.read_text())
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
        tree = ast.parse(path.read_text())
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
