"""Tests of the pandas data step against market-stub."""

from __future__ import annotations

import pandas as pd
import pytest

from step import load_markets, summary


@pytest.fixture(scope="session")
def market_stub_options():
    return {"seed": 3, "count": 50, "clock": "2026-01-01"}


def test_the_list_becomes_a_frame_with_the_catalog(market_stub):
    frame = load_markets(market_stub.url)
    assert len(frame) == 50
    assert list(frame.index) == [m["market_id"] for m in market_stub.markets()]
    assert frame["yes_price"].between(0, 1).all()


def test_the_summary_counts_every_market(market_stub):
    table = summary(load_markets(market_stub.url))
    assert int(table["markets"].sum()) == 50
    assert set(table.columns) == {"markets", "mean_yes", "mean_overround"}


def test_the_same_seed_gives_the_same_frame(market_stub):
    first = load_markets(market_stub.url)
    market_stub.tick(0 + 1)
    market_stub.reset()
    pd.testing.assert_frame_equal(first, load_markets(market_stub.url))


def test_string_prices_are_caught_by_the_step(market_stub):
    market_stub.set_deviations([{"name": "string-price"}])
    with pytest.raises(TypeError, match="yes_price"):
        load_markets(market_stub.url)
