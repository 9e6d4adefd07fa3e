"""Benchmark: requests per second and latency of `POST /api/rule` on a real `bridgelaw serve`, beside
the HTTP floor of the same stack.

    python bench/web.py [--workers 2] [--body json,yaml] [--http auto] [--clients 16] [--requests 3000]
                        [--rounds 3] [--seconds 30] [--many 64]

Starts one `bridgelaw serve --workers N --http H` per value of --workers and --http on 127.0.0.1
(loopback only, a free port each) and, beside each, the HTTP floor (bench/httpfloor.py: a minimal
Starlette JSON app on the same uvicorn stack, parser, event loop and workers). In each round it
drives every server with every kind of body in turn (interleaved, so a change in the machine's
load falls on all of them alike) over --clients concurrent keep-alive connections (a small asyncio
HTTP/1.1 client in this process: no dependency):

  * distinct   what users send: cases never sent before — --requests A/B/C cases generated as a
               director's cases vary (bench/reference.py), new ones every round, as JSON objects
               (`application/json`, what a scoring program sends) or as YAML case files
               (`application/yaml`); the headline;
  * repeated   one corpus case (WBF commentary example 7) sent again and again, as JSON;
  * floor      the distinct JSON bodies to the HTTP floor.

A round stops after --requests or --seconds, whichever comes first. Then --many connections at once
(default 64, more than one address may hold open in one worker: the server's per-client cap)
send distinct JSON cases, and the answers that are not 200 are counted. The servers are stopped at
the end (Ctrl+C stops everything).

Prints for each round, server and body: requests/s, p50 and p99 latency, the CPU time per request
of the server (all its processes, from /proc) and of this client, the load average; then the
medians over the rounds, each body's rate as a share of the floor's (taken within each round), and
the targets (issue 23: 2 workers, distinct cases ≥ 1,500 requests/s and ≥ 0.25 of the floor; 64
connections without an error). The client runs on the same machine and takes CPU from the servers
(2 cores here: the client, the workers and anything else running share them); the load average
says how much else was running.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import generate  # noqa: E402


class Server:
    def __init__(self, workers: int, http: str, floor: bool = False, python: str | None = None) -> None:
        self.workers, self.http, self.floor = workers, http, floor
        self.before = python is not None
        if floor:
            with socket.socket() as probe:              # a free port (uvicorn's workers need it given)
                probe.bind((HOST, 0))
                port = probe.getsockname()[1]
            argv = [sys.executable, str(Path(__file__).with_name("httpfloor.py")), str(port), str(workers), http]
        else:
            argv = [python or sys.executable, "-m", "bridgelaw.web", "--host", HOST, "--port", "0",
                    "--workers", str(workers), "--http", http]
        self.proc = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
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


def distinct(kind: str, n: int, seed: int) -> list[bytes]:
    """`n` requests of generated cases never sent before (`seed` tells the rounds apart), as JSON
    objects or as YAML case files (JSON is YAML; the server reads them as YAML)."""
    return [request(json.dumps(case).encode(), kind) for case in generate(n, seed)]


def repeated() -> list[bytes]:
    from bridgelaw.core.yamlio import load_yaml
    tree = load_yaml(ROOT / "cases" / "wbf-commentary-2017" / "example-07.yaml").tree
    return [request(json.dumps(tree, default=str).encode(), "json")]


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
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            failures.append(0)                            # refused: no connection
            return
        try:
            while next_index < total and time.perf_counter() < deadline:
                data = requests[next_index % len(requests)]
                next_index += 1
                start = time.perf_counter()
                try:
                    status = await one(reader, writer, data)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    failures.append(0)                    # closed without an answer
                    return
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    failures.append(status)
                    if status == 503:                     # the server closes such a connection
                        return
        finally:
            writer.close()

    for _ in range(3):                                    # warm every worker before timing
        await asyncio.gather(*(asyncio.wait_for(_warm(port, requests[0]), 10) for _ in range(min(clients, 16))))
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(client() for _ in range(clients)), return_exceptions=True)
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"rate": len(latencies) / elapsed, "p50": _pct(latencies, 50), "p99": _pct(latencies, 99),
            "n": len(latencies), "failures": failures, "load": os.getloadavg()[0],
            "client_ms": (time.process_time() - cpu) * 1000 / max(len(latencies), 1)}


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
    p.add_argument("--workers", default="2", help="server processes to compare, e.g. 1,2 (default 2)")
    p.add_argument("--body", default="json,yaml", help="kinds of distinct body: json, yaml or both (default)")
    p.add_argument("--http", default="auto", help="serve --http values to compare, e.g. h11,httptools "
                                                   "(default auto: httptools when installed)")
    p.add_argument("--clients", type=int, default=16, help="concurrent connections (default 16, the per-client cap)")
    p.add_argument("--many", type=int, default=64, help="connections of the last run, errors counted (default 64; 0: none)")
    p.add_argument("--requests", type=int, default=3000, help="requests per round and server (default 3000)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument("--seconds", type=float, default=30, help="longest a round may drive one server (default 30)")
    p.add_argument("--before", metavar="PYTHON", help="also drive `PYTHON -m bridgelaw.web` (another checkout's "
                                                       "interpreter: the code before), interleaved, distinct JSON")
    a = p.parse_args(argv)
    workers = [int(w) for w in a.workers.split(",") if w.strip().isdigit()]
    bodies = [b for b in a.body.split(",") if b]
    https = [h for h in a.http.split(",") if h]
    if not 1 <= a.clients <= 256 or not 0 <= a.many <= 256 or not workers or not all(1 <= w <= 8 for w in workers) \
            or not 1 <= a.requests <= 100_000 or not 1 <= a.rounds <= 20 or not 0 < a.seconds <= 120 \
            or not bodies or not set(bodies) <= {"yaml", "json"} or not https \
            or not set(https) <= {"auto", "httptools", "h11"}:
        p.error("out of range: --clients 1..256, --many 0..256, --workers 1..8 each, --requests ≤ 100000, "
                "--rounds ≤ 20, --seconds ≤ 120, --body yaml and/or json, --http auto, httptools and/or h11")
    load_start, wall_start, cpu_start = os.getloadavg(), time.perf_counter(), time.process_time()
    print(f"bench/web.py: POST /api/rule, {a.requests} distinct generated cases a round as {' and '.join(bodies)} "
          f"(new ones every round), one case repeated, the HTTP floor; {a.clients} connections, {a.rounds} rounds, "
          f"{os.cpu_count()} cores; load average at start {load_start[0]:.2f}")
    servers: list[Server] = []
    kinds = [f"distinct {b}" for b in bodies] + ["repeated json"]

    def label(s: Server, kind: str) -> str:
        return f"workers {s.workers}" + (f" {s.http:9}" if len(https) > 1 else "") + (" before" if s.before else "") \
            + f" {kind}"
    try:
        pairs = []
        for w, http in itertools.product(workers, https):
            app, floor = Server(w, http), Server(w, http, floor=True)
            servers += [app, floor]
            wait_ready(app.port)
            wait_ready(floor.port)
            pairs.append((app, floor))
        sides = [(app, kind) for app, _ in pairs for kind in kinds] + [(floor, "floor") for _, floor in pairs]
        if a.before:
            for w, http in itertools.product(workers, https):
                servers.append(Server(w, http, python=a.before))
                wait_ready(servers[-1].port)
                sides.append((servers[-1], "distinct json"))
        results: dict[str, list[dict]] = {label(s, k): [] for s, k in sides}
        for r in range(1, a.rounds + 1):
            requests = {f"distinct {b}": distinct(b, a.requests, seed=1000 * r + i) for i, b in enumerate(bodies)}
            requests["repeated json"] = repeated()
            requests["floor"] = requests.get("distinct json") or distinct("json", a.requests, seed=1000 * r)
            for s, kind in (sides if r % 2 else sides[::-1]):
                cpu = cpu_seconds(s.proc.pid)
                res = asyncio.run(drive(s.port, requests[kind], a.clients, a.requests, a.seconds))
                res["cpu_ms"] = (cpu_seconds(s.proc.pid) - cpu) * 1000 / max(res["n"], 1)
                results[label(s, kind)].append(res)
                bad = f", {len(res['failures'])} not 200: {sorted(set(res['failures']))}" if res["failures"] else ""
                print(f"round {r}  {label(s, kind):28}: {res['rate']:7.0f} requests/s  p50 {res['p50']:6.1f} ms  "
                      f"p99 {res['p99']:6.1f} ms  CPU {res['cpu_ms']:.2f} ms server, {res['client_ms']:.2f} ms client "
                      f"a request  ({res['n']} requests; load {res['load']:.2f}){bad}", flush=True)
        print("medians:")
        medians = {}
        for name, runs in results.items():
            medians[name] = statistics.median(x["rate"] for x in runs)
            print(f"  {name:28}: {medians[name]:7.0f} requests/s  p50 {statistics.median(x['p50'] for x in runs):6.1f} ms  "
                  f"p99 {statistics.median(x['p99'] for x in runs):6.1f} ms  CPU "
                  f"{statistics.median(x['cpu_ms'] for x in runs):.2f} ms server, "
                  f"{statistics.median(x['client_ms'] for x in runs):.2f} ms client  "
                  f"(load {statistics.median(x['load'] for x in runs):.2f})")
        verdicts = []
        for app, floor in pairs:
            for kind in kinds:
                share = statistics.median(x["rate"] / y["rate"] for x, y in
                                          zip(results[label(app, kind)], results[label(floor, "floor")]))
                print(f"  {label(app, kind):28}: {share:.2f} of the floor (median of the rounds' ratios)")
                if app.workers == 2 and kind == "distinct json":
                    rate = medians[label(app, kind)]
                    verdicts += [f"distinct ≥ 1,500/s {'met' if rate >= 1500 else 'NOT met'} ({rate:.0f}/s)",
                                 f"≥ 0.25 of the floor {'met' if share >= 0.25 else 'NOT met'} ({share:.2f})"]
        for s_ in servers:
            if s_.before:
                app = next(x for x, _ in pairs if (x.workers, x.http) == (s_.workers, s_.http))
                ratio = statistics.median(x["rate"] / y["rate"] for x, y in
                                          zip(results[label(app, "distinct json")], results[label(s_, "distinct json")]))
                print(f"  {label(app, 'distinct json')} / the code before: ×{ratio:.2f} (median of the rounds' ratios)")
        many = []
        if a.many:
            for app, _ in pairs:
                res = asyncio.run(drive(app.port, distinct("json", a.requests, seed=99), a.many, a.requests, a.seconds))
                many.append(res)
                print(f"{a.many} connections, {label(app, 'distinct json')}: {res['rate']:.0f} requests/s, "
                      f"p99 {res['p99']:.1f} ms, {len(res['failures'])} not 200"
                      + (f" ({sorted(set(res['failures']))}; 0 = closed or refused)" if res["failures"] else ""))
            if any(app.workers == 2 for app, _ in pairs):
                errors = sum(len(r["failures"]) for r, (app, _) in zip(many, pairs) if app.workers == 2)
                verdicts.append(f"{a.many} connections without an error {'met' if errors == 0 else 'NOT met'} "
                                f"({errors} errors)")
        print(f"targets (2 workers): {'; '.join(verdicts) or 'not measured (no --workers 2)'}")
        print(f"load average {load_start[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end "
              f"({os.cpu_count()} cores, bench client included); the bench: "
              f"{time.perf_counter() - wall_start:.0f} s wall, {time.process_time() - cpu_start:.0f} s CPU in the client")
        failed = any(x["failures"] for res in results.values() for x in res)
        return 1 if failed else 0
    except KeyboardInterrupt:
        return 130
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    sys.exit(main())
