"""MarketStub.start: options reach `serve`, bad ones are refused in its words, Node is found as a user
expects, and no stub process outlives its use (with-block exceptions, KeyboardInterrupt, interpreter
exit, SIGKILL of the Python process)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import typing
from pathlib import Path

import pytest
from conftest import alive, get, wait_gone

from market_stub import Lifecycle, MarketStub, MarketStubError, find_node

#: How long a stub may take to stop after its Python parent is gone, seconds (the launcher checks every 0.25 s).
STOP_WITHIN = 3.0


def test_start_serves_the_seeded_catalog_on_a_free_port() -> None:
    with MarketStub.start(seed=3, count=4, clock="2026-01-01") as stub:
        assert stub.url.startswith("http://127.0.0.1:")
        status, body = get(f"{stub.url}/markets")
        assert status == 200
        assert len(json.loads(body)) == 4
        assert alive(stub.pid)
        with MarketStub.start(seed=3, count=4, clock="2026-01-01") as twin:
            assert twin.url != stub.url
            assert twin.markets() == stub.markets()
    assert stub.closed
    assert not alive(stub.pid)


def test_options_reach_serve_profile_behaviour_deviations_and_rules(tmp_path: Path) -> None:
    with MarketStub.start(
        seed=1,
        count=5,
        profile={"envelope": "markets", "paging": "offset", "page_size": 2},
        behaviour={"retry_after": 9, "status": 429},
        deviations=[{"name": "list-bom"}],
        rules=[{"id": "slow-item", "match": {"route": "item"}, "behaviour": {"delayMs": 1}}],
        journal_size=10,
    ) as stub:
        status, body = get(f"{stub.url}/markets")
        assert status == 429
        assert stub.behaviours()["global"] == {"status": 429, "retryAfter": 9}
        assert [r["id"] for r in stub.behaviours()["rules"]] == ["slow-item"]
        assert [a["name"] for a in stub.deviations()["active"]] == ["list-bom"]
        stub.set_behaviour({})
        status, body = get(f"{stub.url}/markets")
        assert status == 200
        assert body[:3] == b"\xef\xbb\xbf"
        listed = json.loads(body[3:])
        assert len(listed["markets"]) == 2


def test_fixtures_are_served_and_a_relative_path_is_read_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    market = {
        "market_id": "FIX-1",
        "title": "Will it?",
        "status": "active",
        "yes_price": 0.4,
        "no_price": 0.6,
        "resolution_date": "2027-01-01",
    }
    (tmp_path / "markets.json").write_text(json.dumps([market]))
    monkeypatch.chdir(tmp_path)
    with MarketStub.start(fixtures="markets.json") as stub:
        assert stub.markets() == [market]


def test_lifecycle_reaches_serve_and_the_clock_reports_it() -> None:
    # docs/lifecycle.md's example market (seed 7, 50 markets): active at the start, determined the day
    # after its resolution date (kalshi); one that opens later is initialized and not listed.
    with MarketStub.start(seed=7, count=50, clock="2026-01-01", lifecycle="kalshi") as stub:
        assert stub.clock()["lifecycle"] == "kalshi"
        status, body = get(f"{stub.url}/markets/LMIK-72SEP56-5")
        assert (status, json.loads(body)["status"]) == (200, "initialized")
        status, body = get(f"{stub.url}/markets")
        assert "LMIK-72SEP56-5" not in {m["market_id"] for m in json.loads(body)}
        assert stub.set_clock(to="2026-07-22")["lifecycle"] == "kalshi"
        status, body = get(f"{stub.url}/markets/HVVQ-42JAN23-1")
        assert json.loads(body)["status"] == "determined"
    with MarketStub.start(seed=7, count=50, clock="2026-01-01", lifecycle="generic") as generic:
        status, _ = get(f"{generic.url}/markets/LMIK-72SEP56-5")
        assert status == 404  # generic: a market that has not opened does not exist yet
    with (
        MarketStub.start(seed=7, count=50, clock="2026-01-01", lifecycle="off") as off,
        MarketStub.start(seed=7, count=50, clock="2026-01-01") as default,
    ):
        assert off.clock()["lifecycle"] == default.clock()["lifecycle"] == "off"
        assert get(f"{off.url}/markets")[1] == get(f"{default.url}/markets")[1]
        assert {m["status"] for m in off.markets()} == {"active"}


def test_the_lifecycle_values_are_the_clis() -> None:
    # The mirror stays in step with the serve option: every value the type allows starts a stub, and the
    # CLI's refusal of another value lists exactly these (src/runtime/runtime-options.ts, `lifecycle`).
    assert typing.get_args(Lifecycle) == ("off", "generic", "kalshi")
    with pytest.raises(MarketStubError) as info:
        MarketStub.start(count=1, lifecycle="weekly")  # type: ignore[arg-type]
    assert info.value.code == "OPTION_INVALID"
    assert "--lifecycle" in info.value.message
    assert "weekly" in info.value.message
    named = re.findall(r"\b(off|generic|kalshi)\b", info.value.message.split("expected", 1)[1].split("found", 1)[0])
    assert tuple(named) == typing.get_args(Lifecycle)


def test_bad_options_are_refused_in_the_cli_words_and_leave_nothing_running() -> None:
    with pytest.raises(MarketStubError) as info:
        MarketStub.start(clock="2026-13-01")
    assert info.value.code == "OPTION_INVALID"
    assert "--clock" in info.value.message
    assert "2026-13-01" in info.value.message
    with pytest.raises(MarketStubError) as unknown:
        MarketStub.start(behaviour={"delay_msec": 3})
    assert unknown.value.option == "behaviour.delay_msec"
    assert "delayMs" in unknown.value.message
    with pytest.raises(MarketStubError) as named:
        MarketStub.start(deviations=[{"name": "item-bom", "marketIds": ["A"]}])
    assert "set_deviations" in named.value.message


def test_bad_fixtures_name_the_file_and_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"market_id": "A"}]')
    with pytest.raises(MarketStubError) as info:
        MarketStub.start(fixtures=bad)
    assert info.value.code in ("OPTION_INVALID", "STUB_START_FAILED")
    assert str(bad) in info.value.message
    assert "/0/title" in info.value.message


def test_the_admin_token_guards_the_controls_and_never_reaches_the_command_line() -> None:
    token = "py-token-9c1e"
    with MarketStub.start(count=1, admin_token=token) as stub:
        assert stub.tick() == 1
        with open(f"/proc/{stub.pid}/cmdline", "rb") as file:
            assert token.encode() not in file.read()
        from market_stub import connect

        with pytest.raises(MarketStubError) as info:
            connect(stub.url).tick()
        assert info.value.code == "UNAUTHORIZED"
        assert "missing token" in info.value.message


def _raise_inside_with(error: BaseException) -> int:
    """Starts a stub, raises ``error`` inside its with-block; returns the stub's pid."""
    pids: list[int] = []
    try:
        with MarketStub.start(count=1) as stub:
            pids.append(stub.pid)
            assert alive(stub.pid)
            raise error
    except type(error):
        pass
    return pids[0]


