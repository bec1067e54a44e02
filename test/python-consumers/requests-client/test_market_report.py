"""Tests of market_report.py against market-stub: the plugin's `market_stub` fixture is the service."""

from __future__ import annotations

import pytest

from market_report import ServiceUnavailable, market_title, top_markets

MARKET = {"market_id": "KX-RAIN", "title": "Will it rain?", "status": "active", "yes_price": 0.91, "no_price": 0.09, "resolution_date": "2027-01-01"}


def test_top_markets_orders_by_yes_price(market_stub):
    top = top_markets(market_stub.url, n=3)
    prices = [price for _, price in top]
    assert len(top) == 3
    assert prices == sorted(prices, reverse=True)
    assert market_stub.request_count(path="/markets") == 1


def test_a_market_added_for_this_test_comes_first(market_stub):
    market_stub.put_market({**MARKET, "yes_price": 0.999, "no_price": 0.001})
    assert top_markets(market_stub.url, n=1) == [("KX-RAIN", 0.999)]


def test_a_429_is_retried_once_after_retry_after(market_stub):
    market_stub.add_rule({"match": {"route": "list"}, "behaviour": {"status": 429, "retryAfter": 0}, "times": 1})
    assert len(top_markets(market_stub.url)) == 3
    assert [e["status"] for e in market_stub.requests(path="/markets")] == [429, 200]


def test_two_503s_give_up(market_stub):
    market_stub.set_behaviour({"status": 503, "retryAfter": 0})
    with pytest.raises(ServiceUnavailable, match="503"):
        top_markets(market_stub.url)
    assert market_stub.request_count(status=503) == 2


def test_an_unknown_market_has_no_title(market_stub):
    market_stub.put_market(MARKET)
    assert market_title(market_stub.url, "KX-RAIN") == "Will it rain?"
    assert market_title(market_stub.url, "NO-SUCH") is None
    assert market_stub.requests()[-1]["status"] == 404


def test_a_string_price_breaks_the_report(market_stub):
    # Contract drift on demand: the deviation serves yes_price as a string ("0.57").
    market_stub.set_deviations([{"name": "string-price"}])
    with pytest.raises(TypeError):
        top_markets(market_stub.url)
