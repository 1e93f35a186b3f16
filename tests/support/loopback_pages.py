"""A real HTTP server on a loopback address for the page-fetching tests: pages, slow pages, redirects, binary and
huge bodies, thin and missing pages. It counts requests per path so tests can prove a page was (not) fetched.

Routes (all GET):
  /article/<name>   an HTML article with enough main text to be a source (boilerplate around it)
  /plain            text/plain with enough text
  /thin             HTML with a few words of text; /shell: a JavaScript shell with no text
  /missing          404 with an HTML error page
  /error            500
  /binary           application/octet-stream bytes; /image: image/png
  /huge             text/html of HUGE_BYTES, streamed without a Content-Length
  /slow?delay=S     waits S seconds before answering
  /trickle          answers at once, then sends the body one line every 0.2 s
  /redirect?to=URL  302 to URL
  /loop/<n>         302 to /loop/<n+1>, forever
  /slow-headers?interval=S  sends the status line, then one header byte every S seconds (for up to 30 s)
  any path added with ``site.add(path, body, content_type, status)`` (custom pages win), or with
  ``site.add_raw(path, body_bytes, headers)``: bytes sent as they are, with the given headers (Content-Encoding...)
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HUGE_BYTES = 20_000_000
ARTICLE_SENTENCE = ("The {name} study measured how generators in Python yield values lazily, one at a time, keeping "
                    "their frame alive between calls so a pipeline never holds the whole sequence in memory. ")


def article_html(name: str, sentences: int = 12) -> str:
    body = "".join(ARTICLE_SENTENCE.format(name=name) for _ in range(sentences))
    return (f"<html><head><title>Article {name}</title></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/about'>About</a></nav>"
            f"<article><h1>Article {name}</h1><p>{body}</p>"
            f"<p>Second paragraph about {name} and iterators.</p></article>"
            f"<footer>Copyright footer text</footer></body></html>")


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackSite._Server  # type: ignore[name-defined]

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:  # noqa: C901 - one small router
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        site = self.server.site
        site.record(path)
        html = "text/html; charset=utf-8"
        if path in site.raw:
            raw_body, headers = site.raw[path]
            self.send_response(200)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(raw_body)))
            self.end_headers()
            try:
                self.wfile.write(raw_body)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path in site.custom:
            status, body, content_type = site.custom[path]
            self._send(status, body.encode("utf-8"), content_type)
        elif path.startswith("/article/"):
            self._send(200, article_html(path.rsplit("/", 1)[1]).encode(), html)
        elif path == "/plain":
            self._send(200, (ARTICLE_SENTENCE.format(name="plain") * 5).encode(), "text/plain; charset=utf-8")
        elif path == "/thin":
            self._send(200, b"<html><body><p>Subscribe to read.</p></body></html>", html)
        elif path == "/shell":
            self._send(200, b"<html><body><div id='app'></div><script>render()</script></body></html>", html)
        elif path == "/missing":
            self._send(404, b"<html><body><h1>Not found</h1><p>No such page.</p></body></html>", html)
        elif path == "/error":
            self._send(500, b"<html><body>server error</body></html>", html)
        elif path == "/binary":
            self._send(200, bytes(range(256)) * 64, "application/octet-stream")
        elif path == "/image":
            self._send(200, b"\x89PNG\r\n\x1a\n" + b"\x00" * 4096, "image/png")
        elif path == "/huge":
            self._huge()
        elif path == "/slow":
            time.sleep(float(query.get("delay", ["2"])[0]))
            self._send(200, article_html("slow").encode(), html)
        elif path == "/trickle":
            self._trickle()
        elif path == "/slow-headers":
            self._slow_headers(float(query.get("interval", ["0.2"])[0]))
        elif path == "/redirect":
            self._send(302, b"", html, {"Location": query["to"][0]})
        elif path.startswith("/loop/"):
            step = int(path.rsplit("/", 1)[1])
            self._send(302, b"", html, {"Location": f"/loop/{step + 1}"})
        else:
            self._send(404, b"unknown route", "text/plain")

    def _huge(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Connection", "close")
        self.end_headers()
        line = b"<p>" + b"filler text " * 80 + b"</p>\n"
        sent = 0
        try:
            while sent < HUGE_BYTES:
                self.wfile.write(line)
                sent += len(line)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.server.site.huge_bytes_sent = sent
        self.close_connection = True

    def _trickle(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            for _ in range(50):
                self.wfile.write(b"<p>" + b"slow words " * 10 + b"</p>\n")
                self.wfile.flush()
                time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


    def _slow_headers(self, interval: float) -> None:
        """A server that never finishes its headers: the status line, then a header value one byte at a time."""
        started = time.monotonic()
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: ")
            self.wfile.flush()
            while time.monotonic() - started < 30:
                time.sleep(interval)
                self.wfile.write(b"a")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.server.site.slow_headers_seconds = time.monotonic() - started
        self.close_connection = True


class LoopbackSite:
    """``with LoopbackSite() as site: site.url("/article/a")`` — a threaded server on ``host`` (127.0.0.1 default)."""

    class _Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True
        site: LoopbackSite

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.hits: Counter[str] = Counter()
        self.custom: dict[str, tuple[int, str, str]] = {}
        self.raw: dict[str, tuple[bytes, dict[str, str]]] = {}
        self.huge_bytes_sent = 0
        self.slow_headers_seconds = 0.0
        self._lock = threading.Lock()
        self._server = self._Server((host, 0), _Handler)
        self._server.site = self
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def record(self, path: str) -> None:
        with self._lock:
            self.hits[path] += 1

    def add(self, path: str, body: str, content_type: str = "text/html; charset=utf-8", status: int = 200) -> str:
        self.custom[path] = (status, body, content_type)
        return self.url(path)

    def add_raw(self, path: str, body: bytes, headers: dict[str, str]) -> str:
        self.raw[path] = (body, headers)
        return self.url(path)

    def url(self, path: str, host: str | None = None) -> str:
        return f"http://{host or self.host}:{self.port}{path}"

    def __enter__(self) -> LoopbackSite:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
