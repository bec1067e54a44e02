"""The Python package's cost, as ratios:

- session start: ``MarketStub.start()`` to the first 200 on ``GET /markets``, against the CLI's own cold
  start (``node dist/cli.cjs serve --port 0 --quiet`` spawned the same way, to its first 200; the bundled
  ``_bundled/cli.cjs`` when dist/ is missing) and against a bare ``http.server`` started in a thread.
  Goal: <= 1.5x the CLI's cold start.
- per-test cost of the ``market_stub`` fixture (``reset()`` + ``clear_requests()``, what it does before each
  test), against the same two requests (on one kept-alive connection, as the client sends them) to a
  bare ``http.server`` in a thread that does nothing.
  Goal: <= 2 ms per test.

Usage: npm run bench:python [-- --quick] (python3 bench/python-bench.py; the package is imported from
python/src when it is not installed: run npm run build:python first). Rounds are interleaved; medians are reported.
Exit 0 whatever the figures (a missed goal is a result), 1 when it cannot measure.
"""

from __future__ import annotations

import http.client
import http.server
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The package from this repository's python/src (its _bundled/ built by npm run build:python) when it
# is not installed.
sys.path.append(str(ROOT / "python" / "src"))

from market_stub import MarketStub, find_node  # noqa: E402
from market_stub._node import bundled_file  # noqa: E402

#: Session-start goal: MarketStub.start() to the first 200, as a multiple of the CLI's own cold start.
START_GOAL = 1.5
#: Per-test goal of the fixture's reset + journal clear, ms.
PER_TEST_GOAL_MS = 2.0


def first_200(url: str) -> None:
    with urllib.request.urlopen(f"{url}/markets", timeout=30) as response:
        response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {url}/markets answered {response.status}")


def cli_cold_start(cli: str) -> float:
    """Spawn ``node CLI serve --port 0 --quiet``, read its ready line, GET /markets: seconds."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [find_node(), cli, "serve", "--port", "0", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if "listening on " in line:
                url = line.split("listening on ", 1)[1].split()[0].rstrip('",')
                first_200(url)
                return time.perf_counter() - started
        raise RuntimeError("the CLI exited before its ready line")
    finally:
        child.terminate()
        child.wait(10)


def package_start() -> float:
    started = time.perf_counter()
    with MarketStub.start() as stub:
        first_200(stub.url)
        took = time.perf_counter() - started
    return took


class _Nothing(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _empty(self) -> None:
        self.send_response(204)
        self.send_header("content-length", "0")
        self.end_headers()

    do_GET = do_POST = do_DELETE = _empty  # noqa: N815


def bare_start() -> tuple[float, http.server.ThreadingHTTPServer]:
    started = time.perf_counter()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Nothing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/markets", timeout=10) as response:
        response.read()
    return time.perf_counter() - started, server


def bare_call(connection: http.client.HTTPConnection, path: str, method: str) -> None:
    """One request on a kept-alive connection, as the package's client sends them."""
    connection.request(method, path)
    connection.getresponse().read()


def per_test(rounds: int) -> tuple[list[float], list[float]]:
    """(stub reset + clear, bare server two requests) per iteration, ms."""
    stub_ms: list[float] = []
    bare_ms: list[float] = []
    _, server = bare_start()
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        with MarketStub.start() as stub:
            for _ in range(20):  # warm both paths
                stub.reset()
                stub.clear_requests()
                bare_call(connection, "/__stub/reset", "POST")
            for _ in range(rounds):
                t0 = time.perf_counter()
                stub.reset()
                stub.clear_requests()
                t1 = time.perf_counter()
                bare_call(connection, "/__stub/reset", "POST")
                bare_call(connection, "/__stub/requests", "DELETE")
                t2 = time.perf_counter()
                stub_ms.append((t1 - t0) * 1000)
                bare_ms.append((t2 - t1) * 1000)
    finally:
        connection.close()
        server.shutdown()
        server.server_close()
    return stub_ms, bare_ms


def main() -> int:
    quick = "--quick" in sys.argv
    dist_cli = ROOT / "dist" / "cli.cjs"
    cli = str(dist_cli) if dist_cli.exists() else bundled_file("_bundled/cli.cjs")
    rounds = 5 if quick else 11
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python-bench: {'quick' if quick else 'full'}, {rounds} interleaved start rounds, load {load:.2f}, CLI {os.path.relpath(cli, ROOT)}"
    )
    try:
        cli_s, pkg_s, bare_s = [], [], []
        for _ in range(rounds):
            cli_s.append(cli_cold_start(cli))
            pkg_s.append(package_start())
            took, server = bare_start()
            server.shutdown()
            server.server_close()
            bare_s.append(took)
        stub_ms, bare_ms = per_test(200 if quick else 1000)
    except Exception as error:  # any failure means no figure
        print(f"python-bench: cannot measure: {error}", file=sys.stderr)
        return 1
    cli_med, pkg_med, bare_med = (statistics.median(v) * 1000 for v in (cli_s, pkg_s, bare_s))
    start_ratio = pkg_med / cli_med
    print(
        f"session start: MarketStub.start() to first 200 {pkg_med:.0f} ms; CLI cold start {cli_med:.0f} ms; bare http.server {bare_med:.1f} ms"
    )
    print(
        f"  ratio to the CLI's cold start {start_ratio:.2f}x (goal <= {START_GOAL}x: {'met' if start_ratio <= START_GOAL else 'MISSED'}); to the bare server {pkg_med / bare_med:.0f}x"
    )
    stub_med, bare_med_call = statistics.median(stub_ms), statistics.median(bare_ms)
    p95 = statistics.quantiles(stub_ms, n=20)[18]
    print(
        f"per test: reset + clear_requests {stub_med:.2f} ms median, p95 {p95:.2f} ms; bare http.server, the same two requests {bare_med_call:.2f} ms"
    )
    print(
        f"  ratio to the bare server {stub_med / bare_med_call:.2f}x; goal <= {PER_TEST_GOAL_MS} ms: {'met' if stub_med <= PER_TEST_GOAL_MS else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
