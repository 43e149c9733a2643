"""Run a real `octal` process and kill it (SIGKILL) once its database holds some rows: for the resume tests."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path


def kill_after_rows(cmd: list[str], db: Path, table: str, rows: int, timeout: float = 120) -> None:
    """Start `cmd`, wait until `table` in `db` has at least `rows` rows (or `timeout`), then kill -9 it."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + timeout
        count = 0
        while time.time() < deadline and count < rows:
            time.sleep(0.2)
            if db.exists():
                try:
                    count = sqlite3.connect(db).execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                except sqlite3.Error:
                    count = 0
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()


def kill_when_file(cmd: list[str], path: Path, settle: float = 0.5, timeout: float = 120) -> None:
    """Start `cmd`, wait until `path` exists, let it run `settle` seconds more, then kill -9 it (it must still run)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + timeout
        while time.time() < deadline and not path.exists():
            time.sleep(0.05)
        time.sleep(settle)
        assert proc.poll() is None, "the run finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
