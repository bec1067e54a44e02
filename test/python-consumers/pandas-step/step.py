"""The code under test: a data step reading GET /markets into a pandas DataFrame."""

from __future__ import annotations

import pandas as pd

COLUMNS = ["market_id", "title", "status", "yes_price", "no_price"]


def load_markets(base_url: str) -> pd.DataFrame:
    """The list as a frame indexed by market_id (pandas reads the URL itself, with urllib).

    dtype=False: pandas' inference would turn a price sent as a string ("0.57", a contract break)
    into a float without a word; the check below sees it instead.
    """
    frame = pd.read_json(f"{base_url}/markets", orient="records", dtype=False)
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"GET /markets lacks {missing}")
    if not pd.api.types.is_float_dtype(frame["yes_price"]):
        raise TypeError(f"yes_price is {frame['yes_price'].dtype}, expected floats")
    return frame.set_index("market_id")[COLUMNS[1:]]


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per status: how many markets, their mean yes price and the mean overround (yes + no - 1)."""
    overround = frame["yes_price"] + frame["no_price"] - 1
    return frame.assign(overround=overround).groupby("status").agg(markets=("title", "size"), mean_yes=("yes_price", "mean"), mean_overround=("overround", "mean"))
