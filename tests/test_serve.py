"""`spire serve`, the table's screen (issue 35): the real server in a process of its own on
a free port, real headless Chromium (through Playwright, on the system's browser), and
writes from other `spire` processes, as at the table.

One journal, one server and one browser are shared by the module's tests (CI runs on two
cores); a test that needs a server of its own (a token, PostgreSQL) starts one.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import os
import queue
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from conftest import Spire

ROOT = Path(__file__).resolve().parents[1]
"""The repository: its docs, its README (the installed package has neither)."""
IMAGES = ROOT / "docs" / "images"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
SCRIPT = "<script>alert(1)</script>"
WITHIN = 1.0
"""How soon a write shows on every page (issue 35)."""


class Server:
    """`spire serve` in a process of its own; the address it printed."""

    def __init__(self, db: str, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "journal", "--db", db, "serve", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_lines, args=(self.process.stdout, lines), daemon=True).start()
        try:
            self.said = lines.get(timeout=60)
        except queue.Empty:
            self.stop()
            pytest.fail(f"spire serve printed no address: {self.errors()}")
        found = re.search(r"http://\S+", self.said)
        assert found, self.said
        self.address = found.group(0)
        parts = urlsplit(self.address)
        self.port = parts.port or 80
        self.token = parts.query.removeprefix("token=") or None

    @property
    def pid(self) -> int:
        return self.process.pid

    def url(self, path: str) -> str:
        """`path` on this server, reached over loopback (whatever host it listens on)."""
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def errors(self) -> str:
        if self.process.poll() is None:
            return ""
        assert self.process.stderr is not None
        return self.process.stderr.read()


def _lines(stream: Any, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


def spire_process(db: str, *args: str) -> None:
    """`spire ARGS` run as another process than the server's and the test's."""
    done = subprocess.run([sys.executable, "-m", "journal", "--db", db, *args],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr


def request(server: Server, method: str, path: str, headers: dict[str, str] | None = None,
            body: str | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        body = response.read().decode("utf-8", "replace") if method != "HEAD" else ""
        return response.status, body
    finally:
        conn.close()


# -- the shared journal, server and browser ----------------------------------------------

@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Spire:
    """A journal of six campaigns: `gray-oaks` (the current one) with a target under way,
    one whose name and note hold a script, the demo (a face-off under way, an undo, an
    item, a branch), two fights (`fights`) and `crowd`, the many viewers'; an Ogre entered
    in the catalog that no campaign has met."""
    spire = Spire(tmp_path_factory.mktemp("serve") / "table.sqlite")
    spire.ok("new", SCRIPT, "--game", "hildegard")
    spire.ok("note", f"the note says {SCRIPT}")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("demo")
    spire.ok("rewind", "12", "--as", "bolder")  # a branch off the demo, to browse
    spire.ok("gain", "gold", "3")
    spire.ok("switch", "main")
    fights(spire)
    spire.ok("new", "crowd", "--game", "hildegard")  # the twenty viewers' own
    spire.ok("use", "gray-oaks")
    spire.ok("card", "add", "Ogre", "--target", "--number", "140", "--limit", "2",
             "--accuracy", "3", "--sets", "2", "--parts", "c,r,d")
    spire.ok("target", "Street Merchant")
    return spire


def fights(spire: Spire) -> None:
    """Two campaigns in a fight, for the screenshots: `tower` (Spire's End: HP, AP, a
    status effect, the enemy's HP and AP, whose turn) and `plains` (Volume 2: bees,
    pollen, meat, pelts, Finnian's dice in the middle of a finesse), as docs/ plays them."""
    spire.ok("new", "tower", "--game", "spires-end", "--players", "2")
    spire.ok("draw", "Millicent", "--hp", "5", "--ap", "2", "--bar", "Back Hand",
             "--recoup", "Recoup Bar Example", "--death", "Death Bar Example")
    spire.ok("draw", "Oswin", "--hp", "4", "--ap", "1", "--bar", "Jab; cost 1; 5-8: 1",
             "--recoup", "heal 6-8: 1")
    spire.ok("fight", "Brute", "--hp", "9", "--ap", "2", "--bar", "Club; 3-5: 2; 6-8: 4",
             "--bar", "Gash; 5-8: 1, A", "--status", "A: bleed x3", "--recoup", "heal 7-8: 1")
    spire.ok("action", "Back Hand", "8")
    spire.ok("effect", "bleed", "--on", "Oswin", "--turns", "3")
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Dunstan", "--ally", "--hp", "6", "--ap", "2",
             "--combo", "Double Shot: black white: 2 damage", "--combo", "Repair: ping: repair 1")
    spire.ok("card", "add", "Wade Slocum", "--enemy", "--hp", "8", "--ap", "2",
             "--ferocity", "1", "--attacks", "1", "--retreat", "2", "--meat")
    spire.ok("gain", "meat", "2")
    spire.ok("draw", "Dunstan")
    spire.ok("fight", "Wade Slocum", "--with", "Dunstan")
    spire.ok("roll", "sickle", "blank", "hive")
    spire.ok("lock", "1", "3")


