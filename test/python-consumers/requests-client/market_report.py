"""The code under test: a market report from the Prediction Market Data Service, read with requests."""

from __future__ import annotations

import time

import requests


class ServiceUnavailable(Exception):
    """The service answered an error status twice (or a 429/503 without a usable Retry-After)."""


def fetch_markets(base_url: str, session: requests.Session | None = None, max_wait: float = 5.0) -> list[dict]:
    """GET {base_url}/markets; a 429 or 503 is retried once after its Retry-After (at most max_wait seconds)."""
    http = session or requests.Session()
    for attempt in (1, 2):
        response = http.get(f"{base_url}/markets", timeout=10)
        if response.status_code in (429, 503) and attempt == 1:
            wait = float(response.headers.get("retry-after", "1"))
            if wait > max_wait:
                raise ServiceUnavailable(f"asked to wait {wait} s")
            time.sleep(wait)
            continue
        if response.status_code != 200:
            raise ServiceUnavailable(f"GET /markets answered {response.status_code}")
        return response.json()
    raise ServiceUnavailable("GET /markets answered 429/503 twice")


def top_markets(base_url: str, n: int = 3) -> list[tuple[str, float]]:
    """The n active markets with the highest yes price, as (market_id, yes_price)."""
    markets = [m for m in fetch_markets(base_url) if m["status"] == "active"]
    markets.sort(key=lambda m: (-m["yes_price"], m["market_id"]))
    return [(m["market_id"], m["yes_price"]) for m in markets[:n]]


def market_title(base_url: str, market_id: str) -> str | None:
    """The title of one market, or None when the service does not know it (404)."""
    response = requests.get(f"{base_url}/markets/{requests.utils.quote(market_id, safe='')}", timeout=10)
    if response.status_code == 404:
        return None
    response.raise_for_status()
    return response.json()["title"]
