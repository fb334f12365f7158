"""What every request meets before a route: only GET and HEAD (the server only reads),
the token when the server listens beyond this machine, and the page's security headers
(CSP `default-src 'self'`: no inline script, nothing fetched from elsewhere).

A token comes in the address printed (`?token=...`) and is kept in a cookie from then on,
so the page's script, its stylesheet and its links need not carry it.
"""

from __future__ import annotations

import secrets
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "spire_token"
READING = frozenset({"GET", "HEAD"})
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class Guard:
    """ASGI middleware: refuses what the server does not serve, before any route runs."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = self._given(scope)
        if self.token is not None and not secrets.compare_digest(given or "", self.token):
            await _refuse(send, 403, b"forbidden: this address needs its token\n")
            return
        if scope["method"] not in READING:
            await _refuse(send, 405, b"spire serve only reads the journal\n",
                          [(b"allow", b"GET, HEAD")])
            return
        await self.app(scope, receive, self._headed(send, keep=given is not None))

    def _given(self, scope: Scope) -> str | None:
        """The token the request carries: in its query, else in its cookie."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if "token" in query:
            given: str = query["token"][0]
            return given
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                jar: SimpleCookie = SimpleCookie()
                jar.load(value.decode("latin-1"))
                if COOKIE in jar:
                    found: str = jar[COOKIE].value
                    return found
        return None

    def _headed(self, send: Send, keep: bool) -> Send:
        """`send` with the security headers added, and the token's cookie set."""
        extra = list(HEADERS)
        if keep and self.token is not None:
            extra.append((b"set-cookie", f"{COOKIE}={self.token}; Path=/; HttpOnly; "
                          "SameSite=Strict".encode()))

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return headed


async def _refuse(send: Send, status: int, body: bytes,
                  more: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"),
               (b"content-length", str(len(body)).encode()), *HEADERS, *(more or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
