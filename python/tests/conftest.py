"""Shared helpers of the package's own tests (the pytest plugin itself is loaded by its entry point)."""

from __future__ import annotations

import os
import time
import urllib.request

#: The catalog the contract suite's stub is started with (test/support/market-stub-client-contract.ts: CONTRACT_STUB).
CONTRACT_SEED, CONTRACT_COUNT, CONTRACT_CLOCK = 5, 12, "2026-01-01"
#: The admin token the contract suite's stub is started with (CONTRACT_TOKEN there).
CONTRACT_TOKEN = "contract-token-5f1c"


def alive(pid: int) -> bool:
    """Whether a process with this pid exists and is not a zombie (a zombie has stopped; its parent has not reaped it yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def wait_gone(pid: int, seconds: float) -> float:
    """Waits until the process has ended; returns how long it took. Fails the test after ``seconds``."""
    start = time.monotonic()
    while alive(pid):
        if time.monotonic() - start > seconds:
            raise AssertionError(f"process {pid} still running after {seconds} s")
        time.sleep(0.05)
    return time.monotonic() - start


def get(url: str) -> tuple[int, bytes]:
    """GET ``url``: (status, body); 4xx and 5xx are answers, not errors."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()
