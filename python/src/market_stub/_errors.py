"""MarketStubError: the one error of the package, with the fields of the TypeScript MarketStubError."""

from __future__ import annotations

import re
from typing import Any

from ._types import Finding

#: Every code the admin API and this package use (src/floor/market-stub-error.ts, MarketStubErrorCode).
ERROR_CODES = frozenset(
    {
        "OPTION_INVALID",
        "MARKETS_INVALID",
        "FIXTURES_UNREADABLE",
        "MARKET_NOT_FOUND",
        "RULE_NOT_FOUND",
        "LIMIT_EXCEEDED",
        "LISTEN_FAILED",
        "UNAUTHORIZED",
        "STUB_UNREACHABLE",
        "OUTPUT_UNWRITABLE",
        "DEPLOYMENT_UNREACHABLE",
        "INTERRUPTED",
        "ADMIN_ROUTE_NOT_FOUND",
        "FORBIDDEN",
        # Python side only: no Node to run the bundled CLI, or the CLI failed to start.
        "NODE_NOT_FOUND",
        "STUB_START_FAILED",
    }
)


class MarketStubError(Exception):
    """A problem the caller can fix, from the stub's admin API or from this package.

    ``code`` is one of ERROR_CODES (``MARKETS_INVALID``, ``MARKET_NOT_FOUND``, ``UNAUTHORIZED``…),
    ``where`` the method that failed (``stub.set_markets``), ``message`` the whole sentence, and, when
    the stub sent them, ``option``/``expected``/``found`` (a bad argument), ``market_id`` (an unknown
    market), ``findings`` (the problems of refused markets: the stub lists the first 100) and ``more``
    (how many problems it found past those, 0 when ``findings`` is complete). Never holds the admin token.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        where: str = "",
        option: str | None = None,
        expected: str | None = None,
        found: str | None = None,
        market_id: str | None = None,
        findings: list[Finding] | None = None,
        more: int = 0,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where
        self.option = option
        self.expected = expected
        self.found = found
        self.market_id = market_id
        self.findings: list[Finding] = list(findings or [])
        self.more = more
        self.status = status

    def __repr__(self) -> str:
        return f"MarketStubError(code={self.code!r}, message={self.message!r})"


#: The server's ``where`` at the start of an admin error message: ``PUT /__stub/markets: ``.
_ROUTE_PREFIX = re.compile(r"^[A-Z]+ /__stub[^\s:]*: ")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def redact(text: str | None, secret: str | None) -> str | None:
    """``text`` with every occurrence of ``secret`` shown as ``[redacted]`` (the TypeScript side's word, src/floor/redact-secrets.ts)."""
    return text.replace(secret, "[redacted]") if text is not None and secret else text


def error_from_admin_body(where: str, request: str, status: int, body: Any, token: str | None) -> MarketStubError | None:
    """The MarketStubError of an admin API error body, or None when the body is not one.

    The body is ``{"status","error","message","option"?,"expected"?,"found"?,"findings"?,"more"?,"market_id"?}``
    (src/runtime/admin/admin-error.ts); ``code`` is ``error`` upper-cased and the message's route prefix
    (``PUT /__stub/markets: ``) becomes ``where``, as src/client/admin-error-body.ts does. A 401 says
    whether the token was missing or wrong, never the token; a body that echoes ``token`` (a server that
    is not market-stub, a proxy) has it shown as ``[redacted]`` in every field.
    """
    token_sent = token is not None
    if not isinstance(body, dict) or not isinstance(body.get("error"), str) or not isinstance(body.get("message"), str):
        return None
    code = str(body["error"]).upper()
    if code not in ERROR_CODES:
        return None
    if code == "UNAUTHORIZED" or status == 401:
        return unauthorized(where, request, token_sent)
    message = str(redact(str(body["message"]), token))
    message = _ROUTE_PREFIX.sub("", message, count=1)
    raw_findings = body.get("findings")
    findings: list[Finding] = []
    if isinstance(raw_findings, list):
        for f in raw_findings:
            if isinstance(f, dict):
                findings.append(
                    Finding(
                        pointer=str(redact(_text(f.get("pointer")), token)),
                        expected=str(redact(_text(f.get("expected")), token)),
                        found=str(redact(_text(f.get("found")), token)),
                        message=str(redact(_text(f.get("message")), token)),
                    )
                )

    def optional(key: str) -> str | None:
        value = body.get(key)
        return redact(value, token) if isinstance(value, str) else None

    more = body.get("more")
    return MarketStubError(
        code,
        f"{where}: {message}",
        where=where,
        option=optional("option"),
        expected=optional("expected"),
        found=optional("found"),
        market_id=optional("market_id"),
        findings=findings,
        more=more if isinstance(more, int) and not isinstance(more, bool) and more > 0 else 0,
        status=status,
    )


def unauthorized(where: str, request: str, token_sent: bool) -> MarketStubError:
    """UNAUTHORIZED, worded for what the client did: no token sent, or one the stub refused."""
    reason = (
        "the stub refused the admin token (wrong token): pass the value the stub was started with (--admin-token, MARKET_STUB_ADMIN_TOKEN)"
        if token_sent
        else "the stub needs an admin token (missing token): pass connect(url, admin_token=...) with the value of its --admin-token"
    )
    return MarketStubError("UNAUTHORIZED", f"{where}: {request} answered 401: {reason}", where=where, status=401)