@pytest.fixture(scope="module")
def server(table: Spire) -> Iterator[Server]:
    running = Server(table.url)
    yield running
    assert running.stop() == 0, running.errors()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (the test extras)")
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("chromium is missing in CI: .ci/run should have installed it")
        pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=found, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page(viewport={"width": 1280, "height": 900})
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    opened.dialogs = dialogs
    yield opened
    opened.close()


def follows(page: Any, text: str, spire: Spire) -> None:
    """The page shows `text` (the latest write's) within a second of the write: from the
    event's recorded time, stamped before its commit, to the page's drawing it, as the
    page's script stamps it (one clock, this machine's). It waits longer to say how late."""
    shows_within(page, "main", text, 5 * WITHIN)
    drawn = page.evaluate("Number(document.body.getAttribute('data-updated'))") / 1000
    late = drawn - last_written(spire)
    assert 0 < late < WITHIN, f"the page showed the write {late:.3f} s after it"


def shows_within(page: Any, selector: str, text: str, seconds: float) -> float:
    """How long the page took to show `text` in `selector` (it fails after `seconds`)."""
    start = time.monotonic()
    page.wait_for_function(
        "([selector, text]) => { const e = document.querySelector(selector);"
        " return e !== null && e.innerText.includes(text); }",
        arg=[selector, text], timeout=seconds * 1000, polling="raf")
    return time.monotonic() - start


# -- the live page -------------------------------------------------------------------------

def test_the_page_follows_a_roll_from_another_process_without_a_reload(
    table: Spire, server: Server, page: Any,
) -> None:
    page.goto(server.url("/"))
    assert "Street Merchant: 0 of 2 bullseyes" in page.inner_text("main")
    shows_within(page, "#link", "live", 10)  # the stream is open
    page.evaluate("window.notReloaded = true")

    spire_process(table.url, "roll", "crescent", "crescent", "ring")
    follows(page, "1:crescent 2:crescent 3:ring", table)
    spire_process(table.url, "wild", "whoopsie", "--on", "3")
    follows(page, "Street Merchant: 1 of 2 bullseyes", table)
    assert page.evaluate("window.notReloaded") is True, "the page was reloaded"
    assert "Wild shot (black) for Hildegard: whoopsie, die 3 removed" in page.inner_text("main")


@pytest.mark.postgresql
def test_the_page_follows_a_write_on_postgresql(pg_server: Any, browser: Any) -> None:
    spire = Spire(pg_server.fresh_journal())
    spire.ok("new", "shared-oaks", "--game", "hildegard")
    spire.ok("target", "Street Merchant")
    running = Server(spire.url)
    opened = browser.new_page()
    try:
        opened.goto(running.url("/"))
        shows_within(opened, "#link", "live", 10)
        opened.evaluate("window.notReloaded = true")
        spire_process(spire.url, "roll", "ring", "dot", "crescent")
        follows(opened, "1:ring 2:dot 3:crescent", spire)
        assert opened.evaluate("window.notReloaded") is True
    finally:
        opened.close()
        assert running.stop() == 0, running.errors()


