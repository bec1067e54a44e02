"""The pytest plugin of market-stub (entry point ``pytest11``: active wherever the package is installed).

Fixtures:

- ``market_stub``: a MarketStubClient for the test, reset (start-up markets, deviations, behaviours,
  tick) and with an empty journal before the test starts. The server behind it is started once per
  session (per xdist worker: a seeded catalog is the same in every worker, so nothing is shared or
  locked) and once per distinct option set.
- ``market_stub_options``: the options (``MarketStub.start``'s keywords) of the server; override it
  in a conftest.py, or give one test its own with ``@pytest.mark.market_stub(seed=7, count=5)``.
- ``market_stub_server``: the session's server with the default options, for session-scoped fixtures.

``--market-stub-url URL`` (or ``MARKET_STUB_URL``) runs the same tests against a stub already running,
a container say; ``--market-stub-admin-token`` (or ``MARKET_STUB_ADMIN_TOKEN``) is its admin token.
Options cannot change such a stub: a test asking for other options is skipped there, saying why. The
client's own options (CLIENT_OPTIONS: ``admin_token``, ``timeout``) are not such options: they apply to
the connection (an ``admin_token`` option is used when no other token is given, and one that differs
from ``--market-stub-admin-token`` is a usage error), so the tests run, and fail when the token is wrong.

The admin token is never printed: skip reasons, usage errors and JUnit XML show it as ``[redacted]``
(SHOWN_SECRET), and the plugin's frames are hidden from tracebacks (``--showlocals`` shows no option).

When a test that used ``market_stub`` fails, its report gets a section "market-stub journal": every
request the code under test sent in that test (method, path and query, status, duration, behaviours
applied), the newest MAX_JOURNAL_SHOWN.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from typing import Any

import pytest

from ._client import MarketStubClient, connect
from ._errors import MarketStubError
from ._stub import MarketStub

#: Most journal entries a failed test's report shows (the newest).
MAX_JOURNAL_SHOWN = 50

#: The options that set the client, not the stub: applied to a stub at --market-stub-url too.
CLIENT_OPTIONS = frozenset({"admin_token", "timeout"})
#: What a secret option's value is shown as (the same word as the TypeScript side's redaction, src/floor/redact-secrets.ts).
SHOWN_SECRET = "[redacted]"
_SECRET_OPTIONS = frozenset({"admin_token"})

_SERVERS_KEY = pytest.StashKey[dict[str, MarketStubClient]]()
_FAILURES_KEY = pytest.StashKey[dict[str, MarketStubError]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("market-stub")
    group.addoption(
        "--market-stub-url",
        default=os.environ.get("MARKET_STUB_URL") or None,
        help="Use the market-stub already running at this URL (a container) instead of starting one. Default: $MARKET_STUB_URL.",
    )
    group.addoption(
        "--market-stub-admin-token",
        default=None,
        help="Admin token of the stub at --market-stub-url. Default: $MARKET_STUB_ADMIN_TOKEN.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "market_stub(**options): start this test's market-stub with these MarketStub.start options (one server per distinct option set)",
    )
    config.stash[_SERVERS_KEY] = {}
    config.stash[_FAILURES_KEY] = {}


def pytest_unconfigure(config: pytest.Config) -> None:
    servers = config.stash.get(_SERVERS_KEY, {})
    for server in servers.values():
        if isinstance(server, MarketStub):
            server.close()
    servers.clear()


def _key(options: dict[str, Any]) -> str:
    """The option set as one string: the key of its server (never printed: it holds the token)."""
    return json.dumps(options, sort_keys=True, default=str)


def _shown(options: dict[str, Any]) -> str:
    """The option set as printed in a skip reason or a usage error: secret values as SHOWN_SECRET."""
    return _key({key: SHOWN_SECRET if key in _SECRET_OPTIONS else value for key, value in options.items()})


def _external(config: pytest.Config, url: str, options: dict[str, Any]) -> MarketStubClient:
    """The client of the stub at --market-stub-url: the client options apply, any other option skips the test."""
    __tracebackhide__ = True
    stub_options = {key: value for key, value in options.items() if key not in CLIENT_OPTIONS}
    if stub_options:
        pytest.skip(
            f"market-stub options {_shown(stub_options)} cannot be applied to the stub at --market-stub-url {url} (started with its own)"
        )
    given = config.getoption("market_stub_admin_token") or os.environ.get("MARKET_STUB_ADMIN_TOKEN") or None
    token = options.get("admin_token", given)
    if given is not None and token != given:
        raise pytest.UsageError(
            "market-stub: the admin_token option differs from --market-stub-admin-token / MARKET_STUB_ADMIN_TOKEN "
            "(the stub at --market-stub-url has one token; values not shown): give one of them"
        )
    key = _key({"admin_token": token, "timeout": options.get("timeout")})
    servers = config.stash[_SERVERS_KEY]
    if key not in servers:
        try:
            servers[key] = connect(url, admin_token=token, **({"timeout": options["timeout"]} if "timeout" in options else {}))
        except TypeError as error:
            raise pytest.UsageError(f"market-stub options {_shown(options)}: {error}") from None
    return servers[key]


def _server(config: pytest.Config, options: dict[str, Any]) -> MarketStubClient:
    """The server for ``options``: started on first use and kept for the session, or the external stub."""
    __tracebackhide__ = True
    servers = config.stash[_SERVERS_KEY]
    url: str | None = config.getoption("market_stub_url")
    if url:
        return _external(config, url, options)
    key = _key(options)
    failures = config.stash[_FAILURES_KEY]
    if key in failures:
        # One start per option set: a stub that could not start (no Node, bad options) fails every test that needs it at once.
        raise failures[key]
    if key not in servers:
        try:
            servers[key] = MarketStub.start(**options)
        except TypeError as error:
            raise pytest.UsageError(f"market-stub options {_shown(options)}: {error}") from None
        except MarketStubError as error:
            failures[key] = error
            raise
    return servers[key]


@pytest.fixture(scope="session")
def market_stub_options() -> dict[str, Any]:
    """Options of the session's market-stub (MarketStub.start keywords). Override in conftest.py: ``return {"seed": 7}``."""
    return {}


