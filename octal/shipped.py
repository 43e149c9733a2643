"""Where the files octal ships live: inside the installed package, or, in a source checkout (an editable install),
in the repository's own folder (presets/, data/)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def shipped_files(package: str, folder: str, suffix: str) -> list[Path]:
    """The files ending in `suffix` that `package` ships (the checkout's `folder` when the package is not installed)."""
    try:
        found = sorted(Path(str(p)) for p in resources.files(package).iterdir() if p.name.endswith(suffix))
        if found:
            return found
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    return sorted((REPO / folder).glob(f"*{suffix}"))


def shipped_file(package: str, folder: str, name: str) -> Path:
    """One shipped file by name (FileNotFoundError when neither place holds it)."""
    for path in shipped_files(package, folder, name):
        if path.name == name:
            return path
    raise FileNotFoundError(f"{name} is not among the files of {package}")
