"""Tests of prices.py against market-stub, sync and async (anyio's pytest plugin runs the async ones)."""

from __future__ import annotations

import httpx
import pytest

from prices import list_ids, price_of, prices_async


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.market_stub(seed=42, count=8)
def test_sync_reads_the_seeded_catalog(market_stub):
    with httpx.Client(base_url=market_stub.url) as client:
        ids = list_ids(client)
        assert ids == [m["market_id"] for m in market_stub.markets()]
        assert price_of(client, ids[0]) == market_stub.markets()[0]["yes_price"]
    assert market_stub.request_count() == 2


@pytest.mark.market_stub(seed=42, count=8)
def test_sync_sees_a_500_from_a_rule(market_stub):
    first = market_stub.markets()[0]["market_id"]
    market_stub.add_rule({"match": {"route": "item", "marketId": first}, "behaviour": {"status": 500}})
    with httpx.Client(base_url=market_stub.url) as client, pytest.raises(httpx.HTTPStatusError):
        price_of(client, first)


@pytest.mark.anyio
@pytest.mark.market_stub(seed=42, count=8)
async def test_async_fetches_every_price_concurrently(market_stub):
    catalog = market_stub.markets()
    prices = await prices_async(market_stub.url, [m["market_id"] for m in catalog])
    assert prices == {m["market_id"]: m["yes_price"] for m in catalog}
    assert market_stub.request_count(path_prefix="/markets/") == 8


@pytest.mark.anyio
@pytest.mark.market_stub(seed=42, count=8)
async def test_async_a_slow_market_times_out_alone(market_stub):
    catalog = market_stub.markets()
    slow = catalog[2]["market_id"]
    market_stub.add_rule({"match": {"route": "item", "marketId": slow}, "behaviour": {"delayMs": 1500}})
    prices = await prices_async(market_stub.url, [m["market_id"] for m in catalog], timeout=0.5)
    assert prices[slow] is None
    assert sum(p is not None for p in prices.values()) == 7
