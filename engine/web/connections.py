"""The connection guards of ``bridgelaw serve``, mixed into uvicorn's HTTP protocols (httptools
and h11): they keep the server available to everyone — slow clients, greedy ones, many clients
behind one address (a club's NAT, a reverse proxy) — without refusing ordinary use.

- **Read deadline.** A request (headers and body) must arrive within ``read_timeout`` seconds of
  its first byte — or of the connection's opening — else the connection is closed (408 when part
  of a request came).
- **Headers.** A request's line and headers may hold at most ``MAX_HEADER_BYTES`` (431 and closed
  past it), counted as they arrive, before the parser has gathered them (httptools gathers a
  header of any length; h11 is given the same bound).
- **Turns per address.** One client address may have at most ``per_client`` requests *in
  progress* in a process (arriving, worked on or answered); an idle kept-alive connection holds
  none. A further request waits its turn: its connection is not read (the bytes that came are
  kept) until one of that address's requests is answered — at most ``queue`` requests an
  address, each for at most ``queue_wait`` seconds, and only past those is it answered 503 with
  Retry-After. So fifty clients behind one NAT are served in turn, not refused, and sixteen
  trickling connections from one address cannot take more than their own turns. Connections
  from a configured proxy (``--proxy``) have no cap: the proxy sees the real clients and limits
  them (docs/web.md has the recipe).
- **Room.** A process keeps at most ``connections`` open; a new one past that closes the
  longest-open idle connection, else the longest-open one whose request is still arriving (a
  trickler) — never one whose request is whole — so thousands of trickling connections from
  thousands of addresses cannot lock everyone out.
- **Stopping.** On Ctrl+C or SIGTERM idle connections and requests that have not fully arrived
  are closed at once (uvicorn waited for a half-sent body until the read deadline); whole
  requests are answered first.

They use only what both protocols have (``transport``, ``flow``, ``client``, ``cycle``, ``loop``,
``config``, ``on_response_complete``, ``shutdown``); the limits come from the app factory's
options (``config.app.options``).
"""

from __future__ import annotations

import collections
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

try:                                          # the C parser (the web extra installs it); h11 otherwise
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:                           # pragma: no cover
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

from .settings import MAX_HEADER_BYTES, Options


def _message(status: bytes, text: bytes, *extra: bytes) -> bytes:
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            + b"".join(h + b"\r\n" for h in extra)
            + b"content-length: " + str(len(text)).encode() + b"\r\n\r\n" + text)


REFUSED = _message(b"503 Service Unavailable", b"Too many requests from your address are waiting; try again shortly.",
                   b"retry-after: 5")
WAITED = _message(b"503 Service Unavailable", b"Your request waited too long for its turn; try again shortly.",
                  b"retry-after: 5")
FULL = _message(b"503 Service Unavailable", b"The server has too many connections open; try again shortly.",
                b"retry-after: 5")
STOPPING = _message(b"503 Service Unavailable", b"The server is stopping; send the request again shortly.",
                    b"retry-after: 5")
TIMED_OUT = _message(b"408 Request Timeout", b"The request did not arrive in time; send it again.")
HEADERS_TOO_LARGE = _message(b"431 Request Header Fields Too Large",
                             f"The request's headers are larger than {MAX_HEADER_BYTES // 1024} KiB, the most this "
                             "server accepts.".encode())


