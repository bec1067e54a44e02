"""Runs the scripts docs/python.md shows (quickstart.py, connect_example.py) as a user would."""

import os
import subprocess
import sys
from pathlib import Path

from market_stub import MarketStub

HERE = Path(__file__).parent


def run(script, **env):
    return subprocess.run([sys.executable, str(HERE / script)], capture_output=True, text=True, timeout=60, env={**os.environ, **env}, check=True).stdout


def test_quickstart():
    out = run("quickstart.py")
    assert "20 markets at http://127.0.0.1:" in out
    assert "1 list request(s) in the journal" in out


def test_connect_example():
    with MarketStub.start(count=2, admin_token="docs-token") as stub:
        assert run("connect_example.py", MARKET_STUB_URL=stub.url, MARKET_STUB_ADMIN_TOKEN="docs-token").strip() == "[]"
        assert stub.deviations()["active"] == []