def test_an_exception_in_the_with_block_stops_the_stub() -> None:
    assert not alive(_raise_inside_with(RuntimeError("the test failed")))


def test_keyboard_interrupt_in_the_with_block_stops_the_stub() -> None:
    assert not alive(_raise_inside_with(KeyboardInterrupt()))


def _python_child(code: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, text=True)


def test_interpreter_exit_without_close_stops_the_stub() -> None:
    child = _python_child(
        """
        from market_stub import MarketStub
        stub = MarketStub.start(count=1)
        print(stub.pid, flush=True)
        """
    )
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0
    assert wait_gone(int(out.split()[0]), STOP_WITHIN) < STOP_WITHIN


def test_sigkill_of_the_python_process_stops_the_stub_within_seconds() -> None:
    child = _python_child(
        """
        import time
        from market_stub import MarketStub
        stub = MarketStub.start(count=1)
        print(stub.pid, flush=True)
        time.sleep(120)
        """
    )
    assert child.stdout is not None
    pid = int(child.stdout.readline())
    assert alive(pid)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    took = wait_gone(pid, STOP_WITHIN)
    assert took < STOP_WITHIN


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_leaves_its_parents_stub_serving_and_holds_no_pipe_of_it() -> None:
    child = _python_child(
        """
        import os, sys, time, urllib.request
        from market_stub import MarketStub
        stub = MarketStub.start(count=1)
        print(stub.pid, flush=True)
        pid = os.fork()
        if pid == 0:
            stub.close()  # the parent's stub: nothing happens here
            sys.exit(0)  # a normal exit runs atexit, which must not stop it either
        os.waitpid(pid, 0)
        time.sleep(0.5)
        with urllib.request.urlopen(stub.url + "/healthz", timeout=10) as r:
            print(r.status, flush=True)
        holder = os.fork()
        if holder == 0:
            time.sleep(60)
            os._exit(0)
        print(holder, flush=True)
        stub._process.stdin.close()  # the parent lets go of the pipe; the sleeping child holds no copy
        time.sleep(60)
        """
    )
    assert child.stdout is not None
    pid = int(child.stdout.readline())
    try:
        assert child.stdout.readline().strip() == "200"
        holder = int(child.stdout.readline())
        try:
            assert wait_gone(pid, STOP_WITHIN) < STOP_WITHIN
        finally:
            os.kill(holder, signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=10)


