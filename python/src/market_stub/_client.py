"""MarketStubClient: every control of a running stub over its admin API (``/__stub``), with http.client.

The same operations as the TypeScript ``MarketStubClient`` (src/runtime/control-table.ts) and
``connectMarketStub`` (src/client/connect-market-stub.ts), in snake_case; a started ``MarketStub``
and ``connect(url)`` share this one class.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import select
import socket
import threading
import time
import urllib.error
import urllib.parse
from typing import Any, Literal, cast

from ._errors import MarketStubError, error_from_admin_body, unauthorized
from ._types import LIFECYCLES, Behaviour, ClockReading, DeviationSetting, JournalEntry, Market, Rule, RuleInput

#: Default longest wait for one call (connect, answer and body), seconds.
DEFAULT_TIMEOUT = 10.0
#: Default largest answer read, bytes (256 MiB: a catalog of a million markets is about 200 MB).
DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024

_Method = Literal["GET", "PUT", "POST", "PATCH", "DELETE"]

#: What a secret is shown as in a message (the TypeScript side's word, src/floor/redact-secrets.ts).
REDACTED = "[redacted]"


class _DeadlineReader(io.RawIOBase):
    """A socket's bytes, each read bounded by what is left of one call's deadline (``time.monotonic()`` seconds).

    A server that sends a byte a second never resets the clock: the answer's status line, headers and
    body share one deadline. Past it, a read raises TimeoutError. It reads through the socket's own
    unbuffered file (``makefile("rb", buffering=0)``), which holds the socket open until this is
    closed, as http.client's own reader does (a ``Connection: close`` answer closes the connection first).
    """

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("timed out")
        self._sock.settimeout(remaining)
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _DeadlineSocket:
    """What http.client.HTTPResponse reads an answer from: the socket, through a _DeadlineReader."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))


def _deadline_response(deadline: float) -> Any:
    """An HTTPResponse factory (``connection.response_class``) reading the answer within ``deadline``."""

    def response(sock: socket.socket, *args: Any, **kwargs: Any) -> http.client.HTTPResponse:
        return http.client.HTTPResponse(cast(socket.socket, _DeadlineSocket(sock, deadline)), *args, **kwargs)

    return response


def _dropped(connection: http.client.HTTPConnection) -> bool:
    """Whether an idle kept-alive connection was closed by the stub (its socket is readable: EOF)."""
    sock = connection.sock
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _check_base_url(url: object) -> str:
    """The base URL without a trailing slash. @raises MarketStubError OPTION_INVALID."""
    expected = "the base URL of a stub, http:// or https:// (http://127.0.0.1:4010), without credentials, query or fragment"
    parsed = urllib.parse.urlsplit(url) if isinstance(url, str) else None
    if parsed is not None and (parsed.username is not None or parsed.password is not None):
        shown = "(a URL with credentials, not shown)"
        raise MarketStubError(
            "OPTION_INVALID",
            f"connect: url: expected {expected}; pass the token as admin_token, found {shown}",
            where="connect",
            option="url",
            expected=expected,
            found=shown,
        )
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.hostname or parsed.query or parsed.fragment:
        raise MarketStubError(
            "OPTION_INVALID",
            f"connect: url: expected {expected}, found {url!r}",
            where="connect",
            option="url",
            expected=expected,
            found=repr(url),
        )
    return f"{parsed.scheme}://{parsed.netloc}{parsed.path.rstrip('/')}"


def _id_segment(where: str, value: object, option: str, expected: str, code: str = "OPTION_INVALID") -> str:
    """An id as one percent-encoded path segment. @raises MarketStubError ``code`` for a non-string or empty id."""
    if not isinstance(value, str) or value == "":
        raise MarketStubError(
            code,
            f"{where}: {option}: expected {expected}, found {value!r}",
            where=where,
            option=option,
            expected=expected,
            found=repr(value),
        )
    return urllib.parse.quote(value, safe="")


def _market_path(where: str, market_id: object) -> str:
    return f"/markets/{_id_segment(where, market_id, 'marketId', 'a non-empty string')}"