class _Guards:
    """The guards (see the module), mixed in before a uvicorn HTTP protocol class."""

    busy: ClassVar[Counter[str]] = Counter()                     # requests in progress per address, this process
    waiting: ClassVar[dict[str, collections.deque]] = {}         # connections waiting for a turn, per address
    alive: ClassVar[dict[Any, None]] = {}                        # open connections, the longest open first

    _address: str | None = None
    _deadline: Any = None
    _wait_deadline: Any = None
    _held: list[bytes] | None = None
    _turn = False
    _partial = False
    _in_head = False
    _head = 0

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        self._options = getattr(self.config.app, "options", None) or Options()
        self._address = self.client[0] if self.client else ""
        self._proxied = self._address in self._options.proxies
        self.alive[self] = None
        if len(self.alive) > self._options.connections and not self._make_room():
            self.logger.warning("refused a connection from %s: %d connections are open and none is idle",
                                self._address, len(self.alive) - 1)
            self._close(FULL)
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._disarm_wait()
        self.alive.pop(self, None)
        self._leave_line()
        self._release()
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if self._held is not None:            # waiting for its turn: kept (reading is paused)
            self._held.append(data)
            return
        if not self._turn and not self._take_turn(data):
            return
        super().data_received(data)  # type: ignore[misc]
        if self.transport.is_closing():
            self._disarm()
            return
        if not self._in_head:
            self._head = 0
        else:                                 # the request's head is still arriving
            self._head += len(data)
            if self._head > MAX_HEADER_BYTES:
                self.logger.warning("refused a request from %s: headers of more than %d bytes", self._address,
                                    MAX_HEADER_BYTES)
                self._close(HEADERS_TOO_LARGE)
                return
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.more_body:
            self._disarm()                    # the whole request is here: the app's time limit applies now
            self._partial = False
        else:                                 # part of a request: it must be complete by the deadline
            self._partial = True
            if self._deadline is None:
                self._arm()

    def on_response_complete(self) -> None:
        self._partial = False
        self._release()
        super().on_response_complete()  # type: ignore[misc]  # the keep-alive timeout applies until the next request
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not self._turn:     # a pipelined request began
            self._count_turn()

    def shutdown(self) -> None:
        """Stopping: a request that has not fully arrived, or waits for its turn, is closed at
        once (503); the rest as uvicorn does (idle connections closed, whole requests answered)."""
        cycle = self.cycle
        if self._held is not None or self._partial and (cycle is None or not cycle.response_started):
            self._close(STOPPING)
            return
        super().shutdown()  # type: ignore[misc]

    # --- turns ------------------------------------------------------------------------------

    def _take_turn(self, data: bytes) -> bool:
        """Whether this connection's new request may go on now; else it waits (or is refused)."""
        if self._proxied or self.busy[self._address] < self._options.per_client:
            self._count_turn()
            return True
        line = self.waiting.setdefault(self._address, collections.deque())
        if len(line) >= self._options.queue:
            self.logger.warning("refused a request from %s: %d of its requests are waiting", self._address, len(line))
            self._close(REFUSED)
            return False
        self.flow.pause_reading()
        self._unset_keepalive_if_required()    # uvicorn's keep-alive timer must not close it while it waits
        self._held = [data]
        line.append(self)
        self._disarm()
        self._wait_deadline = self.loop.call_later(self._options.queue_wait, self._waited_too_long)
        return False

    def _count_turn(self) -> None:
        self.busy[self._address] += 1
        self._turn = True

    def _release(self) -> None:
        """This connection's request is answered (or gone): its turn goes to the next waiting."""
        if not self._turn:
            return
        self._turn = False
        address = self._address
        self.busy[address] -= 1
        if self.busy[address] <= 0:
            del self.busy[address]
        line = self.waiting.get(address)
        while line:
            nxt = line.popleft()
            if not line:
                del self.waiting[address]
            if not nxt.transport.is_closing():
                nxt._resume()
                break

    def _resume(self) -> None:
        self._disarm_wait()
        held, self._held = self._held or [], None
        self._count_turn()
        self._arm()
        self.flow.resume_reading()
        for chunk in held:
            if self.transport.is_closing():
                break
            self.data_received(chunk)

    def _leave_line(self) -> None:
        """No longer waiting for a turn (it waited too long, or the client left)."""
        if self._held is None:
            return
        self._held = None
        line = self.waiting.get(self._address)
        if line is not None and self in line:
            line.remove(self)
            if not line:
                del self.waiting[self._address]

    def _waited_too_long(self) -> None:
        self._wait_deadline = None
        self._leave_line()
        self.logger.warning("refused a request from %s: it waited %g s for its turn", self._address,
                            self._options.queue_wait)
        self._close(WAITED)

    # --- room -------------------------------------------------------------------------------

    def _make_room(self) -> bool:
        """Close the longest-open idle connection, else the longest-open trickling one, to make
        room for this one; False when every other connection has a whole request."""
        for wanted, message in ((_idle, b""), (_trickling, FULL)):
            for conn in self.alive:
                if conn is not self and wanted(conn):
                    self.alive.pop(conn, None)
                    conn._close(message)
                    return True
        return False

    # --- deadlines and closing --------------------------------------------------------------

    def _close(self, message: bytes) -> None:
        self._disarm()
        self._disarm_wait()
        if message and not self.transport.is_closing():
            self.transport.write(message)
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self._options.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _disarm_wait(self) -> None:
        if self._wait_deadline is not None:
            self._wait_deadline.cancel()
            self._wait_deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if self._partial and (cycle is None or cycle.response_complete or not cycle.response_started):
            self.transport.write(TIMED_OUT)
        self.transport.close()


def _idle(conn: Any) -> bool:
    """No request in progress or waiting (between requests, or none sent yet)."""
    return not conn._turn and conn._held is None and not conn.transport.is_closing()


def _trickling(conn: Any) -> bool:
    """A request still arriving, or waiting for its turn, with nothing answered yet."""
    cycle = conn.cycle
    return (conn._held is not None or conn._partial and (cycle is None or not cycle.response_started)) \
        and not conn.transport.is_closing()


class GuardedH11Protocol(_Guards, H11Protocol):
    """uvicorn's pure-Python h11 protocol with the guards (used when httptools is not installed).
    A request's head is arriving while h11 waits for it (``their_state`` IDLE with bytes kept)."""

    @property
    def _in_head(self) -> bool:  # type: ignore[override]
        return self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])


if HttpToolsProtocol is not None:
    class GuardedHttpToolsProtocol(_Guards, HttpToolsProtocol):
        """uvicorn's httptools protocol (llhttp, in C) with the guards: the default. The parser's
        callbacks say when a request's head begins and ends, so its bytes are counted as they come."""

        def on_message_begin(self) -> None:
            self._in_head, self._head = True, 0
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()
else:                                         # pragma: no cover — httptools not installed
    GuardedHttpToolsProtocol = None  # type: ignore[assignment,misc]
