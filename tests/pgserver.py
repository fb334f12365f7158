"""A throwaway PostgreSQL server for the tests: the machine's own initdb and pg_ctl, a
temporary data directory, a free loopback port; stopped and removed after the run.

As root (CI), PostgreSQL will not run, so the server runs as the `postgres` user (Debian's
package makes it) through runuser, in a data directory that user owns. Without the
binaries, `Server.start` says why, and the tests that need a server skip with that reason.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SUPERUSER = "spire_admin"
PASSWORD = "admin-secret-4711"  # a throwaway server's, reachable from loopback only


def binaries() -> Path | None:
    """The directory holding initdb and pg_ctl: SPIRE_PG_BIN, else the newest of Debian's
    /usr/lib/postgresql/*/bin, else on PATH."""
    given = os.environ.get("SPIRE_PG_BIN")
    candidates = [Path(given)] if given else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                         key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
                         reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for candidate in candidates:
        if (candidate / "initdb").is_file() and (candidate / "pg_ctl").is_file():
            return candidate
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    bin: Path
    data: Path
    port: int
    owner: str | None  # the user the server runs as when we are root
    options: str = ""  # what pg_ctl start gave the server (its port among them)
    admin_password: str = PASSWORD
    _shared_made: bool = False
    _databases: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=False,
                              timeout=120, cwd="/")  # the callers say what failed

    def url(self, database: str = "postgres", user: str = SUPERUSER,
            password: str | None = PASSWORD) -> str:
        secret = f":{password}" if password is not None else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def admin(self, database: str = "postgres") -> Any:
        """A psycopg connection as the superuser, in autocommit."""
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user=SUPERUSER,
                               password=PASSWORD, dbname=database, autocommit=True)

    def fresh_database(self) -> str:
        """A new, empty database; its name."""
        name = f"journal_{os.getpid()}_{next(self._databases)}"
        with self.admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def fresh_journal(self) -> str:
        """The URL of a new, empty journal: a schema of its own in one shared database,
        which the URL puts first on the search path. A schema costs a few files and a
        millisecond; a database per test costs a thousand files and a fifth of a second."""
        import psycopg

        if not self._shared_made:
            with self.admin() as conn:
                conn.execute('CREATE DATABASE "journals"')
            self._shared_made = True
        name = f"journal_{next(self._databases)}"
        with self.admin("journals") as conn:
            conn.execute(psycopg.sql.SQL("CREATE SCHEMA {}").format(psycopg.sql.Identifier(name)))
        return f"{self.url('journals')}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        shutil.rmtree(self.data.parent, ignore_errors=True)

    def halt(self) -> None:
        """Stop the server as a crash or a pulled cable would (its files kept). What was
        committed is kept, as on a server with its own settings: this one commits without
        waiting for the WAL (synchronous_commit off), so a checkpoint first writes it out;
        an immediate stop lost the test's last commits now and then (its campaign)."""
        with self.admin() as conn:
            conn.execute("CHECKPOINT")
        halted = self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        assert halted.returncode == 0, halted.stderr

    def resume(self) -> None:
        """Start the halted server again, on its port."""
        started = self._run("pg_ctl", "start", "-D", str(self.data), "-w", "-t", "60",
                            "-l", str(self.data.parent / "log"), "-o", self.options)
        assert started.returncode == 0, started.stderr


def start(durable: bool = False) -> Server | str:
    """A running server, or why there is none. Tests run it without fsync (a throwaway
    server); `durable` keeps PostgreSQL's own settings, for the benchmark's figures."""
    bin = binaries()
    if bin is None:
        return ("no PostgreSQL binaries (initdb, pg_ctl) on this machine; install Debian's "
                "postgresql package or set SPIRE_PG_BIN")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'spire-journal[postgres]')"
    owner = None
    if os.geteuid() == 0:
        for name in ("postgres", "nobody"):
            try:
                pwd.getpwnam(name)
            except KeyError:
                continue
            owner = name
            break
        else:
            return "running as root with no unprivileged user to run PostgreSQL as"
    # A throwaway server's files in memory where the machine has a tmpfs: made and removed
    # at once, however many test journals the run made (the benchmark's stay on disk).
    memory = "/dev/shm" if not durable and os.access("/dev/shm", os.W_OK) else None
    home = Path(tempfile.mkdtemp(prefix="spire-pg-", dir=memory))
    data = home / "data"
    password_file = home / "password"
    password_file.write_text(PASSWORD + "\n")
    if owner is not None:
        entry = pwd.getpwnam(owner)
        for path in (home, password_file):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    server = Server(bin, data, free_port(), owner)
    made = server._run("initdb", "-D", str(data), "-U", SUPERUSER, f"--pwfile={password_file}",
                       "--auth-local=scram-sha-256", "--auth-host=scram-sha-256",
                       "-E", "UTF8", "--locale=C", "--no-sync")
    if made.returncode != 0:
        shutil.rmtree(home, ignore_errors=True)
        return f"initdb failed: {made.stderr.strip() or made.stdout.strip()}"
    settings = {  # loopback only, no Unix socket
        "listen_addresses": "127.0.0.1", "unix_socket_directories": "", "max_connections": "200",
    }
    if not durable:  # a throwaway server: fast
        settings |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
    for _ in range(5):
        options = " ".join(f"-c {k}={v!r}" if v == "" else f"-c {k}={v}"
                           for k, v in {**settings, "port": str(server.port)}.items())
        started = server._run("pg_ctl", "start", "-D", str(data), "-w", "-t", "60",
                              "-l", str(home / "log"), "-o", options)
        if started.returncode == 0:
            server.options = options
            return server
        server.port = free_port()  # the port was taken meanwhile: another
    log = (home / "log").read_text(errors="replace") if (home / "log").exists() else ""
    shutil.rmtree(home, ignore_errors=True)
    return f"pg_ctl could not start PostgreSQL: {started.stderr.strip()} {log[-500:]}"


@contextmanager
def running(durable: bool = False) -> Iterator[Server | str]:
    server = start(durable)
    try:
        yield server
    finally:
        if isinstance(server, Server):
            server.stop()
