import pytest
import requests


def top_market(base_url):
    """The code under test: the active market with the highest yes price."""
    response = requests.get(f"{base_url}/markets", timeout=5)
    response.raise_for_status()
    active = [m for m in response.json() if m["status"] == "active"]
    return max(active, key=lambda m: m["yes_price"])["market_id"]


def test_top_market(market_stub):
    # Reset to the seeded catalog, journal empty: nothing leaks in from other tests.
    market_stub.put_market({
        "market_id": "KX-TOP", "title": "Will it top the list?", "status": "active",
        "yes_price": 0.999, "no_price": 0.001, "resolution_date": "2027-01-01",
    })
    assert top_market(market_stub.url) == "KX-TOP"
    assert market_stub.request_count(path="/markets") == 1


def test_outage(market_stub):
    market_stub.set_behaviour({"status": 503})
    with pytest.raises(requests.HTTPError):
        top_market(market_stub.url)


@pytest.mark.market_stub(count=3)
def test_a_small_catalog(market_stub):
    # Other options: another server, started once and shared by every test with the same marker.
    assert len(market_stub.markets()) == 3
