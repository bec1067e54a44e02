"""market-stub for Python: start the Prediction Market Data Service stub, drive it, test against it.

- ``MarketStub.start(seed=…, count=…)``: a stub in a child process (the bundled Node CLI), a context
  manager with ``.url`` and every control;
- ``connect(url, admin_token=None)``: the same controls for a stub already running (a container);
- the pytest plugin (``market_stub`` fixture), registered through the ``pytest11`` entry point.
"""

from __future__ import annotations

from ._client import DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT, MarketStubClient, connect
from ._errors import ERROR_CODES, MarketStubError
from ._node import find_node
from ._stub import DEFAULT_START_TIMEOUT, MarketStub
from ._types import (
    Behaviour,
    ClockReading,
    DeviationSetting,
    Explanation,
    Finding,
    JournalEntry,
    JournalFilter,
    Lifecycle,
    Market,
    Profile,
    Rule,
    RuleInput,
    RuleMatch,
    TraceParent,
)

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_START_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "ERROR_CODES",
    "Behaviour",
    "ClockReading",
    "DeviationSetting",
    "Explanation",
    "Finding",
    "JournalEntry",
    "JournalFilter",
    "Lifecycle",
    "Market",
    "MarketStub",
    "MarketStubClient",
    "MarketStubError",
    "Profile",
    "Rule",
    "RuleInput",
    "RuleMatch",
    "TraceParent",
    "connect",
    "find_node",
]
