import pytest
import requests

# A generated catalog whose markets open, close and resolve as the stub clock moves (docs/lifecycle.md).
live = pytest.mark.market_stub(seed=7, count=50, clock="2026-01-01", lifecycle="generic")


def market(stub, market_id):
    response = requests.get(f"{stub.url}/markets/{market_id}", timeout=5)
    response.raise_for_status()
    return response.json()


def on_its_last_day(stub):
    """The listed active market that resolves first, the clock at 00:00 UTC of its resolution date."""
    listed = requests.get(f"{stub.url}/markets", timeout=5).json()
    active = {m["market_id"] for m in listed if m["status"] == "active"}
    # The list carries no resolution_date: the catalog (every market as stored) has it.
    soonest = min((m for m in stub.markets() if m["market_id"] in active), key=lambda m: m["resolution_date"])
    stub.set_clock(to=soonest["resolution_date"])
    return soonest["market_id"]


@live
def test_advance_a_day_and_see_the_market_close(market_stub):
    # The fixture resets the stub before each test: the clock is back at its start.
    market_id = on_its_last_day(market_stub)
    assert market(market_stub, market_id)["status"] == "active"
    market_stub.set_clock(advance="P1D")
    after = market(market_stub, market_id)
    assert after["status"] == "resolved"  # closed at a whole hour of that day, resolved an hour later
    assert sorted([after["yes_price"], after["no_price"]]) == [0, 1]


@live
def test_hour_by_hour_through_its_last_day(market_stub):
    market_id = on_its_last_day(market_stub)
    seen = [market(market_stub, market_id)["status"]]
    for _ in range(24):
        market_stub.set_clock(advance="PT1H")
        status = market(market_stub, market_id)["status"]
        if status != seen[-1]:
            seen.append(status)
    assert seen == ["active", "closed", "resolved"]
    assert market_stub.clock()["lifecycle"] == "generic"