def test_a_script_in_a_name_or_a_note_is_shown_as_text(server: Server, page: Any) -> None:
    status, html = request(server, "GET", "/c/" + quote(SCRIPT, safe=""))
    assert status == 200
    assert SCRIPT not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page.goto(server.url("/c/" + quote(SCRIPT, safe="")))
    shows_within(page, "#link", "live", 10)  # the part drawn again from the stream too
    assert page.inner_text("h1") == SCRIPT
    assert f"the note says {SCRIPT}" in page.inner_text("main")
    assert page.dialogs == [], "a script the players typed ran"
    assert page.locator("main script").count() == 0


def test_no_card_the_players_have_not_met_is_shown(server: Server) -> None:
    for path in ("/", "/c/gray-oaks", "/c/demo", "/c/tower", "/c/plains", "/c/gray-oaks/history",
                 "/c/demo/history?at=3", "/c/plains/history"):
        status, html = request(server, "GET", path)
        assert status == 200, path
        assert "Ogre" not in html and "140" not in html, path
    _, demo = request(server, "GET", "/c/demo")
    assert "cards seen" in demo and "1, 12, 26-27" in demo  # what status shows, shown


def test_a_campaign_the_journal_lacks_is_not_found(server: Server) -> None:
    assert request(server, "GET", "/c/nowhere")[0] == 404
    assert request(server, "GET", "/c/nowhere/events")[0] == 404
    assert request(server, "GET", "/c/demo/history?at=999")[0] == 400


# -- many viewers --------------------------------------------------------------------------

class Viewers:
    """Pages' streams of changes (server-sent events), read as a browser reads them, all
    from one thread: each viewer a socket of its own, every wait bounded, so a viewer the
    server never answers fails the test instead of hanging it. Each asks over HTTP/1.0,
    so the stream comes as it is written, without chunks to take apart."""

    def __init__(self, server: Server, paths: list[str]) -> None:
        self.selector = selectors.DefaultSelector()
        self.read: dict[socket.socket, bytes] = {}
        self.seen: dict[socket.socket, dict[str, float]] = {}
        for path in paths:
            viewer = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            viewer.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            viewer.setblocking(False)
            self.selector.register(viewer, selectors.EVENT_READ)
            self.read[viewer], self.seen[viewer] = b"", {}

    def until(self, done: Callable[[bytes], bool], seconds: float) -> list[bytes]:
        """Read every stream until `done` holds for each, or `seconds` pass; what each
        stream has sent so far."""
        deadline = time.monotonic() + seconds
        while not all(done(text) for text in self.read.values()):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in self.selector.select(min(left, 0.1)):
                self._take(key.fileobj)  # type: ignore[arg-type]
        return list(self.read.values())

    def _take(self, viewer: socket.socket) -> None:
        try:
            chunk = viewer.recv(65536)
        except BlockingIOError:
            return
        now = time.time()
        if not chunk:  # the server ended the stream
            self.selector.unregister(viewer)
            return
        self.read[viewer] += chunk
        for word in re.findall(rb"viewers see (\w+)", self.read[viewer]):
            self.seen[viewer].setdefault(word.decode(), now)

    def when(self, word: str) -> list[float | None]:
        """When each viewer was sent `word` (the clock's time), None for one never sent it."""
        return [seen.get(word) for seen in self.seen.values()]

    def close(self) -> None:
        for viewer in self.read:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(viewer)
            viewer.close()
        self.selector.close()


def sockets(pid: int) -> int:
    """How many sockets the process holds open."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:
            continue  # closed while counted
    return count


def resident(pid: int) -> int:
    """The process's resident memory, in kB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+)", status)
    assert found
    return int(found.group(1))


