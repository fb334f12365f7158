"""The server's routes (Starlette): the live page, its stream of changes (server-sent
events), the history page and the static files. Each route only asks `Pages`; the
journal is read on the event loop's thread, one request at a time, so a reading's caches
are never shared across threads."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from journal.web.feed import Feed
from journal.web.guard import Guard
from journal.web.pages import Pages

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from journal.service.reading import Reading

KEEPALIVE_SECONDS = 15.0
"""How often a quiet stream says it is still there (a comment line), so proxies and the
browser keep it open and a viewer gone is found."""

STATIC = Path(__file__).parent / "static"


def build(read: Reading, token: str | None) -> Guard:
    """The application: the routes behind the guard."""
    from starlette.applications import Starlette
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    pages, feed = Pages(read), Feed(read.store)
    site = Site(pages, feed)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        feed.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            feed.stop()

    routes = [
        Route("/", site.live, methods=["GET"]),
        Route("/events", site.events, methods=["GET"]),
        # A campaign's name may hold a slash: its page's suffix is looked for first.
        Route("/c/{name:path}/events", site.events, methods=["GET"]),
        Route("/c/{name:path}/history", site.history, methods=["GET"]),
        Route("/c/{name:path}", site.live, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.feed = feed
    return Guard(app, token)


class Site:
    """The routes' handlers over one journal's pages and its feed."""

    def __init__(self, pages: Pages, feed: Feed) -> None:
        self.pages, self.feed = pages, feed

    async def live(self, request: Request) -> Response:
        return self._page(lambda: self.pages.live(_name(request)))

    async def history(self, request: Request) -> Response:
        from journal.errors import BadInput

        at = request.query_params.get("at")
        if at is not None and not at.isdigit():
            return self._page(lambda: _raise(BadInput(f"at={at!r} is not an event's number")))
        return self._page(lambda: self.pages.history(
            _name(request), request.query_params.get("branch") or None,
            int(at) if at else None))

    async def events(self, request: Request) -> Response:
        """The live page's part, each time it changes, as server-sent events."""
        from starlette.responses import StreamingResponse

        name = _name(request)
        first = self._page(lambda: self.pages.part(name, self.feed.generation))
        if first.status_code != 200:  # a campaign the journal does not hold
            return first
        return StreamingResponse(self._stream(name), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    async def _stream(self, name: str | None) -> AsyncIterator[str]:
        queue = self.feed.subscribe()
        try:
            sent = ""
            while not self.feed.closed:
                part = self.pages.part(name, self.feed.generation)
                if part != sent:
                    yield _event("state", part)
                    sent = part
                try:
                    await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": still here\n\n"
        finally:
            self.feed.unsubscribe(queue)

    def _page(self, draw: Callable[[], str]) -> Response:
        """The page `draw` makes, or the one line that says why there is none."""
        from starlette.responses import HTMLResponse, PlainTextResponse

        from journal.errors import BadInput, NotFound, SpireError

        try:
            return HTMLResponse(draw())
        except NotFound as e:
            return PlainTextResponse(f"spire: {e}\n", status_code=404)
        except BadInput as e:
            return PlainTextResponse(f"spire: {e}\n", status_code=400)
        except SpireError as e:  # the journal's server away, a journal that does not read
            return PlainTextResponse(f"spire: {e}\n", status_code=503)


def _name(request: Request) -> str | None:
    name = request.path_params.get("name")
    return str(name) if name is not None else None


def _raise(error: Exception) -> str:
    raise error


def _event(kind: str, data: str) -> str:
    """One server-sent event: each line of `data` a `data:` line."""
    body = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"event: {kind}\n{body}\n"
