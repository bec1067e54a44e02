"""The pytest plugin, run as users run it (pytester: a fresh pytest in a subprocess per case): the
``market_stub`` fixture's reset between tests, options from a fixture override and from the marker,
the journal in a failed test's report, ``-n 2`` without cross-talk, ``--market-stub-url``, and no
stub left behind after ``pytest -x`` or a killed xdist worker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import alive, wait_gone

from market_stub import MarketStub

#: How long a stub may take to stop after its pytest process is gone, seconds.
STOP_WITHIN = 3.0


def test_each_test_gets_the_start_up_catalog_and_an_empty_journal(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import urllib.request

        def test_changes_everything(market_stub):
            market_stub.set_markets([{"market_id": "only", "title": "t", "status": "active", "yes_price": 0.5, "no_price": 0.5, "resolution_date": "2027-01-01"}])
            urllib.request.urlopen(market_stub.url + "/markets/only").read()
            market_stub.set_behaviour({"status": 503})
            market_stub.tick(3)

        def test_sees_none_of_it(market_stub):
            assert len(market_stub.markets()) == 100
            assert market_stub.requests() == []
            assert market_stub.tick() == 1
            assert urllib.request.urlopen(market_stub.url + "/markets").status == 200
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_options_from_a_fixture_override_and_from_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture(scope="session")
        def market_stub_options():
            return {"seed": 11, "count": 3, "clock": "2026-01-01"}
        """
    )
    pytester.makepyfile(
        """
        import pytest
        urls = {}

        def test_the_override(market_stub):
            assert len(market_stub.markets()) == 3
            urls["default"] = market_stub.url

        @pytest.mark.market_stub(count=5)
        def test_the_marker_over_the_override(market_stub):
            assert len(market_stub.markets()) == 5
            assert market_stub.url != urls["default"]
            urls["five"] = market_stub.url

        @pytest.mark.market_stub(count=5)
        def test_the_same_options_share_a_server(market_stub):
            assert market_stub.url == urls["five"]

        def test_the_session_server_is_the_default_one(market_stub_server, market_stub):
            assert market_stub_server.url == market_stub.url == urls["default"]

        @pytest.mark.market_stub(cuont=5)
        def test_an_unknown_option_is_a_usage_error(market_stub):
            pass
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(["*cuont*"])


def test_a_failed_test_shows_its_journal(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import urllib.request, urllib.error

        def test_passes_first(market_stub):
            urllib.request.urlopen(market_stub.url + "/markets?from=the-first-test").read()

        def test_fails(market_stub):
            market_stub.add_rule({"match": {"route": "item"}, "behaviour": {"status": 503}})
            urllib.request.urlopen(market_stub.url + "/markets?status=active&limit=2").read()
            try:
                urllib.request.urlopen(market_stub.url + "/markets/NOPE-1")
            except urllib.error.HTTPError:
                pass
            assert False, "the code under test got a 503"
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*- market-stub journal -*",
            "2 request(s) reached http://127.0.0.1:* in this test:",
            "  #1 GET /markets?status=active&limit=2 -> 200 in * ms",
            "  #2 GET /markets/NOPE-1 -> 503 in * ms  [[]status=503 (rule r1)[]]",
        ]
    )
    assert "from=the-first-test" not in result.stdout.str()


def test_two_xdist_workers_each_have_their_own_stub_and_no_cross_talk(pytester: pytest.Pytester, tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    pytester.makepyfile(
        f"""
        import json, os, time, urllib.request
        import pytest

        @pytest.mark.parametrize("n", range(8))
        def test_owns_the_catalog(market_stub, n):
            mine = f"M-{{n}}"
            market_stub.set_markets([{{"market_id": mine, "title": "t", "status": "active", "yes_price": 0.5, "no_price": 0.5, "resolution_date": "2027-01-01"}}])
            for _ in range(5):
                urllib.request.urlopen(market_stub.url + "/markets/" + mine).read()
                time.sleep(0.01)
                assert [m["market_id"] for m in market_stub.markets()] == [mine]
            assert [e["path"] for e in market_stub.requests()] == ["/markets/" + mine] * 5
            with open({str(record)!r}, "a") as f:
                f.write(json.dumps({{"worker": os.environ.get("PYTEST_XDIST_WORKER"), "url": market_stub.url, "first": market_stub.markets()[0]["market_id"]}}) + "\\n")
        """
    )
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:randomly")
    result.assert_outcomes(passed=8)
    rows = [json.loads(line) for line in record.read_text().splitlines()]
    workers = {row["worker"] for row in rows}
    assert workers == {"gw0", "gw1"}
    urls = {worker: {row["url"] for row in rows if row["worker"] == worker} for worker in workers}
    assert all(len(u) == 1 for u in urls.values())
    assert urls["gw0"] != urls["gw1"]


def test_market_stub_url_uses_a_running_stub_and_skips_other_options(pytester: pytest.Pytester) -> None:
    with MarketStub.start(count=4, admin_token="ext-token") as external:
        pytester.makepyfile(
            f"""
            import pytest

            def test_uses_it(market_stub):
                assert market_stub.url == {external.url!r}
                assert len(market_stub.markets()) == 4

            @pytest.mark.market_stub(count=9)
            def test_other_options(market_stub):
                pass
            """
        )
        result = pytester.runpytest_subprocess("--market-stub-url", external.url, "--market-stub-admin-token", "ext-token", "-rs")
        result.assert_outcomes(passed=1, skipped=1)
        result.stdout.fnmatch_lines(["*cannot be applied to the stub at --market-stub-url*"])
        pytester.makepyfile(test_env=f"def test_env(market_stub):\n    assert market_stub.url == {external.url!r}\n")
        with pytest.MonkeyPatch.context() as env:
            env.setenv("MARKET_STUB_URL", external.url)
            env.setenv("MARKET_STUB_ADMIN_TOKEN", "ext-token")
            pytester.runpytest_subprocess("test_env.py").assert_outcomes(passed=1)


def test_pytest_x_leaves_no_stub_behind(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.market_stub(count=2)
        def test_a(market_stub):
            open({str(pids)!r}, "a").write(f"{{market_stub.pid}}\\n")

        def test_b(market_stub):
            open({str(pids)!r}, "a").write(f"{{market_stub.pid}}\\n")
            assert False

        def test_never_runs(market_stub):
            pass
        """
    )
    result = pytester.runpytest_subprocess("-x", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    recorded = [int(line) for line in pids.read_text().split()]
    assert len(set(recorded)) == 2
    for pid in recorded:
        assert not alive(pid)


def test_a_killed_xdist_worker_leaves_no_stub_behind(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pytester.makepyfile(
        f"""
        import os, signal

        def test_killed(market_stub):
            open({str(pids)!r}, "a").write(f"{{market_stub.pid}}\\n")
            os.kill(os.getpid(), signal.SIGKILL)

        def test_other(market_stub):
            assert market_stub.markets()
        """
    )
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:randomly")
    assert "crashed" in result.stdout.str() or "worker" in result.stdout.str()
    stub = int(pids.read_text().split()[0])
    assert wait_gone(stub, STOP_WITHIN) < STOP_WITHIN


def test_a_stub_that_cannot_start_fails_its_tests_with_the_reason_once(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.makepyfile(
        """
        def test_one(market_stub):
            pass

        def test_two(market_stub):
            pass

        def test_without_the_stub():
            pass
        """
    )
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MARKET_STUB_NODE", str(tmp_path / "no-node"))
        result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1, errors=2)
    assert result.stdout.str().count("MARKET_STUB_NODE=") >= 2
    result.stdout.fnmatch_lines(["*NODE_NOT_FOUND*"])