def settled(pid: int, wanted: int | None, seconds: float = 10) -> int:
    """The process's sockets once they are `wanted` (or, if None, once they stay the same
    for half a second), or after `seconds`."""
    deadline = time.monotonic() + seconds
    last, since = sockets(pid), time.monotonic()
    while time.monotonic() < deadline:
        now = sockets(pid)
        if now == wanted or (wanted is None and time.monotonic() - since >= 0.5):
            return now
        if now != last:
            last, since = now, time.monotonic()
        time.sleep(0.05)
    return sockets(pid)


def last_written(spire: Spire) -> float:
    """When the journal's latest event was recorded (the clock's time): before its write
    was committed, so a delay measured from it is never too short."""
    from datetime import datetime

    rows = spire.sql("SELECT recorded_at FROM events ORDER BY id DESC LIMIT 1")
    stamp = rows[0][0]
    when = stamp if isinstance(stamp, datetime) else datetime.fromisoformat(stamp)
    return when.timestamp()


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="counts sockets in /proc")
def test_twenty_viewers_each_see_a_write_and_leave_nothing_behind(
    table: Spire, server: Server,
) -> None:
    warm = Viewers(server, ["/c/crowd/events"])  # the first reads made
    warm.until(lambda text: b"event: state" in text, 20)
    warm.close()
    before = settled(server.pid, None)
    memory, threads = [], []
    for word in ("first", "second", "third", "fourth"):
        viewers = Viewers(server, ["/c/crowd/events"] * 20)
        try:
            sent = viewers.until(lambda text: b"event: state" in text, 20)
            assert all(b"200 OK" in text.split(b"\r\n", 1)[0] for text in sent), sent
            assert all(b"text/event-stream" in text for text in sent), sent
            assert all(b"event: state" in text for text in sent), "a viewer was never sent the page"
            assert sockets(server.pid) >= before + 20, "the viewers are not all connected"
            spire_process(table.url, "-c", "crowd", "note", f"all viewers see {word}")
            written = last_written(table)
            viewers.until(lambda text, w=word: f"viewers see {w}".encode() in text, 5)
            late = [round(t - written, 3) if t is not None else None
                    for t in viewers.when(word)]
            assert all(t is not None and t < WITHIN for t in late), late
        finally:
            viewers.close()
        assert settled(server.pid, before) == before, "a viewer's socket was left open"
        memory.append(resident(server.pid))
        threads.append(len(list(Path(f"/proc/{server.pid}/task").iterdir())))
    # The first round's allocations stay with the process (Python keeps its arenas); a
    # viewer that leaves something behind grows it at every round after.
    assert memory[-1] - memory[1] < 4 * 1024, f"memory grew by viewer: {memory} kB"
    assert threads[-1] == threads[0], f"threads left by viewers: {threads}"


# -- only reading, and the token ------------------------------------------------------------

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
PATHS = ("/", "/events", "/c/gray-oaks", "/c/gray-oaks/events", "/c/gray-oaks/history",
         "/c/demo/history?branch=bolder&at=13", "/c/" + quote(SCRIPT, safe=""),
         "/static/live.js", "/static/history.js", "/static/style.css", "/static/",
         "/nowhere", "/c/nowhere/events")
"""Every path the server answers, and some it does not."""


WRITE_HEADERS = {"content-type": "application/x-www-form-urlencoded"}


def test_every_write_method_is_refused_and_nothing_written(table: Spire, server: Server) -> None:
    before = table.journal_rows()
    for path in PATHS:
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            status, body = request(server, method, path, WRITE_HEADERS, "note=all+gone")
            assert status == 405, (method, path)
            assert "gray-oaks" not in body
    assert table.journal_rows() == before


@pytest.fixture(scope="module")
def opened(table: Spire) -> Iterator[Server]:
    """The server listening on every interface: with a token."""
    running = Server(table.url, "--host", "0.0.0.0")
    yield running
    assert running.stop() == 0, running.errors()


