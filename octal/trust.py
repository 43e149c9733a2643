"""A keyed signature (HMAC-SHA256, the standard library's hmac) on the files octal writes, with a secret made once
per user and kept in their config directory: a file carrying this user's signature is one octal wrote and nobody
changed since; any other (another user's, an older octal's, one edited and re-hashed) is checked in full."""

from __future__ import annotations

import hashlib
import hmac
import os
from functools import cache
from pathlib import Path

from .reading import open_regular

KEY_BYTES = 32


def config_dir() -> Path:
    """$XDG_CONFIG_HOME/octal, else ~/.config/octal."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "octal"


@cache
def _key(where: Path) -> bytes | None:
    """The user's secret, made on first use (mode 0600); None when it can be neither read nor made (then no file is
    trusted: every one is checked in full)."""
    path = where / "key"
    try:
        with open_regular(path) as f:
            key = f.read(KEY_BYTES + 1)
        return key if len(key) == KEY_BYTES else None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    tmp = where / f".key.{os.getpid()}"
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(KEY_BYTES))
        os.link(tmp, path)  # published whole or not at all: no reader sees half a key
    except FileExistsError:  # another process made it first: read theirs
        pass
    except OSError:
        return None
    finally:
        if tmp.exists():
            tmp.unlink()
    _key.cache_clear()
    return _key(where)


def _mac(parts: tuple[bytes, ...]) -> str | None:
    key = _key(config_dir())
    if key is None:
        return None
    h = hmac.new(key, digestmod=hashlib.sha256)
    for p in parts:  # each part length-prefixed: no two different lists of parts sign alike
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def sign(*parts: bytes) -> str | None:
    """This user's signature over `parts` (None when there is no key)."""
    return _mac(parts)


def signed(signature: object, *parts: bytes) -> bool:
    """Whether `signature` is this user's over `parts`: octal wrote them and they are unchanged."""
    if not isinstance(signature, str):
        return False
    mine = _mac(parts)
    return mine is not None and hmac.compare_digest(mine, signature)
