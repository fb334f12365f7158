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
TOKEN_BYTES = 16
"""The token's randomness: 128 bits, 22 characters to type into a TV's browser, so the
address on an IP of the table's network fits one line of 80 columns."""


def serve(read: Reading, host: str, port: int) -> None:
    """Serve the journal's pages on `host`:`port` (0: a free port) until Ctrl-C. A host
    beyond this machine gets a token, in the address printed and asked of every request."""
    import uvicorn

    from journal.service import collector
    from journal.web.app import build

    collector.resumed()  # a server stays: its cycles are freed as it goes
    read.store.only_read()
    read.status()  # a campaign that is not there is said before anything is bound
    token = None if loopback(host) else secrets.token_urlsafe(TOKEN_BYTES)
    bound = bind(host, port)
    config = uvicorn.Config(build(read, token), log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1, access_log=False)
    try:  # the address printed once the app is built: a Ctrl-C from then on ends quietly
        print(f"spire serve: open {address(host, bound, token)}\nCtrl-C stops it.", flush=True)
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
    """The address to open: the host as given (for one that listens on every interface,
    this machine's address on its network, else its name), the port bound, the token."""
    port = bound.getsockname()[1]
    shown = host
    if host in ("0.0.0.0", "::"):
        shown = own_address(socket.AF_INET if host == "0.0.0.0" else socket.AF_INET6) \
            or socket.gethostname()
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


PROBES = {socket.AF_INET: "10.254.254.254", socket.AF_INET6: "fd00::fe"}
"""An address on a private network, of each family, that nothing needs to answer."""


def own_address(family: socket.AddressFamily) -> str | None:
    """This machine's address on the network its traffic would leave by (a tablet on the
    table's Wi-Fi reaches it there, where it may not know the machine's name), or None
    with no network. Connecting a UDP socket picks the way out and sends nothing."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBES[family], 1))
            found = str(probe.getsockname()[0])
    except OSError:
        return None
    kind = ipaddress.ip_address(found)
    return None if kind.is_loopback or kind.is_unspecified or kind.is_link_local else found


