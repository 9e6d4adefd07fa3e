"""Benchmark: requests per second and latency of `POST /api/rule` on a real `bridgelaw serve`.

    python bench/web.py [--workers 1,2] [--body yaml,json] [--http auto] [--clients 8] [--requests 3000]
                        [--rounds 3] [--seconds 30]

Starts one `bridgelaw serve --workers N --http H` per value of --workers and --http on 127.0.0.1
(loopback only, a free port each), then in each round drives every server with every kind of
body in turn (interleaved, so a change in the machine's load falls on all of them alike) with
--requests rulings of the case corpus sent over --clients concurrent keep-alive connections (a
small asyncio HTTP/1.1 client in this process: no dependency). The bodies are the corpus's case
files as they are (`Content-Type: application/yaml`) and the same cases as JSON objects
(`application/json`, what a scoring program sends; the server rules a plain JSON case from its
tree, without YAML). A round stops after --requests or --seconds, whichever comes first; the
servers are stopped at the end (Ctrl+C stops everything). Every answer must be 200.

Prints for each round, server and body: requests/s, p50 and p99 latency, the server's CPU time per
request (all its processes, from /proc: what the rate would be bounded by on idle cores), the load
average; then the medians over the rounds and the ratio of the last --workers value to the first.
Aim (issue 9): ≥ 1,000 requests/s with 2 workers — the last line says "met" or "NOT met" for each
body. The client runs on the same machine and takes CPU from the servers (2 cores here: the
client, both workers and anything else running share them); the load average says how much else
was running.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import itertools
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


class Server:
    def __init__(self, workers: int, http: str) -> None:
        self.workers, self.http = workers, http
        self.proc = subprocess.Popen([sys.executable, "-m", "bridgelaw.web", "--host", HOST, "--port", "0",
                                      "--workers", str(workers), "--http", http],
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


def request(body: bytes, kind: str = "yaml") -> bytes:
    return (b"POST /api/rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/" + kind.encode() + b"\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def corpus(kind: str) -> list[bytes]:
    """The requests of one kind of body: every case file of cases/, as it is or as a JSON object."""
    paths = sorted((ROOT / "cases").rglob("*.yaml"))
    if kind == "yaml":
        return [request(path.read_bytes()) for path in paths]
    from bridgelaw.core.yamlio import load_yaml
    return [request(json.dumps(load_yaml(path).tree, default=_iso).encode(), "json") for path in paths]


def _iso(value: object) -> str:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


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
    p.add_argument("--body", default="yaml,json", help="kinds of body to send: yaml, json or both (default)")
    p.add_argument("--http", default="auto", help="serve --http values to compare, e.g. h11,httptools "
                                                   "(default auto: httptools when installed)")
    p.add_argument("--clients", type=int, default=8, help="concurrent connections (default 8, at most 16)")
    p.add_argument("--requests", type=int, default=3000, help="requests per round and server (default 3000)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument("--seconds", type=float, default=30, help="longest a round may drive one server (default 30)")
    a = p.parse_args(argv)
    workers = [int(w) for w in a.workers.split(",") if w.strip().isdigit()]
    bodies = [b for b in a.body.split(",") if b]
    https = [h for h in a.http.split(",") if h]
    if not 1 <= a.clients <= 16 or not workers or not all(1 <= w <= 8 for w in workers) \
            or not 1 <= a.requests <= 100_000 or not 1 <= a.rounds <= 20 or not 0 < a.seconds <= 120 \
            or not bodies or not set(bodies) <= {"yaml", "json"} or not https \
            or not set(https) <= {"auto", "httptools", "h11"}:
        p.error("out of range: --clients 1..16, --workers 1..8 each, --requests ≤ 100000, --rounds ≤ 20, "
                "--seconds ≤ 120, --body yaml and/or json, --http auto, httptools and/or h11")
    requests = {kind: corpus(kind) for kind in bodies}
    print(f"bench/web.py: POST /api/rule, {len(requests[bodies[0]])} corpus cases as {' and '.join(bodies)}, "
          f"{a.clients} connections, {a.requests} requests per round, {a.rounds} rounds, {os.cpu_count()} cores; "
          f"load average at start {os.getloadavg()[0]:.2f}")
    servers = []

    def label(s: Server, kind: str) -> str:
        return f"workers {s.workers}" + (f" {s.http:9}" if len(https) > 1 else "") + f" {kind:4}"
    try:
        for w, http in itertools.product(workers, https):
            servers.append(Server(w, http))
            wait_ready(servers[-1].port)
        sides = list(itertools.product(servers, bodies))
        results: dict[str, list[dict]] = {label(s, k): [] for s, k in sides}
        for r in range(1, a.rounds + 1):
            for s, kind in (sides if r % 2 else sides[::-1]):
                cpu = cpu_seconds(s.proc.pid)
                res = asyncio.run(drive(s.port, requests[kind], a.clients, a.requests, a.seconds))
                res["cpu_ms"] = (cpu_seconds(s.proc.pid) - cpu) * 1000 / max(res["n"], 1)
                results[label(s, kind)].append(res)
                bad = f", {len(res['failures'])} not 200: {sorted(set(res['failures']))}" if res["failures"] else ""
                print(f"round {r}  {label(s, kind)}: {res['rate']:7.0f} requests/s  p50 {res['p50']:6.1f} ms  "
                      f"p99 {res['p99']:6.1f} ms  server CPU {res['cpu_ms']:.2f} ms/request  ({res['n']} requests; "
                      f"load {res['load']:.2f}){bad}", flush=True)
        print("medians:")
        medians = {}
        for name, runs in results.items():
            medians[name] = statistics.median(x["rate"] for x in runs)
            print(f"  {name}: {medians[name]:7.0f} requests/s  p50 {statistics.median(x['p50'] for x in runs):6.1f} ms  "
                  f"p99 {statistics.median(x['p99'] for x in runs):6.1f} ms  "
                  f"server CPU {statistics.median(x['cpu_ms'] for x in runs):.2f} ms/request  "
                  f"(load {statistics.median(x['load'] for x in runs):.2f})")
        if len(workers) > 1:
            for s0, s1 in zip(servers, servers[len(https) * (len(workers) - 1):]):
                for kind in bodies:
                    print(f"  ratio {label(s1, kind).strip()} / {label(s0, kind).strip()}: "
                          f"{medians[label(s1, kind)] / medians[label(s0, kind)]:.2f}")
        verdicts = [f"{label(s, kind).strip()}: {'met' if medians[label(s, kind)] >= 1000 else 'NOT met'} "
                    f"({medians[label(s, kind)]:.0f}/s)" for s, kind in sides if s.workers == 2]
        print("target ≥ 1000 requests/s with 2 workers: " + ("; ".join(verdicts) or "not measured (no --workers 2)")
              + f"; load average at the end {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores, "
              "bench client included")
        failed = any(x["failures"] for res in results.values() for x in res)
        return 1 if failed else 0
    except KeyboardInterrupt:
        return 130
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    sys.exit(main())