def test_close_twice_is_harmless_and_the_process_group_is_gone() -> None:
    stub = MarketStub.start(count=1)
    pid = stub.pid
    stub.close()
    stub.close()
    assert not alive(pid)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


def test_start_timeout_stops_a_stub_that_never_gets_ready(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    slow = tmp_path / "slow-node"
    slow.write_text(f'#!/bin/sh\nif [ "$1" = "--version" ]; then exec {find_node()} --version; fi\nexec sleep 60\n')
    slow.chmod(0o755)
    monkeypatch.setenv("MARKET_STUB_NODE", str(slow))
    started = time.monotonic()
    with pytest.raises(MarketStubError) as info:
        MarketStub.start(count=1, start_timeout=0.5)
    assert info.value.code == "STUB_START_FAILED"
    assert "no ready record within 0.5 s" in info.value.message
    assert time.monotonic() - started < 10


def test_market_stub_node_is_used_first_and_a_wrong_one_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MARKET_STUB_NODE", find_node())
    assert find_node() == os.environ["MARKET_STUB_NODE"]
    monkeypatch.setenv("MARKET_STUB_NODE", str(tmp_path / "no-such-node"))
    with pytest.raises(MarketStubError) as missing:
        MarketStub.start(count=1)
    assert missing.value.code == "NODE_NOT_FOUND"
    assert "MARKET_STUB_NODE" in missing.value.message
    old = tmp_path / "old-node"
    old.write_text("#!/bin/sh\necho v18.20.0\n")
    old.chmod(0o755)
    monkeypatch.setenv("MARKET_STUB_NODE", str(old))
    with pytest.raises(MarketStubError) as too_old:
        find_node()
    assert "18.20.0, older than Node.js >= 20.19" in too_old.value.message


def test_no_node_on_path_says_what_to_install_or_to_set_market_stub_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MARKET_STUB_NODE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MarketStubError) as info:
        find_node()
    assert info.value.code == "NODE_NOT_FOUND"
    assert "Node.js >= 20.19" in info.value.message
    assert "MARKET_STUB_URL" in info.value.message
    assert "MARKET_STUB_NODE" in info.value.message


def test_market_stub_variables_of_the_parent_do_not_change_the_stub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARKET_STUB_COUNT", "7")
    monkeypatch.setenv("MARKET_STUB_STATUS", "500")
    with MarketStub.start(count=2) as stub:
        status, body = get(f"{stub.url}/markets")
        assert (status, len(json.loads(body))) == (200, 2)


def test_a_bad_token_or_timeout_is_refused_before_anything_starts() -> None:
    with pytest.raises(MarketStubError) as token:
        MarketStub.start(count=1, admin_token="two\nlines")
    assert (token.value.code, token.value.option) == ("OPTION_INVALID", "admin_token")
    assert "two\nlines" not in token.value.message
    with pytest.raises(MarketStubError) as timeout:
        MarketStub.start(count=1, timeout=0)
    assert timeout.value.option == "timeout"