def _filter_query(
    method: str | None,
    path: str | None,
    path_prefix: str | None,
    status: int | None,
    limit: int | None,
    trace_id: str | None = None,
    request_id: str | None = None,
) -> dict[str, str]:
    """A journal filter as the query of ``GET /__stub/requests`` (the stub checks each value)."""
    given = {
        "method": method,
        "path": path,
        "pathPrefix": path_prefix,
        "status": status,
        "traceId": trace_id,
        "requestId": request_id,
        "limit": limit,
    }
    return {key: str(value) for key, value in given.items() if value is not None}


class MarketStubClient:
    """The controls of one stub, reached over HTTP at ``url`` (a ``serve`` process, a container, a CI service).

    Nothing is sent until a method is called. Every method raises ``MarketStubError``: the admin API's
    own error (``OPTION_INVALID``, ``MARKETS_INVALID`` with ``findings``, ``MARKET_NOT_FOUND``,
    ``RULE_NOT_FOUND``, ``LIMIT_EXCEEDED``), ``UNAUTHORIZED`` (missing or wrong token) or
    ``STUB_UNREACHABLE`` (no connection, no answer within ``timeout`` seconds, a redirect, or a server
    that is not the admin API). ``admin_token`` is sent as ``Authorization: Bearer`` to ``url`` only and
    never appears in an error.
    """

    def __init__(
        self,
        url: str,
        admin_token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        self._url = _check_base_url(url)
        if admin_token is not None and (not isinstance(admin_token, str) or any(ord(c) < 0x20 or ord(c) == 0x7F for c in admin_token)):
            raise MarketStubError(
                "OPTION_INVALID",
                "connect: admin_token: expected a string without control characters (it is sent in a header), found (not shown)",
                where="connect",
                option="admin_token",
                expected="a string without control characters",
                found="(not shown)",
            )
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
            raise MarketStubError(
                "OPTION_INVALID",
                f"connect: timeout: expected seconds, more than 0 and at most 3600, found {timeout!r}",
                where="connect",
                option="timeout",
                found=repr(timeout),
            )
        if isinstance(max_response_bytes, bool) or not isinstance(max_response_bytes, int) or max_response_bytes < 1024:
            raise MarketStubError(
                "OPTION_INVALID",
                f"connect: max_response_bytes: expected an integer of at least 1024, found {max_response_bytes!r}",
                where="connect",
                option="max_response_bytes",
                found=repr(max_response_bytes),
            )
        parts = urllib.parse.urlsplit(self._url)
        self._scheme, self._host, self._port, self._path = parts.scheme, parts.hostname or "", parts.port, parts.path
        self._local = threading.local()
        self._token = admin_token
        self._timeout = float(timeout)
        self._max_bytes = max_response_bytes

    @property
    def url(self) -> str:
        """Base URL of the stub, e.g. ``http://127.0.0.1:53111``: the market routes are ``{url}/markets``."""
        return self._url

    def __repr__(self) -> str:
        return f"MarketStubClient({self._url!r})"

    # -- transport ---------------------------------------------------------------------------------

    def _send(
        self,
        where: str,
        method: _Method,
        path: str,
        body: object = None,
        *,
        query: dict[str, str] | None = None,
        content_type: str = "application/json",
        option: str = "body",
    ) -> tuple[int, Any]:
        """One admin call; returns (status, parsed JSON body or None). Raises MarketStubError for every failure."""
        url = f"{self._url}/__stub{path}"
        request_text = f"{method} {url}"
        data: bytes | None = None
        if body is not None:
            try:
                data = json.dumps(body, allow_nan=False, separators=(",", ":")).encode("utf-8")
            except (TypeError, ValueError) as error:
                raise MarketStubError(
                    "OPTION_INVALID",
                    f"{where}: {option}: expected a JSON value (no NaN, Infinity, sets or other objects JSON cannot carry), found {type(body).__name__}",
                    where=where,
                    option=option,
                    expected="a JSON value",
                ) from error
        headers = {"accept": "application/json"}
        if method in ("PUT", "POST", "PATCH"):
            headers["content-type"] = content_type
        if self._token is not None:
            headers["authorization"] = f"Bearer {self._token}"
        target = f"{self._path}/__stub{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        # A request on a kept-alive connection the stub had closed in the meantime never reached it:
        # sent again once on a new connection, except the calls that must not run twice (tick, add_rule, patch).
        retry = method in ("GET", "PUT", "DELETE") or path == "/reset"
        # One deadline over the whole call (connect, request, status line, headers, body; both attempts).
        deadline = time.monotonic() + self._timeout
        for attempt in (1, 2):
            connection, reused = self._connection()
            try:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError("timed out")
                connection.timeout = remaining
                if connection.sock is not None:
                    connection.sock.settimeout(remaining)
                connection.response_class = _deadline_response(deadline)
                connection.request(method, target, body=data, headers=headers)
                response = connection.getresponse()
                raw = self._read(where, request_text, response)
                if response.will_close:
                    self._drop()
                return self._answer(
                    where, request_text, response.status, response.getheader("content-type"), raw, response.getheader("location")
                )
            except MarketStubError:
                self._drop()
                raise
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
                self._drop()
                if not (reused and retry and attempt == 1):
                    raise self._unreachable(where, request_text, _reason(error, self._timeout)) from None
            except (OSError, http.client.HTTPException) as error:
                self._drop()
                raise self._unreachable(where, request_text, _reason(error, self._timeout)) from None
        raise AssertionError("unreachable: the second attempt returns or raises")

    def _connection(self) -> tuple[http.client.HTTPConnection, bool]:
        """This thread's kept-alive connection to the stub, and whether it carried a request before.

        A connection the stub closed while idle (readable at EOF), or one inherited through fork(), is replaced.
        """
        local = self._local
        connection: http.client.HTTPConnection | None = getattr(local, "connection", None)
        if connection is not None and (local.pid != os.getpid() or _dropped(connection)):
            connection.close()
            connection = None
        if connection is None:
            kind = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
            connection = kind(self._host, self._port, timeout=self._timeout)
            local.connection, local.pid = connection, os.getpid()
            return connection, False
        return connection, connection.sock is not None

    def _drop(self) -> None:
        connection: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        self._local.connection = None

    def _read(self, where: str, request_text: str, response: http.client.HTTPResponse) -> bytes:
        declared = response.getheader("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self._max_bytes:
            raise self._too_large(where, request_text, f"{declared} bytes declared")
        data = response.read(self._max_bytes + 1)
        if len(data) > self._max_bytes:
            raise self._too_large(where, request_text, f"over {self._max_bytes} bytes read")
        return data

    def _answer(
        self, where: str, request_text: str, status: int, content_type: str | None, raw: bytes, location: str | None = None
    ) -> tuple[int, Any]:
        if 300 <= status < 400:
            to = f" to {location}" if location else ""
            raise self._unreachable(
                where,
                request_text,
                f"it answered {status} with a redirect{to}, which the client does not follow (the admin token goes to {self._url} only); connect to the stub's own URL",
            )
        text = raw.decode("utf-8", errors="replace")
        parsed: Any = None
        is_json = True
        if text:
            try:
                parsed = json.loads(text)
            except ValueError:
                is_json = False
            except RecursionError:
                raise self._unreachable(
                    where, request_text, f"it answered {status} with JSON nested more deeply than Python can parse; is this a market-stub?"
                ) from None
        if 200 <= status < 300:
            if is_json:
                return status, parsed
            raise self._unreachable(
                where,
                request_text,
                f"it answered {status} with a body that is not JSON ({_describe(content_type, text)}); is this the admin API of a market-stub?",
            )
        if status == 401:
            raise unauthorized(where, request_text, self._token is not None)
        mapped = error_from_admin_body(where, request_text, status, parsed, self._token) if is_json else None
        if mapped is not None:
            raise mapped
        raise self._unreachable(
            where,
            request_text,
            f"it answered {status} without an admin API error ({_describe(content_type, text)}); is the admin API on (serve --admin on) and is this a market-stub?",
        )

    def _unreachable(self, where: str, request_text: str, reason: str) -> MarketStubError:
        message = f"{where}: {request_text}: {reason}"
        if self._token:
            message = message.replace(self._token, REDACTED)
        return MarketStubError("STUB_UNREACHABLE", message, where=where, found=self._url)

    def _too_large(self, where: str, request_text: str, size: str) -> MarketStubError:
        return MarketStubError(
            "LIMIT_EXCEEDED",
            f"{where}: {request_text} answered more than {self._max_bytes} bytes ({size}); raise connect's max_response_bytes or ask for less (a journal filter with limit)",
            where=where,
            option="max_response_bytes",
            expected=f"an answer of at most {self._max_bytes} bytes",
            found=size,
        )

    def _body_of(self, where: str, answer: tuple[int, Any], shape: type[list[Any]] | type[dict[str, Any]]) -> Any:
        body = answer[1]
        if not isinstance(body, shape):
            raise MarketStubError(
                "STUB_UNREACHABLE",
                f"{where}: the stub sent an answer of an unexpected shape ({type(body).__name__}); is this the admin API of a market-stub of the same version?",
                where=where,
            )
        return body

    def _field(self, where: str, body: dict[str, Any], key: str, kind: type[Any] | tuple[type[Any], ...]) -> Any:
        value = body.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise MarketStubError(
                "STUB_UNREACHABLE",
                f'{where}: the stub sent an answer without "{key}"; is this the admin API of a market-stub of the same version?',
                where=where,
            )
        return value

    # -- the catalog --------------------------------------------------------------------------------

    def markets(self) -> list[Market]:
        """Every market served now, in catalog order, as stored (before deviations)."""
        where = "stub.markets"
        return cast(list[Market], self._body_of(where, self._send(where, "GET", "/markets"), list))

    def market(self, market_id: str) -> Market:
        """One market as stored (before deviations). Raises MARKET_NOT_FOUND with ``market_id``."""
        where = "stub.market"
        return cast(Market, self._body_of(where, self._send(where, "GET", _market_path(where, market_id)), dict))

    def set_markets(self, markets: list[Market] | list[dict[str, Any]]) -> None:
        """Replaces every market; validated like fixtures, all or nothing (MARKETS_INVALID with ``findings``)."""
        where = "stub.set_markets"
        self._send(where, "PUT", "/markets", markets, option="markets")

    def put_market(self, market: Market | dict[str, Any]) -> Literal["created", "replaced"]:
        """Adds or replaces one market (validated). Returns ``"created"`` or ``"replaced"``."""
        where = "stub.put_market"
        market_id = market.get("market_id") if isinstance(market, dict) else None
        if isinstance(market_id, str) and market_id != "":
            status, _ = self._send(where, "PUT", f"/markets/{urllib.parse.quote(market_id, safe='')}", market, option="market")
        else:
            # Without a usable id there is no path to PUT to: POST lets the stub validate it and name what is wrong.
            status, _ = self._send(where, "POST", "/markets", market, option="market")
        return "created" if status == 201 else "replaced"

    def patch_market(self, market_id: str, patch: dict[str, Any]) -> Market:
        """Applies an RFC 7396 merge patch (``None`` removes a member); returns the market as served after it."""
        where = "stub.patch_market"
        answer = self._send(
            where, "PATCH", _market_path(where, market_id), patch, content_type="application/merge-patch+json", option="patch"
        )
        return cast(Market, self._body_of(where, answer, dict))

    def remove_market(self, market_id: str) -> None:
        """Removes one market. Raises MARKET_NOT_FOUND for an unknown id."""
        where = "stub.remove_market"
        self._send(where, "DELETE", _market_path(where, market_id))

    def tick(self, n: int | None = None) -> int:
        """Moves prices ``n`` ticks (default 1); returns the tick count since start or reset."""
        where = "stub.tick"
        body = self._body_of(where, self._send(where, "POST", "/tick", {} if n is None else {"n": n}, option="n"), dict)
        return cast(int, self._field(where, body, "tick", int))

    def clock(self) -> ClockReading:
        """The stub clock: ``instant`` and ``start`` (RFC 3339, UTC), ``rate`` (stub seconds per real second) and ``lifecycle``."""
        where = "stub.clock"
        return self._clock_of(where, self._send(where, "GET", "/clock"))

    def set_clock(self, *, to: str | None = None, advance: str | None = None, rate: float | None = None) -> ClockReading:
        """Moves the stub clock forward: ``to`` an instant (``"2026-01-02"`` or RFC 3339), then ``advance``
        by an ISO 8601 duration (``"PT6H"``, ``"P1D"``), then ``rate``; any of them, together or alone.

        Raises OPTION_INVALID naming the field for an instant before the clock's (it never goes back:
        ``reset()`` does), a negative or unparsable duration, or a rate outside 0-31,536,000; nothing
        changes then. Returns the clock after.
        """
        where = "stub.set_clock"
        change: dict[str, Any] = {key: value for key, value in (("to", to), ("advance", advance), ("rate", rate)) if value is not None}
        return self._clock_of(where, self._send(where, "POST", "/clock", change, option="change"))

    def _clock_of(self, where: str, answer: tuple[int, Any]) -> ClockReading:
        body = self._body_of(where, answer, dict)
        self._field(where, body, "instant", str)
        self._field(where, body, "start", str)
        self._field(where, body, "rate", (int, float))
        if self._field(where, body, "lifecycle", str) not in LIFECYCLES:
            raise MarketStubError(
                "STUB_UNREACHABLE",
                f"{where}: the stub sent an unknown lifecycle; is this the admin API of a market-stub of the same version?",
                where=where,
            )
        return cast(ClockReading, body)

    def reset(self) -> None:
        """Back to the start-up markets, deviations, behaviours, rules, tick count and clock; the journal is kept."""
        where = "stub.reset"
        self._send(where, "POST", "/reset")

    # -- deviations and behaviours ------------------------------------------------------------------

    def deviations(self) -> dict[str, Any]:
        """The deviation catalogue (``catalogue``: name, class, endpoints, description) and the deviations in force (``active``)."""
        where = "stub.deviations"
        return cast(dict[str, Any], self._body_of(where, self._send(where, "GET", "/deviations"), dict))

    def set_deviations(self, settings: list[DeviationSetting]) -> None:
        """Replaces every deviation in force (``[]`` clears them; ``reset()`` restores the start-up ones).

        Each setting is ``{"name": ...}`` (every market), with ``"rate": 0.1`` (a seeded share) or
        ``"marketIds": [...]`` (named markets). Raises OPTION_INVALID, MARKET_NOT_FOUND or LIMIT_EXCEEDED;
        nothing changes then.
        """
        where = "stub.set_deviations"
        self._send(where, "PUT", "/deviations", settings, option="deviations")

    def behaviours(self) -> dict[str, Any]:
        """The global behaviour (``global``) and the rules in force (``rules``; ``times`` = applications left)."""
        where = "stub.behaviours"
        return cast(dict[str, Any], self._body_of(where, self._send(where, "GET", "/behaviours"), dict))

    def set_behaviour(self, behaviour: Behaviour | dict[str, Any]) -> None:
        """Replaces the global behaviour applied to every market request (``{"status": 503, "retryAfter": 7}``)."""
        where = "stub.set_behaviour"
        self._send(where, "PUT", "/behaviours/global", behaviour, option="behaviour")

    def add_rule(self, rule: RuleInput | dict[str, Any]) -> Rule:
        """Adds (or, with the same ``id``, replaces) a behaviour rule; returns it as stored."""
        where = "stub.add_rule"
        return cast(Rule, self._body_of(where, self._send(where, "POST", "/behaviours/rules", rule, option="rule"), dict))

    def remove_rule(self, rule_id: str) -> None:
        """Removes a behaviour rule by id. Raises RULE_NOT_FOUND for an unknown id."""
        where = "stub.remove_rule"
        self._send(where, "DELETE", f"/behaviours/rules/{_id_segment(where, rule_id, 'ruleId', 'the id of a rule', 'RULE_NOT_FOUND')}")

    # -- the journal --------------------------------------------------------------------------------

    def requests(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        path_prefix: str | None = None,
        status: int | None = None,
        limit: int | None = None,
        trace_id: str | None = None,
        request_id: str | None = None,
    ) -> list[JournalEntry]:
        """Journal entries matching every given filter, oldest first; ``limit`` keeps the newest N (default and at most 1,000).

        ``trace_id`` takes a W3C trace-id (32 hex digits) or the whole ``traceparent`` a request sent;
        ``request_id`` an ``X-Request-Id`` exactly.
        """
        where = "stub.requests"
        answer = self._send(where, "GET", "/requests", query=_filter_query(method, path, path_prefix, status, limit, trace_id, request_id))
        return cast(list[JournalEntry], self._field(where, self._body_of(where, answer, dict), "requests", list))

    def har(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        path_prefix: str | None = None,
        status: int | None = None,
        limit: int | None = None,
        trace_id: str | None = None,
        request_id: str | None = None,
    ) -> dict[str, Any]:
        """The journal as an HTTP Archive (HAR 1.2, ``GET /__stub/requests.har``): the entries ``requests`` returns
        for the same filters, with request and response headers (secrets redacted), bodies up to 64 KiB, timings and
        ``_marketStubExplain`` (docs/har.md). ``json.dump`` it to a ``.har`` file a browser's devtools import."""
        where = "stub.har"
        answer = self._send(
            where, "GET", "/requests.har", query=_filter_query(method, path, path_prefix, status, limit, trace_id, request_id)
        )
        body = cast(dict[str, Any], self._body_of(where, answer, dict))
        self._field(where, self._field(where, body, "log", dict), "entries", list)
        return body

    def request_count(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        path_prefix: str | None = None,
        status: int | None = None,
        trace_id: str | None = None,
        request_id: str | None = None,
    ) -> int:
        """How many journal entries match the filters (of those the journal still holds)."""
        where = "stub.request_count"
        answer = self._send(
            where, "GET", "/requests/count", query=_filter_query(method, path, path_prefix, status, None, trace_id, request_id)
        )
        return cast(int, self._field(where, self._body_of(where, answer, dict), "count", int))

    def clear_requests(self) -> None:
        """Empties the journal."""
        where = "stub.clear_requests"
        self._send(where, "DELETE", "/requests")


def _reason(error: BaseException, timeout: float) -> str:
    """Why a call failed, in words: ``cannot reach the stub: connection refused (ECONNREFUSED)…``."""
    cause: BaseException = error.reason if isinstance(error, urllib.error.URLError) and isinstance(error.reason, BaseException) else error
    if isinstance(cause, (socket.timeout, TimeoutError)):
        return f"no answer within {timeout:g} s (connect's timeout); is the stub running and reachable from here?"
    if isinstance(cause, ConnectionRefusedError):
        what = "connection refused (ECONNREFUSED)"
    elif isinstance(cause, socket.gaierror):
        what = "the host name does not resolve"
    elif isinstance(cause, ConnectionResetError):
        what = "the connection was reset (ECONNRESET)"
    else:
        what = str(cause) or type(cause).__name__
    return f"cannot reach the stub: {what}; is it running at this URL and reachable from here?"


def _describe(content_type: str | None, text: str) -> str:
    kind = content_type or "no content-type"
    start = " ".join(text.split())[:120]
    return f"{kind}: {start}{'…' if len(text) > 120 else ''}" if start else f"{kind}, empty body"


def connect(
    url: str, admin_token: str | None = None, timeout: float = DEFAULT_TIMEOUT, max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
) -> MarketStubClient:
    """A client for a stub already running at ``url`` (``market-stub serve``, a container, a CI service).

    ``admin_token`` is the stub's ``--admin-token``; ``timeout`` the longest wait for one call, seconds
    (default 10); ``max_response_bytes`` the largest answer read (default 256 MiB). Nothing is sent until
    a method is called. Raises MarketStubError OPTION_INVALID for a bad URL or option.
    """
    return MarketStubClient(url, admin_token=admin_token, timeout=timeout, max_response_bytes=max_response_bytes)
