"""`spire ...` run as a new process with its output on a pseudo-terminal (a real terminal as
far as it can tell), or on a pipe: what it wrote, as bytes."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0


def _env(env: dict[str, str | None]) -> dict[str, str]:
    merged = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "PYTHONPATH": str(ROOT)}
    for name, value in env.items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    return merged


def on_terminal(*args: str, env: dict[str, str | None] | None = None,
                stdout: Path | None = None) -> tuple[int, bytes]:
    """Run `spire ARGS` with stdout and stderr on a pseudo-terminal (stdout to the file
    `stdout` if given); its exit code and everything it wrote on the terminal."""
    leader, follower = os.openpty()
    out = stdout.open("wb") if stdout is not None else None
    process = subprocess.Popen(
        [sys.executable, "-m", "journal", *args], stdin=subprocess.DEVNULL,
        stdout=out if out is not None else follower, stderr=follower, env=_env(env or {}),
        start_new_session=True)
    if out is not None:
        out.close()
    os.close(follower)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], TIMEOUT)
            if not ready:
                raise AssertionError(f"spire {' '.join(args)} wrote nothing for {TIMEOUT}s")
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the process has gone: the terminal reads as closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        code = process.wait(timeout=TIMEOUT)
        os.close(leader)
    return code, seen


def on_pipes(*args: str, env: dict[str, str | None] | None = None,
             input: bytes | None = None) -> tuple[int, bytes, bytes]:
    """Run `spire ARGS` with stdout and stderr on pipes (and `input` on stdin, if given):
    its exit code, stdout, stderr."""
    done = subprocess.run([sys.executable, "-m", "journal", *args], capture_output=True,
                          check=False, env=_env(env or {}), timeout=TIMEOUT, input=input,
                          stdin=subprocess.DEVNULL if input is None else None)
    return done.returncode, done.stdout, done.stderr
