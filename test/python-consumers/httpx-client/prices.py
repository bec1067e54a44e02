"""The code under test: prices read with httpx, one client call per market (sync) or all at once (async)."""

from __future__ import annotations

import asyncio

import httpx


def list_ids(client: httpx.Client) -> list[str]:
    """Every market_id of GET /markets."""
    response = client.get("/markets")
    response.raise_for_status()
    return [m["market_id"] for m in response.json()]


def price_of(client: httpx.Client, market_id: str) -> float:
    """yes_price of one market (GET /markets/{id})."""
    response = client.get(f"/markets/{market_id}")
    response.raise_for_status()
    return float(response.json()["yes_price"])


async def prices_async(base_url: str, market_ids: list[str], timeout: float = 2.0) -> dict[str, float | None]:
    """yes_price of each market, fetched concurrently; None for one that failed or timed out."""

    async def one(client: httpx.AsyncClient, market_id: str) -> tuple[str, float | None]:
        try:
            response = await client.get(f"/markets/{market_id}")
            response.raise_for_status()
            return market_id, float(response.json()["yes_price"])
        except (httpx.HTTPError, ValueError, KeyError):
            return market_id, None

    async with httpx.AsyncClient(base_url=base_url, timeout=timeout) as client:
        return dict(await asyncio.gather(*(one(client, i) for i in market_ids)))