def test_an_opened_server_asks_every_request_for_its_token(opened: Server) -> None:
    assert opened.token is not None and len(opened.token) >= 20, opened.said
    on_an_ip = opened.said.rstrip("\n").replace(urlsplit(opened.address).hostname or "",
                                                 "192.168.100.200")
    assert len(on_an_ip) <= 80, on_an_ip  # the address to type, one line at 80 columns
    for path in PATHS:
        for method in METHODS:
            for wrong in ({}, {"cookie": "spire_token=guess"}):
                status, body = request(opened, method, path, wrong)
                assert status == 403, (method, path, wrong)
                assert "gray-oaks" not in body and "Street Merchant" not in body
            status, _ = request(opened, method, f"{path}?token={opened.token[:-1]}")
            assert status == 403, (method, path)
    status, body = request(opened, "GET", f"/?token={opened.token}")
    assert status == 200 and "gray-oaks" in body
    cookie = f"spire_token={opened.token}"
    assert request(opened, "GET", "/static/live.js", {"cookie": cookie})[0] == 200
    assert request(opened, "POST", f"/?token={opened.token}")[0] == 405


def test_a_server_on_every_interface_prints_the_machines_address(opened: Server) -> None:
    """`--host 0.0.0.0` printed the machine's name, which a tablet may not know: it prints
    the machine's address on its network, one `hostname -I` lists (the next test opens
    the page there)."""
    host = urlsplit(opened.address).hostname or ""
    if not re.fullmatch(r"[\d.]+", host):  # the name: only where no network leads out
        assert host == socket.gethostname(), opened.said
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe, \
                pytest.raises(OSError):
            probe.connect(("10.254.254.254", 1))
        return
    assert not ipaddress.ip_address(host).is_loopback, opened.said
    listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout.split():
        assert host in listed.stdout.split(), (opened.said, listed.stdout)


def test_an_opened_servers_page_works_from_its_printed_address(
    opened: Server, browser: Any,
) -> None:
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(opened.url(f"/?token={opened.token}"))
        shows_within(tab, "#link", "live", 10)  # the stream, its script: by the cookie
        assert "Street Merchant" in tab.inner_text("main")
    finally:
        context.close()


# -- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "said"), [
    (["serve", "--port", "70000"], "--port"),
    (["serve", "--port", "x"], "--port"),
    (["-c", "nowhere", "serve", "--port", "0"], "nowhere"),
    (["serve", "--host", "no-such-host.invalid", "--port", "0"], "cannot listen"),
])
def test_a_refused_serve_says_one_line(table: Spire, args: list[str], said: str) -> None:
    before = table.journal_rows()
    done = subprocess.run([sys.executable, "-m", "journal", "--db", table.url, *args],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert table.journal_rows() == before
    assert done.returncode == 2
    assert done.stderr.startswith("spire: ") and len(done.stderr.splitlines()) == 1, done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr


def test_serve_runs_beside_the_play_shell_not_inside_it(tmp_path: Path) -> None:
    spire = Spire(tmp_path / "shell.sqlite")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    run = spire("play", input="serve\n")
    assert "`serve` does not run inside the play shell" in run.err + run.out


def test_a_port_taken_is_said_in_one_line(table: Spire, server: Server) -> None:
    before = table.journal_rows()
    done = subprocess.run(
        [sys.executable, "-m", "journal", "--db", table.url, "serve", "--port",
         str(server.port)], capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("spire: cannot listen") and \
        len(done.stderr.splitlines()) == 1, done.stderr
    assert table.journal_rows() == before


# -- the history page ---------------------------------------------------------------------------

def test_the_right_arrow_goes_to_the_next_event_and_its_state(
    table: Spire, server: Server, page: Any,
) -> None:
    from journal.service import glance
    from journal.service.browse import Walks
    from journal.service.reading import Reading

    walks = Walks(Reading(str(table.db), "demo"))
    page.goto(server.url("/c/demo/history?branch=main&at=12"))
    assert "main at #12" in page.inner_text("#where")
    after = page.locator("ol.events li", has_text=re.compile(r"^#13 ")).inner_text()

    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"at=13$"), timeout=5000)
    assert "main at #13" in page.inner_text("#where")
    assert page.locator("ol.events li.here").inner_text() == after
    shown = page.inner_text(".party")
    for label, words in glance.of(walks.moment("main", 13).state).rows:
        assert words in shown, (label, words)
    assert page.locator("li.undone").count() >= 1, "the demo's undone event is marked"
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"at=12$"), timeout=5000)
    page.locator("#at").fill("20")  # the slider, let go at #20
    page.wait_for_url(re.compile(r"branch=main&at=20$"), timeout=5000)
    assert "main at #20 of 25" in page.inner_text("#where")


