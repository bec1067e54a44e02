"""The contract of the handle (test/support/market-stub-client-contract.ts), ported: every operation of
MarketStubClient against a real ``market-stub serve`` process, through both ways Python reaches one:
the started MarketStub itself, and ``connect(url, admin_token)``.

The TypeScript suite compares each error with an in-process reference stub; here the same fields are
asserted directly (code, where, option, market_id, findings), since Python has no in-process stub.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CONTRACT_CLOCK, CONTRACT_COUNT, CONTRACT_SEED, CONTRACT_TOKEN, get

from market_stub import MarketStub, MarketStubClient, MarketStubError, connect


def market(market_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "market_id": market_id,
        "title": f"Will {market_id} happen?",
        "status": "active",
        "yes_price": 0.3,
        "no_price": 0.7,
        "resolution_date": "2027-05-01",
        **extra,
    }


@pytest.fixture(scope="module")
def served() -> Iterator[MarketStub]:
    with MarketStub.start(seed=CONTRACT_SEED, count=CONTRACT_COUNT, clock=CONTRACT_CLOCK, admin_token=CONTRACT_TOKEN) as stub:
        yield stub


@pytest.fixture(scope="module")
def start_catalog(served: MarketStub) -> list[dict[str, Any]]:
    served.reset()
    return [dict(m) for m in served.markets()]


@pytest.fixture(params=["started", "connect"])
def client(request: pytest.FixtureRequest, served: MarketStub) -> MarketStubClient:
    """The same stub through the started handle and through connect(); reset and journal emptied first."""
    chosen: MarketStubClient = served if request.param == "started" else connect(served.url, admin_token=CONTRACT_TOKEN)
    chosen.reset()
    chosen.clear_requests()
    return chosen


def error_of(call: Any, *args: Any) -> MarketStubError:
    with pytest.raises(MarketStubError) as info:
        call(*args)
    return info.value


def test_markets_is_the_start_up_catalog(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    catalog = client.markets()
    assert len(catalog) == CONTRACT_COUNT
    assert catalog == start_catalog
    status, body = get(f"{client.url}/markets")
    assert status == 200
    assert [m["market_id"] for m in json.loads(body)] == [m["market_id"] for m in catalog]
    first = catalog[0]["market_id"]
    assert client.market(first) == catalog[0]
    missing = error_of(client.market, "no-such-market")
    assert (missing.code, missing.where, missing.market_id) == ("MARKET_NOT_FOUND", "stub.market", "no-such-market")


def test_set_markets_replaces_and_refuses_invalid_markets_with_findings(client: MarketStubClient) -> None:
    client.set_markets([market("a"), market("b")])
    assert [m["market_id"] for m in client.markets()] == ["a", "b"]
    assert json.loads(get(f"{client.url}/markets/b")[1]) == market("b")
    error = error_of(client.set_markets, [market("c", yes_price="0.3"), market("d")])
    assert (error.code, error.where) == ("MARKETS_INVALID", "stub.set_markets")
    assert [(f["pointer"], f["found"]) for f in error.findings] == [("/0/yes_price", '"0.3"')]
    assert error.more == 0
    assert [m["market_id"] for m in client.markets()] == ["a", "b"]
    many = error_of(client.set_markets, [market(f"bad-{k}", yes_price="x") for k in range(150)])
    assert (many.code, len(many.findings), many.more) == ("MARKETS_INVALID", 100, 50)
    assert [m["market_id"] for m in client.markets()] == ["a", "b"]
    assert error_of(client.set_markets, "nope").code == "OPTION_INVALID"


def test_put_market_creates_then_replaces(client: MarketStubClient) -> None:
    assert client.put_market(market("new-1")) == "created"
    assert client.put_market(market("new-1", title="Will it, now?")) == "replaced"
    assert json.loads(get(f"{client.url}/markets/new-1")[1])["title"] == "Will it, now?"
    with_slash = "KX/odd id?"
    assert client.put_market(market(with_slash)) == "created"
    assert any(m["market_id"] == with_slash for m in client.markets())
    no_id = error_of(
        client.put_market, {"title": "no id", "status": "active", "yes_price": 0.5, "no_price": 0.5, "resolution_date": "2027-01-01"}
    )
    assert no_id.code == "MARKETS_INVALID"
    assert len(no_id.findings) > 0


def test_patch_market_merges_and_names_unknown_ids(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    market_id = start_catalog[0]["market_id"]
    patched = client.patch_market(market_id, {"title": "Patched?", "category": "extra"})
    assert (patched["market_id"], patched["title"], patched.get("category")) == (market_id, "Patched?", "extra")
    assert json.loads(get(f"{client.url}/markets/{market_id}")[1]) == patched
    assert "category" not in client.patch_market(market_id, {"category": None})
    unknown = error_of(client.patch_market, "no-such-market", {"title": "x"})
    assert (unknown.code, unknown.market_id, unknown.where) == ("MARKET_NOT_FOUND", "no-such-market", "stub.patch_market")
    assert error_of(client.patch_market, market_id, {"resolution_date": "2026-02-30"}).code == "MARKETS_INVALID"
    assert error_of(client.patch_market, market_id, [1]).code == "OPTION_INVALID"


def test_remove_market_removes_and_refuses_unknown_and_empty_ids(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    market_id = start_catalog[1]["market_id"]
    client.remove_market(market_id)
    assert get(f"{client.url}/markets/{market_id}")[0] == 404
    unknown = error_of(client.remove_market, "no-such-market")
    assert (unknown.code, unknown.market_id) == ("MARKET_NOT_FOUND", "no-such-market")
    empty = error_of(client.remove_market, "")
    assert (empty.code, empty.option) == ("OPTION_INVALID", "marketId")


def test_set_deviations_serves_them_and_refuses_bad_settings(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    market_id = start_catalog[3]["market_id"]
    client.set_deviations(
        [{"name": "listed-but-404", "marketIds": [market_id]}, {"name": "non-active-status", "rate": 0.5}, {"name": "list-bom"}]
    )
    assert get(f"{client.url}/markets/{market_id}")[0] == 404
    assert get(f"{client.url}/markets")[1][:3] == b"\xef\xbb\xbf"
    assert sorted(a["name"] for a in client.deviations()["active"]) == ["list-bom", "listed-but-404", "non-active-status"]
    client.set_deviations([])
    assert get(f"{client.url}/markets/{market_id}")[0] == 200
    typo = error_of(client.set_deviations, [{"name": "strng-price"}])
    assert (typo.code, typo.option) == ("OPTION_INVALID", "deviations[0].name")
    unknown = error_of(client.set_deviations, [{"name": "item-bom", "marketIds": ["no-such-market"]}])
    assert (unknown.code, unknown.market_id) == ("MARKET_NOT_FOUND", "no-such-market")


def test_tick_counts_and_moves_prices(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    assert client.tick() == 1
    assert client.tick(3) == 4
    assert client.markets() != start_catalog
    zero = error_of(client.tick, 0)
    assert (zero.code, zero.option, zero.found) == ("OPTION_INVALID", "n", "0")
    assert error_of(client.tick, 1.5).option == "n"


def test_clock_reads_moves_forward_and_refuses_bad_changes(client: MarketStubClient) -> None:
    start = f"{CONTRACT_CLOCK}T00:00:00Z"
    assert client.clock() == {"instant": start, "rate": 0, "start": start, "lifecycle": "off"}
    assert client.set_clock(advance="PT6H")["instant"] == f"{CONTRACT_CLOCK}T06:00:00Z"
    with urllib.request.urlopen(f"{client.url}/markets", timeout=10) as response:
        assert response.headers["date"] == "Thu, 01 Jan 2026 06:00:00 GMT"
    assert client.requests()[-1]["stubTime"] == f"{CONTRACT_CLOCK}T06:00:00Z"
    backwards = error_of(lambda: client.set_clock(to=CONTRACT_CLOCK))
    assert (backwards.code, backwards.option, backwards.where) == ("OPTION_INVALID", "to", "stub.set_clock")
    assert error_of(lambda: client.set_clock(advance="-PT1H")).option == "advance"
    assert error_of(lambda: client.set_clock(advance="P1D", rate=-1)).option == "rate"
    assert client.clock()["instant"] == f"{CONTRACT_CLOCK}T06:00:00Z"
    client.reset()
    assert client.clock()["instant"] == start


def test_reset_restores_the_start_up_state_and_keeps_the_journal(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    client.set_markets([market("only")])
    client.set_behaviour({"status": 503})
    client.tick(2)
    get(f"{client.url}/markets")
    client.reset()
    assert client.markets() == start_catalog
    assert get(f"{client.url}/markets")[0] == 200
    assert client.tick() == 1
    assert client.request_count(path="/markets") == 2


def test_set_behaviour_applies_to_every_market_request(client: MarketStubClient) -> None:
    client.set_behaviour({"status": 503, "retryAfter": 7})
    assert get(f"{client.url}/markets")[0] == 503
    assert client.behaviours()["global"] == {"status": 503, "retryAfter": 7}
    error = error_of(client.set_behaviour, {"delayMs": -1})
    assert (error.code, error.option, error.found) == ("OPTION_INVALID", "behaviour.delayMs", "-1")


def test_add_rule_and_remove_rule(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    market_id = start_catalog[3]["market_id"]
    rule = client.add_rule({"id": "r-item", "match": {"route": "item", "marketId": market_id}, "behaviour": {"status": 500}, "times": 1})
    assert (rule["id"], rule["match"], rule["behaviour"]) == ("r-item", {"route": "item", "marketId": market_id}, {"status": 500})
    assert get(f"{client.url}/markets/{market_id}")[0] == 500
    assert get(f"{client.url}/markets/{market_id}")[0] == 200
    client.add_rule({"id": "r-list", "match": {"route": "list"}, "behaviour": {"status": 429}})
    assert get(f"{client.url}/markets")[0] == 429
    client.remove_rule("r-list")
    assert get(f"{client.url}/markets")[0] == 200
    assert error_of(client.remove_rule, "r-list").code == "RULE_NOT_FOUND"
    assert error_of(client.remove_rule, "").code == "RULE_NOT_FOUND"
    assert error_of(client.add_rule, {"match": {"route": "sideways"}, "behaviour": {}}).code == "OPTION_INVALID"


def test_requests_request_count_and_clear_requests(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    market_id = start_catalog[4]["market_id"]
    get(f"{client.url}/markets")
    get(f"{client.url}/markets/{market_id}?x=1")
    get(f"{client.url}/markets/no-such-market")
    entries = client.requests()
    assert [(e["method"], e["path"], e["status"]) for e in entries] == [
        ("GET", "/markets", 200),
        ("GET", f"/markets/{market_id}", 200),
        ("GET", "/markets/no-such-market", 404),
    ]
    assert entries[1]["query"] == {"x": "1"}
    assert client.request_count(path_prefix="/markets/") == 2
    assert client.request_count(status=404) == 1
    assert [e["path"] for e in client.requests(limit=1)] == ["/markets/no-such-market"]
    bad = error_of(lambda: client.requests(limit=-1))
    assert (bad.code, bad.option) == ("OPTION_INVALID", "filter.limit")
    client.clear_requests()
    assert client.request_count() == 0


def test_trace_context_filters_and_the_har_export(client: MarketStubClient, start_catalog: list[dict[str, Any]]) -> None:
    traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    market_id = start_catalog[2]["market_id"]
    for headers in ({"traceparent": traceparent, "Prefer": "explain"}, {"X-Request-Id": "req-9"}, {}):
        request = urllib.request.Request(f"{client.url}/markets/{market_id}", headers=headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
    [traced] = client.requests(trace_id=traceparent)
    assert traced["trace"] == {"traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "parentId": "00f067aa0ba902b7", "sampled": True}
    assert traced["explain"]["profile"]["paging"] == "none"
    assert [e["seq"] for e in client.requests(request_id="req-9")] == [2]
    assert client.request_count(trace_id="4bf92f3577b34da6a3ce929d0e0e4736") == 1
    har = client.har(trace_id=traceparent)
    [entry] = har["log"]["entries"]
    assert har["log"]["version"] == "1.2"
    assert entry["request"]["url"].endswith(f"/markets/{market_id}")
    assert entry["response"]["status"] == 200
    assert json.loads(entry["response"]["content"]["text"])["market_id"] == market_id
    assert entry["_marketStubExplain"] == traced["explain"]
    assert len(client.har()["log"]["entries"]) == 3
    bad = error_of(lambda: client.har(trace_id="not-a-trace"))
    assert (bad.code, bad.option) == ("OPTION_INVALID", "filter.traceId")


def test_admin_calls_never_enter_the_journal(client: MarketStubClient) -> None:
    client.markets()
    client.tick()
    assert client.requests() == []


def test_a_value_json_cannot_carry_is_refused_before_sending(client: MarketStubClient) -> None:
    error = error_of(client.set_markets, [market("a", yes_price=float("nan"))])
    assert (error.code, error.option) == ("OPTION_INVALID", "markets")
