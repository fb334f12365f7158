"""Where the data shipped with spire lives: inside the installed package, or beside it
in a source checkout (the repository keeps rules/ and migrations/ at its top level)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The directory `name` (rules or migrations) that ships with this copy of spire."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"spire is missing its {name}/ directory")


def write_whole(path: Path, text: str | Iterable[str]) -> None:
    """Write `text` (or each of its pieces, as they come) to `path` whole or not at all:
    into a temporary file beside it, synced, then renamed into place. A write that fails (a
    full disk, `ulimit -f`) leaves `path` as it was, never cut short; the temporary file is
    removed. `OSError` says why. The file is made as any other is (`0o666` less the
    umask: a report is made to share), or keeps the mode of the file it replaces; the
    temporary file's own mode (mkstemp's 0600) is never the file's."""
    import os
    import tempfile

    path = Path(path)
    mode = _mode_for(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                         dir=path.parent if str(path.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            os.fchmod(out.fileno(), mode)
            if isinstance(text, str):
                out.write(text)
            else:
                out.writelines(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with _quietly():
            os.unlink(temporary)
        raise


def _mode_for(path: Path) -> int:
    """The mode `path` keeps (the file's it replaces), or one made new takes."""
    import os
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        # The umask is read by setting it, the one portable way; spire's other threads (a
        # progress line, watch's waiter) make no files under the 0 it holds meanwhile.
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def append_whole(path: Path, text: str) -> None:
    """Append `text` to the file at `path` whole or not at all, synced: a write that fails
    (a full disk) is cut back off. `OSError` says why. (A crash mid-write can leave part
    of it: a reader takes a last line without its newline as not written.)"""
    import errno
    import os

    data = text.encode("utf-8")
    handle = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        end = os.fstat(handle).st_size
        try:
            if os.write(handle, data) != len(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(handle)
        except BaseException:
            with _quietly():
                os.ftruncate(handle, end)
            raise
    finally:
        os.close(handle)


def _quietly() -> Any:
    import contextlib

    return contextlib.suppress(OSError)
