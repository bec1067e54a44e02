import pytest


@pytest.fixture(scope="session")
def market_stub_options():
    # One server per session (per xdist worker) with these options.
    return {"seed": 7, "count": 25, "clock": "2026-01-01"}
