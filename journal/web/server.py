"""`spire serve` run: the journal opened read-only, a socket bound, the address to open
printed, uvicorn serving until Ctrl-C. Starlette and uvicorn are imported here and below
only: no other command loads them."""

from __future__ import annotations

import ipaddress
import secrets
import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from journal.service.reading import Reading

LOOPBACK = "127.0.0.1"


def serve(read: Reading, host: str, port: int) -> None:
    """Serve the journal's pages on `host`:`port` (0: a free port) until Ctrl-C. A host
    beyond this machine gets a token, in the address printed and asked of every request."""
    import uvicorn

    from journal.web.app import build

    read.store.only_read()
    read.status()  # a campaign that is not there is said before anything is bound
    token = None if loopback(host) else secrets.token_urlsafe(24)
    bound = bind(host, port)
    config = uvicorn.Config(build(read, token), log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1, access_log=False)
    try:  # the address printed once the app is built: a Ctrl-C from then on ends quietly
        print(f"spire serve: open {address(host, bound, token)} (Ctrl-C stops)", flush=True)
        uvicorn.Server(config).run(sockets=[bound])
    except KeyboardInterrupt:  # uvicorn stops at Ctrl-C, then raises it again: done
        pass
    finally:
        bound.close()


def loopback(host: str) -> bool:
    """Whether `host` is this machine alone (no one else can reach it)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port`; one that cannot be had is bad input."""
    from journal.errors import BadInput

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        bound = socket.socket(family, socket.SOCK_STREAM)
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        bound.bind((host, port))
        bound.listen(128)
    except OSError as e:
        raise BadInput(f"cannot listen on {host} port {port}: {e.strerror or e}") from e
    bound.set_inheritable(True)
    return bound


def address(host: str, bound: socket.socket, token: str | None) -> str:
    """The address to open: the host as given (this machine's name for one that listens
    on every interface), the port bound, the token."""
    port = bound.getsockname()[1]
    shown = socket.gethostname() if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