def test_the_history_works_without_script(table: Spire, server: Server) -> None:
    status, html = request(server, "GET", "/c/demo/history?branch=main&at=5")
    assert status == 200
    assert 'href="/c/demo/history?branch=main&amp;at=6"' in html
    assert 'href="/c/demo/history?branch=main&amp;at=4"' in html
    assert '<input id="at" type="range" name="at"' in html
    assert "<svg" in html and "Roads taken" in html
    assert "start (#1)" in html  # the checkpoint, linked


# -- the screenshots for the docs ----------------------------------------------------------------

SHOTS = {
    # a phone: Hildegard's face-off against the Crows, on the hit meter
    "serve-live-400": ("demo", 400, "light", (
        "gold", "1", "feats", "1 of 6", "items", "Slingshot [story] (Hildegard)",
        "Face-off, round 2: The Crows 3/7", "meter XXX", "Hildegard's roll next",
        "Odds", "enemy The Crows: 3 of 7 bullseyes", "Latest", "#25 The Crows rolled crescent")),
    # a phone in the dark: a target, its bullseyes in the set under way
    "serve-live-400-dark": ("gray-oaks", 400, "dark", (
        "Street Merchant", "bullseyes", "set", "gold", "feats", "Latest")),
    # the TV: Spire's End's allies and the enemy in a fight, a status effect, whose turn
    "serve-live-1920": ("tower", 1920, "light", (
        "Ally 1 Millicent: HP 5/5, AP 2/2", "Ally 2 Oswin: HP 4/4, AP 1/1",
        "Bleed (3 turns left)", "Enemy Brute: HP 8/9, AP 0/2",
        "Round 1: Millicent's turn, recoup or upkeep next",
        "Brute's turn: selection roll Millicent 50.0%", "#6 Bleed (3 turns) on Oswin")),
    # the TV in the dark: Volume 2, Finnian's hive dice, bees, pollen, meat, pelts
    "serve-live-1920-dark": ("plains", 1920, "dark", (
        "bees", "1 of 4", "pollen", "meat", "2", "pelts", "Ally Finnian: HP 2/5, AP 3/3",
        "Enemy Wade Slocum: HP 8/8, AP 2/2, ferocity 1, 2 rounds left", "Hive active",
        "Finnian's dice (3 HP): 1 sickle*, 2 blank, 3 hive*",
        "Round 1: Finnian's turn, lock, re-roll or stop next", "Double Shot")),
}


@pytest.mark.parametrize("shot", sorted(SHOTS))
def test_screenshots_of_the_live_page(server: Server, browser: Any, shot: str) -> None:
    name, width, scheme, wanted = SHOTS[shot]
    tab = browser.new_page(viewport={"width": width, "height": 1080 if width > 1000 else 860},
                           color_scheme=scheme)
    try:
        tab.goto(server.url("/c/" + name))
        shows_within(tab, "#link", "live", 10)
        text = tab.inner_text("main")
        flat = " ".join(text.split())  # the odds' columns keep their spaces
        missing = [words for words in wanted if words not in flat]
        assert not missing, (missing, text)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width, \
            "the page is wider than the screen"
        if width > 1000:
            assert tab.evaluate("document.documentElement.scrollHeight") <= 1080, \
                "the TV's page does not fit its screen"
        background = tab.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(0, 0, 0)" if scheme == "dark" else "rgb(255, 255, 255)")
        IMAGES.mkdir(exist_ok=True)
        tab.screenshot(path=str(IMAGES / f"{shot}.png"), full_page=True)
    finally:
        tab.close()


