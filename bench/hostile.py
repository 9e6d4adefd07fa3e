"""Benchmark: `bridgelaw serve` under hostile clients (issue 24 "Done when", issue 23 item 5).

    python bench/hostile.py [--workers 2] [--rounds 3] [--seconds 8]

Starts one `bridgelaw serve --workers N` on 127.0.0.1 (a free port, default settings otherwise)
and measures, each on its own, in --rounds interleaved rounds (a change in the machine's load
falls on both sides of a comparison alike):

1. greedy: a normal client rules example 7 of the WBF commentary over and over (one keep-alive
   connection) for --seconds, alone and then while four greedy clients post, as fast as they are
   answered, a 240 KB JSON case `{"title": [1, 1, … 120,000 items]}` (it used to hold a worker's
   event loop 8.3 s before its 422). Printed: the normal client's p50, p99 and worst latency
   both ways, and how much the greedy clients delay it (p99 and worst, in ms). Aim: ≤ 100 ms.
2. one address: 64 connections from one address (a club's NAT, a reverse proxy) each post a
   ruling at once, twice over. Aim: 128 answers 200, no 503.
3. idle: 64 idle connections from 127.0.0.1, then that address's next request. Aim: 200 at once.
4. headers: a request with 1 MB of headers. Aim: 431, and the server's memory does not grow.

The clients are a small asyncio HTTP/1.1 client in this process (no dependency). The server is
stopped at the end (Ctrl+C stops everything). Prints medians over the rounds, the load average,
and "met" or "NOT met" for each aim. The machine's cores are shared by the clients, the server's
workers and anything else running: the load average says how much else was.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CASE = ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml"


class Server:
    def __init__(self, workers: int) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "bridgelaw.web", "--host", HOST, "--port", "0",
                                      "--workers", str(workers)], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     text=True, start_new_session=True)
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", self.proc.stderr.readline())
        if not m:
            self.stop()
            raise SystemExit("bench/hostile.py: the server did not start")
        self.port = int(m[1])

    def rss_mb(self) -> float:
        """Resident memory of the server and its workers, MB (Linux /proc)."""
        total = 0
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                text = status.read_text()
            except OSError:
                continue
            pid, ppid = int(status.parent.name), int(re.search(r"PPid:\s+(\d+)", text)[1])
            if pid == self.proc.pid or ppid == self.proc.pid:
                m = re.search(r"VmRSS:\s+(\d+) kB", text)
                total += int(m[1]) if m else 0
        return total / 1024

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def post(body: bytes, kind: str = "yaml", close: bool = False) -> bytes:
    return (b"POST /api/rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/" + kind.encode() + b"\r\n"
            + (b"Connection: close\r\n" if close else b"")
            + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes) -> int:
    writer.write(data)
    head = await reader.readuntil(b"\r\n\r\n")
    m = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    await reader.readexactly(int(m[1]) if m else 0)
    return int(head[9:12])


async def normal_client(port: int, seconds: float, greedy: int) -> dict:
    """The normal client's latencies (ms) while `greedy` greedy clients run."""
    stop = time.perf_counter() + seconds
    greedy_body = post(json.dumps({"title": [1] * 120_000}, separators=(",", ":")).encode(), "json")
    statuses: list[int] = []

    async def greedy_client() -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while time.perf_counter() < stop:
                statuses.append(await answer(reader, writer, greedy_body))
        finally:
            writer.close()

    tasks = [asyncio.create_task(greedy_client()) for _ in range(greedy)]
    await asyncio.sleep(0.2 if greedy else 0)
    reader, writer = await asyncio.open_connection(HOST, port)
    data, latencies, failures = post(CASE.read_bytes()), [], 0
    try:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            failures += await answer(reader, writer, data) != 200
            latencies.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.01)
    finally:
        writer.close()
    await asyncio.gather(*tasks)
    latencies.sort()
    return {"p50": latencies[len(latencies) // 2], "p99": latencies[int(len(latencies) * 0.99)],
            "worst": latencies[-1], "n": len(latencies), "failures": failures,
            "greedy": len(statuses), "greedy_statuses": sorted(set(statuses))}


async def one_address(port: int, connections: int = 64) -> list[int]:
    body = CASE.read_bytes()

    async def one() -> int:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            return await answer(reader, writer, post(body, close=True))
        finally:
            writer.close()
    out: list[int] = []
    for _ in range(2):
        out += await asyncio.gather(*(one() for _ in range(connections)))
    return out


async def idle_then_request(port: int) -> tuple[int, float]:
    idle = [await asyncio.open_connection(HOST, port) for _ in range(64)]
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
        start = time.perf_counter()
        status = await answer(reader, writer, post(CASE.read_bytes(), close=True))
        writer.close()
        return status, (time.perf_counter() - start) * 1000
    finally:
        for _, w in idle:
            w.close()


def big_headers(port: int, size: int = 1 << 20) -> int:
    """The status of a request with `size` bytes of headers (sent until the server closes)."""
    import socket
    sock = socket.create_connection((HOST, port), timeout=10)
    try:
        sock.sendall(b"GET /api/rulebooks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            for _ in range(size // 65536):
                sock.sendall(b"a" * 65536)
            sock.sendall(b"\r\n\r\n")
        except OSError:
            pass
        data = b""
        try:
            while chunk := sock.recv(4096):
                data += chunk
        except OSError:
            pass
        return int(data[9:12]) if data.startswith(b"HTTP/1.1 ") else 0
    finally:
        sock.close()


def wait_ready(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            asyncio.run(one_address(port, 1))
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("bench/hostile.py: the server did not answer")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument("--seconds", type=float, default=8, help="seconds the normal client runs each way (default 8)")
    a = p.parse_args(argv)
    if not 1 <= a.workers <= 8 or not 1 <= a.rounds <= 20 or not 1 <= a.seconds <= 120:
        p.error("out of range: --workers 1..8, --rounds 1..20, --seconds 1..120")
    print(f"bench/hostile.py: serve --workers {a.workers}, {a.rounds} rounds, {os.cpu_count()} cores; "
          f"load average at start {os.getloadavg()[0]:.2f}")
    server = Server(a.workers)
    rows: dict[str, list[float]] = {}

    def keep(name: str, value: float) -> None:
        rows.setdefault(name, []).append(value)
    try:
        wait_ready(server.port)
        for r in range(a.rounds):
            alone = asyncio.run(normal_client(server.port, a.seconds, 0))
            attacked = asyncio.run(normal_client(server.port, a.seconds, 4))
            statuses = asyncio.run(one_address(server.port))
            idle_status, idle_ms = asyncio.run(idle_then_request(server.port))
            before = server.rss_mb()
            header_status = big_headers(server.port)
            grew = server.rss_mb() - before
            print(f"round {r + 1}: normal client alone p50 {alone['p50']:.1f} p99 {alone['p99']:.1f} worst "
                  f"{alone['worst']:.1f} ms; with 4 greedy clients ({attacked['greedy']} answers "
                  f"{attacked['greedy_statuses']}) p50 {attacked['p50']:.1f} p99 {attacked['p99']:.1f} worst "
                  f"{attacked['worst']:.1f} ms, {attacked['failures'] + alone['failures']} failures | one address: "
                  f"{statuses.count(200)} × 200, {statuses.count(503)} × 503 of {len(statuses)} | after 64 idle: "
                  f"{idle_status} in {idle_ms:.0f} ms | 1 MB header: {header_status}, memory +{grew:.1f} MB | "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
            keep("delay p99", attacked["p99"] - alone["p99"])
            keep("delay worst", attacked["worst"] - alone["worst"])
            keep("503s from one address", statuses.count(503))
            keep("not 200 from one address", len(statuses) - statuses.count(200))
            keep("idle then request", idle_ms if idle_status == 200 else float("inf"))
            keep("header status", header_status)
            keep("failures", attacked["failures"] + alone["failures"])
    finally:
        server.stop()
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"medians over {a.rounds} rounds: greedy clients delay the normal one by p99 {med['delay p99']:.1f} ms, "
          f"worst {med['delay worst']:.1f} ms; one address: {med['not 200 from one address']:.0f} answers not 200; "
          f"after 64 idle connections: {med['idle then request']:.0f} ms; load average {os.getloadavg()[0]:.2f}")
    aims = [("four greedy JSON clients delay a normal client ≤ 100 ms (worst)", med["delay worst"] <= 100),
            ("64 connections from one address: no 503", max(rows["503s from one address"]) == 0
             and max(rows["not 200 from one address"]) == 0),
            ("64 idle connections do not hold up the address's next request", med["idle then request"] < 1000),
            ("a 1 MB header is refused (431)", all(s == 431 for s in rows["header status"])),
            ("no normal request failed", max(rows["failures"]) == 0)]
    for text, met in aims:
        print(f"{'met' if met else 'NOT met'}: {text}")
    return 0 if all(met for _, met in aims) else 1


if __name__ == "__main__":
    sys.exit(main())