@pytest.fixture(scope="session")
def market_stub_server(request: pytest.FixtureRequest, market_stub_options: dict[str, Any]) -> MarketStubClient:
    """The session's server with ``market_stub_options`` (not reset between tests: use ``market_stub`` in tests)."""
    __tracebackhide__ = True
    return _server(request.config, dict(market_stub_options))


@pytest.fixture
def market_stub(request: pytest.FixtureRequest, market_stub_options: dict[str, Any]) -> MarketStubClient:
    """The test's stub: reset to its start-up state, journal empty. Options: the marker's over ``market_stub_options``."""
    __tracebackhide__ = True
    options = dict(market_stub_options)
    for marker in reversed(list(request.node.iter_markers("market_stub"))):
        if marker.args:
            raise pytest.UsageError(
                f"@pytest.mark.market_stub takes keyword options only (MarketStub.start's), found positional {marker.args!r}"
            )
        options.update(marker.kwargs)
    client = _server(request.config, options)
    client.reset()
    client.clear_requests()
    return client


def _journal_text(client: MarketStubClient) -> str:
    try:
        entries = client.requests(limit=MAX_JOURNAL_SHOWN)
        total = client.request_count()
    except MarketStubError as error:
        return f"(the journal could not be read: {error.message})"
    if not entries:
        return "(no request reached the stub in this test)"
    lines = [f"{total} request(s) reached {client.url} in this test" + (f"; the newest {len(entries)}:" if total > len(entries) else ":")]
    for entry in entries:
        query = "&".join(f"{k}={v}" for k, vs in entry["query"].items() for v in (vs if isinstance(vs, list) else [vs]))
        status = "no answer (connection reset)" if entry["status"] is None else str(entry["status"])
        applied = f"  [{', '.join(entry['behaviour'])}]" if entry["behaviour"] else ""
        lines.append(
            f"  #{entry['seq']} {entry['method']} {entry['path']}{'?' + query if query else ''} -> {status} in {entry['durationMs']:g} ms{applied}"
        )
    return "\n".join(lines)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if not report.failed or report.when == "teardown":
        return
    funcargs: dict[str, Any] = getattr(item, "funcargs", {})
    client = funcargs.get("market_stub")
    if isinstance(client, MarketStubClient):
        report.sections.append(("market-stub journal", _journal_text(client)))