ODDS_LINES = """() => [...document.querySelectorAll('.odds .lines li')].map(li => {
  const range = document.createRange();
  range.selectNodeContents(li.querySelector('.rest'));
  const rows = new Map();  // each row's top: its leftmost text (a space at a row's end
  for (const r of range.getClientRects()) {  // has a box of its own)
    const top = Math.round(r.top);
    if (r.width > 0) rows.set(top, Math.min(rows.get(top) ?? Infinity, Math.round(r.left)));
  }
  const lead = li.querySelector('.lead');
  return {text: li.innerText, lead: lead && Math.round(lead.getBoundingClientRect().left),
          rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, left]) => left),
          share: li.querySelector('.rest').getBoundingClientRect().width /
                 li.getBoundingClientRect().width};
})"""
"""Each odds line on the page: where its lead begins (null without one), where each row
of the rest begins, top to bottom, and the share of the line's width the rest has."""


@pytest.mark.parametrize("name", ["demo", "gray-oaks", "tower", "plains"])
def test_a_wrapped_odds_line_goes_on_under_itself_on_a_phone(
    server: Server, browser: Any, name: str,
) -> None:
    # The odds are `spire odds`'s lines, too long for a phone: the rest of a line wraps
    # under where it began (beside its label, its indent or a table's first cell), and a
    # sentence's next rows hang two columns in, so a wrapped line never reads as the next.
    tab = browser.new_page(viewport={"width": 400, "height": 860})
    try:
        tab.goto(server.url("/c/" + name))
        shows_within(tab, "#link", "live", 10)
        found = tab.evaluate(ODDS_LINES)
        assert tab.evaluate("document.documentElement.scrollWidth") <= 400, \
            "the page is wider than the phone"
        assert all(line["share"] >= 0.5 for line in found), found  # room to wrap in
        wrapped = [line for line in found if len(line["rows"]) > 1]
        assert wrapped, found  # a phone is too narrow for some
        for line in wrapped:
            first, *more = line["rows"]
            if line["lead"] is None:
                assert all(left > first for left in more), line
            else:
                assert line["lead"] < first and all(left == first for left in more), line
    finally:
        tab.close()


def test_screenshot_of_the_history_page(server: Server, browser: Any) -> None:
    tab = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        tab.goto(server.url("/c/demo/history?branch=main&at=14"))
        text = tab.inner_text("main")
        for wanted in ("main at #14 of 25", "#14 Undid #13", "gold 2 -> 0",
                       "#13 +2 gold [undone]", "Branches", "main at #25",
                       "bolder at #13 (from main at #12)", "Checkpoints", "start (#1)",
                       "Roads taken", "cards seen", "1, 12, 26", "Home"):
            assert wanted in text, (wanted, text)
        tab.keyboard.press("End")
        tab.wait_for_url(re.compile(r"at=25$"), timeout=5000)
        tab.goto(server.url("/c/demo/history?branch=main&at=14"))
        tab.screenshot(path=str(IMAGES / "serve-history.png"), full_page=True)
    finally:
        tab.close()


# -- the page for players ------------------------------------------------------------------------

DOC = ROOT / "docs" / "table-screen.md"


def test_the_players_page_shows_every_screenshot_and_what_serve_prints(server: Server) -> None:
    page = DOC.read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]+\]\(images/([^)]+)\)", page)
    assert sorted(shown) == sorted([f"{shot}.png" for shot in SHOTS] + ["serve-history.png"])
    assert all((IMAGES / name).is_file() for name in shown)
    printed = server.said.strip().replace(f":{server.port}/", ":8035/")
    assert f"$ spire serve\n{printed}\nCtrl-C stops it.\n" in page, printed
    opened = re.search(r"\$ spire serve --host \S+\n(.*)\nCtrl-C stops it\.\n", page)
    assert opened and re.fullmatch(r"spire serve: open http://\S+:8035/\?token=[\w-]{22}",
                                   opened.group(1))
    for key in ("←", "→", "Home", "End"):
        assert f"**{key}**" in page
    assert "(docs/table-screen.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
