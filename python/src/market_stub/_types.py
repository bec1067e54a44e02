"""The shapes the admin API reads and answers, as TypedDicts (the TypeScript types of the same names).

Markets follow ``$defs/Market`` of ``schemas/market.schema.json``: the six documented fields, plus
any undocumented extra field a fixture carries (a TypedDict cannot say "and any other key", so code
reading an extra field uses ``market.get("category")``). Optional keys use ``total=False``
subclasses: Python 3.10 has no ``NotRequired`` and the package depends on the standard library only.
"""

from __future__ import annotations

from typing import Literal, TypedDict, get_args


class Market(TypedDict):
    """The body of ``GET /markets/{market_id}``: prices are JSON numbers, ``resolution_date`` is ``YYYY-MM-DD``."""

    market_id: str
    title: str
    status: str
    yes_price: float
    no_price: float
    resolution_date: str


class RuleMatch(TypedDict, total=False):
    """Which requests a rule applies to: ``route`` ``list`` is ``GET /markets``, ``item`` is ``GET /markets/{id}``."""

    route: Literal["list", "item"]
    marketId: str
    method: str


class Behaviour(TypedDict, total=False):
    """What to do to a response (every field optional; times in ms). Keys as the admin API spells them."""

    delayMs: int
    jitterMs: int
    status: int
    retryAfter: int
    errorRate: float
    fault: str
    dribbleMs: int


class _RuleBase(TypedDict):
    match: RuleMatch
    behaviour: Behaviour


class RuleInput(_RuleBase, total=False):
    """A behaviour rule to add: ``times`` limits it to the next N matches; the same ``id`` replaces a rule."""

    id: str
    times: int


class Rule(_RuleBase, total=False):
    """A behaviour rule as stored (``id`` always set; ``times`` = applications left, absent = until removed)."""

    id: str
    times: int


class _DeviationBase(TypedDict):
    name: str


class DeviationSetting(_DeviationBase, total=False):
    """One deviation in force: every market, a seeded share (``rate`` 0-1) or named markets (``marketIds``)."""

    rate: float
    marketIds: list[str]


#: The stub's ``lifecycle`` option (``--lifecycle``, docs/lifecycle.md): ``"off"`` (the default: every
#: market keeps its status), ``"generic"`` (active, closed, resolved) or ``"kalshi"`` (initialized,
#: active, closed, determined, finalized). The TypeScript ``LifecycleMode``.
Lifecycle = Literal["off", "generic", "kalshi"]
#: The values of Lifecycle, in the CLI's order (``--lifecycle off|generic|kalshi``).
LIFECYCLES: tuple[Lifecycle, ...] = get_args(Lifecycle)


class ClockReading(TypedDict):
    """The stub clock (``GET /__stub/clock``): ``instant`` now and ``start`` (RFC 3339, UTC),
    ``rate`` in stub seconds per real second (0: frozen), and the ``lifecycle`` markets follow on it."""

    instant: str
    rate: float
    start: str
    lifecycle: Lifecycle


class _RuleUseBase(TypedDict):
    id: str


class RuleUse(_RuleUseBase, total=False):
    """A behaviour rule a request matched; ``left`` is the applications of its ``times`` left after it."""

    left: int


class ExplainProfile(TypedDict):
    envelope: str
    paging: str
    errors: str


class Explanation(TypedDict):
    """Why an answer came (docs/explain.md): the record its ``Market-Stub-Explain`` header was written from."""

    deviations: list[str]
    behaviour: list[str]
    rules: list[RuleUse]
    profile: ExplainProfile
    instant: str


class TraceParent(TypedDict):
    """A request's W3C ``traceparent``, read: trace-id, parent-id and the sampled flag."""

    traceId: str
    parentId: str
    sampled: bool


class _JournalEntryBase(TypedDict):
    seq: int
    time: str
    stubTime: str
    method: str
    path: str
    query: dict[str, str | list[str]]
    headers: dict[str, str | list[str]]
    status: int | None
    durationMs: float
    behaviour: list[str]


class JournalEntry(_JournalEntryBase, total=False):
    """One request the stub received: ``status`` is None when the connection was reset before an answer;
    secret header values are ``[redacted]`` unless the stub keeps them (``journal_headers="full"``)."""

    headersDropped: int
    explain: Explanation
    trace: TraceParent
    requestId: str


class JournalFilter(TypedDict, total=False):
    """Which journal entries to read: every given field must match; ``limit`` keeps the newest N (0-1,000)."""

    method: str
    path: str
    pathPrefix: str
    status: int
    traceId: str
    requestId: str
    limit: int


class Finding(TypedDict):
    """One problem of a market the stub refused: where (JSON pointer), what was expected, what was found."""

    pointer: str
    expected: str
    found: str
    message: str


class Profile(TypedDict, total=False):
    """The response profile: list envelope, paging, page sizes, error body shape, ``?status=`` filtering."""

    envelope: str
    paging: Literal["none", "offset", "cursor"]
    pageSize: int
    maxPageSize: int
    errors: Literal["default", "problem", "error-object"]
    filterStatus: bool
