"""The work of requests (parsing, ruling, rendering), off the event loop and under a time limit."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import queue
import threading
from typing import Any, Callable

from .settings import TIME_LIMIT                   # seconds of work a request may take (serve --time-limit)

WORK_SLOTS = 4                                # requests worked on at once in one server process


class TooSlow(Exception):
    """A request's work did not finish within its time limit."""


class Work:
    """Runs the CPU work of requests off the event loop: in at most `slots` threads of this
    process (work waiting for a thread waits in line), each request answered within `limit`
    seconds or refused with :class:`TooSlow`. Work that was given up keeps its thread until it
    ends (Python cannot stop a thread), so at most `slots` pieces of work run at any time.

    A piece of work goes to the thread that went idle last (a stack, not a queue): under light
    load one thread does nearly everything with its caches warm, the others wait for bursts and
    slow requests — handing work round four threads in turn cost about 0.2 ms of CPU a request."""

    def __init__(self, limit: float = TIME_LIMIT, slots: int = WORK_SLOTS) -> None:
        self.limit, self.slots = limit, slots
        self._threads: list[threading.Thread] = []
        self._idle: list[queue.SimpleQueue] = []        # the inboxes of idle threads, the last idle on top
        self._line: collections.deque = collections.deque()     # work waiting for a thread
        self._lock = threading.Lock()

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        job: concurrent.futures.Future = concurrent.futures.Future()
        self._give((job, fn, args))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(job), self.limit)
        except asyncio.TimeoutError:         # still waiting in line: cancelled; running: let finish
            raise TooSlow() from None

    def _give(self, item: tuple) -> None:
        with self._lock:
            if self._idle:
                self._idle.pop().put(item)
                return
            if len(self._threads) < self.slots:
                # daemon threads: stopping the server does not wait for work it has given up
                thread = threading.Thread(target=self._serve, args=(item,), daemon=True,
                                          name=f"bridgelaw-work-{len(self._threads)}")
                self._threads.append(thread)
                thread.start()
                return
            self._line.append(item)

    def _serve(self, item: tuple | None) -> None:
        inbox: queue.SimpleQueue = queue.SimpleQueue()
        while True:
            if item is None:
                with self._lock:
                    if self._line:
                        item = self._line.popleft()
                    else:
                        self._idle.append(inbox)
                if item is None:
                    item = inbox.get()
            job, fn, args = item
            item = None
            if not job.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as exc:     # noqa: BLE001 — handed to the request, which reports it
                job.set_exception(exc)
            else:
                job.set_result(result)
            job = fn = args = result = None   # nothing of a request is kept while the thread waits
