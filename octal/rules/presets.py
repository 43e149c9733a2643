"""Named games: one TOML file per game in presets/ (shipped inside the package as octal.preset_files)."""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import (
    DataFileError,
    InvalidArgumentError,
    OctalCodeError,
    UnknownGameError,
)
from ..shipped import shipped_files
from .code import OctalCode, parse_code
from .families import parse_family


@dataclass(frozen=True)
class Preset:
    """A named game: its code, rules and history in a sentence, and published facts with their sources:
    `facts` for normal play, `misere` for misère play (each a TOML table of its own)."""

    key: str
    name: str
    code: OctalCode
    aliases: tuple[str, ...] = ()
    rules: str = ""
    history: str = ""
    facts: dict = field(default_factory=dict)
    family: str = "octal"  # octal, hexadecimal, subtraction, …: how the game is usually written
    misere: dict = field(default_factory=dict)


def slug(text: str) -> str:
    """'Dawson's Kayles' → 'dawsons-kayles': the form names and aliases are matched in (code marks such as
    ! ? = * { } are kept, so 4!.0 and 4=.0 stay different games)."""
    return re.sub(r"[^a-z0-9.\[\]!?=*{}&;+,()]+", "-",
                  text.strip().lower().replace("'", "").replace("\u2019", "")).strip("-")


def _preset_files() -> list[Path]:
    return shipped_files("octal.preset_files", "presets", ".toml")


def _load(path: Path) -> Preset:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return Preset(
            key=path.stem,
            name=data["name"],
            code=parse_family(data["code"]) or parse_code(data["code"]),
            aliases=tuple(data.get("aliases", ())),
            rules=data.get("rules", ""),
            history=data.get("history", ""),
            facts=dict(data.get("facts", {})),
            family=str(data.get("family", "octal")),
            misere=dict(data.get("misere", {})),
        )
    except (tomllib.TOMLDecodeError, KeyError, OctalCodeError) as exc:
        raise DataFileError(f"preset file {path.name} is broken: {exc}") from exc


@lru_cache(maxsize=1)
def presets() -> dict[str, Preset]:
    """Every shipped preset by key (the file name without .toml), in file order."""
    return {p.key: p for p in map(_load, _preset_files())}


def find_preset(name: str) -> Preset | None:
    """The preset whose key, name or alias matches `name` (case, spaces and apostrophes ignored)."""
    if not isinstance(name, str):
        raise InvalidArgumentError(f"a preset name is text, not {type(name).__name__}")
    want = slug(name)
    for p in presets().values():
        if want in {slug(p.key), slug(p.name), *map(slug, p.aliases)}:
            return p
    return None


def closest_preset(name: str) -> str | None:
    """The preset key most like a mistyped name (kayle → kayles), by difflib's ratio over keys, names and aliases."""
    spelled = {slug(x): p.key for p in presets().values() for x in (p.key, p.name, *p.aliases)}
    match = difflib.get_close_matches(slug(name), list(spelled), n=1, cutoff=0.75)
    return spelled[match[0]] if match else None


def preset_for_code(code: OctalCode) -> Preset | None:
    """The preset that plays `code`, if any (so '0.77' is reported as Kayles)."""
    return next((p for p in presets().values() if p.code == code), None)


def resolve(game: str | OctalCode | Preset) -> tuple[OctalCode, Preset | None]:
    """A code string, an OctalCode, a Preset or a preset name → (code, preset or None)."""
    if isinstance(game, OctalCode):
        return game, preset_for_code(game)
    if isinstance(game, Preset):
        return game.code, game
    if not isinstance(game, str):
        raise InvalidArgumentError(
            f"a game is a code string (0.77), a preset name (kayles) or an OctalCode, not {type(game).__name__}")
    text = game
    preset = find_preset(text)
    if preset is not None:
        return preset.code, preset
    family = parse_family(text)
    if family is not None:
        return family, preset_for_code(family)
    if not any(c in text for c in ".\u00b7\u2219\u22c5"):
        guess = closest_preset(text)
        if guess is not None:
            raise UnknownGameError(f"unknown game {text!r}: did you mean {guess!r}? ('octal presets' lists them all)")
        known = ", ".join(sorted(presets()))
        raise UnknownGameError(f"unknown game {text!r}: not an octal code (like 0.77), a subtraction set "
                               f"(like S(1,2,5), allbut(1,3) or 0.0n7(3)) nor a preset ({known})")
    code = parse_code(text)
    return code, preset_for_code(code)


def as_code(game: str | OctalCode | Preset) -> OctalCode:
    """The code of anything `resolve` accepts: what every public function takes as its game."""
    return resolve(game)[0]
