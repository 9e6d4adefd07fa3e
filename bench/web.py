"""Benchmark: requests per second and latency of `POST /api/rule` on a real `bridgelaw serve`.

    python bench/web.py [--workers 1,2] [--clients 8] [--requests 3000] [--rounds 3] [--seconds 30]

Starts one `bridgelaw serve --workers N` per value of --workers on 127.0.0.1 (loopback only, a
free port each), then in each round drives every server in turn (interleaved, so a change in the
machine's load falls on all of them alike) with --requests rulings of the case corpus sent over
--clients concurrent keep-alive connections (a small asyncio HTTP/1.1 client in this process: no
dependency). A round stops after --requests or --seconds, whichever comes first; the servers are
stopped at the end (Ctrl+C stops everything). Every answer must be 200.

Prints for each round and server: requests/s, p50 and p99 latency, the server's CPU time per
request (all its processes, from /proc: what the rate would be bounded by on idle cores), the load
average; then the medians over the rounds and the ratio of the last --workers value to the first. Aim (issue 9):
≥ 1,000 requests/s with 2 workers. The client runs on the same machine and takes CPU from the
servers; on a shared machine the load average says how much else was running.
"""

from __future__ import annotations

import argparse
import asyncio
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


class Server:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.proc = subprocess.Popen([sys.executable, "-m", "bridgelaw.web", "--host", HOST, "--port", "0",
                                      "--workers", str(workers)],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                                     start_new_session=True)
        line = self.proc.stderr.readline()
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.stop()
            raise SystemExit(f"bench/web.py: the server did not start: {line.strip()}")
        self.port = int(m[1])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process `pid` and its children alive now (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def request(body: bytes) -> bytes:
    return (b"POST /api/rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/yaml\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes) -> int:
    writer.write(data)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    m = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    await reader.readexactly(int(m[1]) if m else 0)
    return status


async def drive(port: int, requests: list[bytes], clients: int, total: int, seconds: float) -> dict:
    latencies: list[float] = []
    failures: list[int] = []
    next_index = 0
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal next_index
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while next_index < total and time.perf_counter() < deadline:
                data = requests[next_index % len(requests)]
                next_index += 1
                start = time.perf_counter()
                status = await one(reader, writer, data)
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    failures.append(status)
        finally:
            writer.close()

    for _ in range(3):                                    # warm every worker before timing
        await asyncio.gather(*(asyncio.wait_for(_warm(port, requests[0]), 10) for _ in range(clients)))
    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"rate": len(latencies) / elapsed, "p50": _pct(latencies, 50), "p99": _pct(latencies, 99),
            "n": len(latencies), "failures": failures, "load": os.getloadavg()[0]}


async def _warm(port: int, data: bytes) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        await one(reader, writer, data)
    finally:
        writer.close()


def _pct(values: list[float], p: int) -> float:
    return values[min(len(values) - 1, int(len(values) * p / 100))] * 1000 if values else float("nan")


def wait_ready(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            asyncio.run(_warm(port, request(b"{}")))
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("bench/web.py: the server did not answer")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", default="1,2", help="server processes to compare, e.g. 1,2 (default)")
    p.add_argument("--clients", type=int, default=8, help="concurrent connections (default 8, at most 16)")
    p.add_argument("--requests", type=int, default=3000, help="requests per round and server (default 3000)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument("--seconds", type=float, default=30, help="longest a round may drive one server (default 30)")
    a = p.parse_args(argv)
    workers = [int(w) for w in a.workers.split(",") if w]
    if not 1 <= a.clients <= 16 or not workers or not all(1 <= w <= 8 for w in workers) \
            or not 1 <= a.requests <= 100_000 or not 1 <= a.rounds <= 20 or not 0 < a.seconds <= 120:
        p.error("out of range: --clients 1..16, --workers 1..8 each, --requests ≤ 100000, --rounds ≤ 20, "
                "--seconds ≤ 120")
    bodies = [request(path.read_bytes()) for path in sorted((ROOT / "cases").rglob("*.yaml"))]
    print(f"bench/web.py: POST /api/rule, {len(bodies)} corpus cases, {a.clients} connections, "
          f"{a.requests} requests per round, {a.rounds} rounds, {os.cpu_count()} cores; "
          f"load average at start {os.getloadavg()[0]:.2f}")
    servers = []
    try:
        for w in workers:
            servers.append(Server(w))
            wait_ready(servers[-1].port)
        results: dict[int, list[dict]] = {w: [] for w in workers}
        for r in range(1, a.rounds + 1):
            for s in (servers if r % 2 else servers[::-1]):
                cpu = cpu_seconds(s.proc.pid)
                res = asyncio.run(drive(s.port, bodies, a.clients, a.requests, a.seconds))
                res["cpu_ms"] = (cpu_seconds(s.proc.pid) - cpu) * 1000 / max(res["n"], 1)
                results[s.workers].append(res)
                bad = f", {len(res['failures'])} not 200: {sorted(set(res['failures']))}" if res["failures"] else ""
                print(f"round {r}  workers {s.workers}: {res['rate']:7.0f} requests/s  p50 {res['p50']:6.1f} ms  "
                      f"p99 {res['p99']:6.1f} ms  server CPU {res['cpu_ms']:.2f} ms/request  ({res['n']} requests; "
                      f"load {res['load']:.2f}){bad}", flush=True)
        print("medians:")
        medians = {}
        for w in workers:
            rate = statistics.median(x["rate"] for x in results[w])
            medians[w] = rate
            print(f"  workers {w}: {rate:7.0f} requests/s  p50 {statistics.median(x['p50'] for x in results[w]):6.1f} ms  "
                  f"p99 {statistics.median(x['p99'] for x in results[w]):6.1f} ms  "
                  f"server CPU {statistics.median(x['cpu_ms'] for x in results[w]):.2f} ms/request")
        if len(workers) > 1:
            print(f"  ratio workers {workers[-1]} / workers {workers[0]}: {medians[workers[-1]] / medians[workers[0]]:.2f}")
        best = max(workers)
        print(f"target ≥ 1000 requests/s with 2 workers: {'met' if medians.get(2, 0) >= 1000 else 'not met'} "
              f"here ({medians.get(2, medians[best]):.0f}/s); load average at the end {os.getloadavg()[0]:.2f}")
        failed = any(x["failures"] for res in results.values() for x in res)
        return 1 if failed else 0
    except KeyboardInterrupt:
        return 130
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    sys.exit(main())
