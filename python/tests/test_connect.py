"""connect(): what only a remote client meets (test/client/remote-client.test.ts): tokens, a stub that is
not running, a time-out, redirects, a server that is not the admin API, oversized answers, bad options."""

from __future__ import annotations

import http.server
import socket
import threading
from collections.abc import Callable, Iterator

import pytest
from conftest import CONTRACT_TOKEN

from market_stub import MarketStub, MarketStubError, connect

Handler = Callable[[http.server.BaseHTTPRequestHandler], None]


@pytest.fixture(scope="module")
def guarded() -> Iterator[MarketStub]:
    with MarketStub.start(count=3, admin_token=CONTRACT_TOKEN) as stub:
        yield stub


@pytest.fixture
def fake() -> Iterator[Callable[[Handler], tuple[str, list[dict[str, str]]]]]:
    """A throwaway HTTP server on 127.0.0.1 answering with a handler; records the headers it saw."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def serve(answer: Handler) -> tuple[str, list[dict[str, str]]]:
        seen: list[dict[str, str]] = []

        class Answer(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def _any(self) -> None:
                seen.append({k.lower(): v for k, v in self.headers.items()})
                answer(self)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any  # noqa: N815

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}", seen

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def reply(status: int, body: bytes, headers: dict[str, str] | None = None) -> Handler:
    def answer(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        for key, value in (headers or {"content-type": "application/json"}).items():
            handler.send_header(key, value)
        handler.send_header("content-length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return answer


def test_a_missing_token_is_unauthorized_saying_it_is_missing(guarded: MarketStub) -> None:
    with pytest.raises(MarketStubError) as info:
        connect(guarded.url).markets()
    assert (info.value.code, info.value.where) == ("UNAUTHORIZED", "stub.markets")
    assert "missing token" in info.value.message
    assert f"GET {guarded.url}/__stub/markets answered 401" in info.value.message


def test_a_wrong_token_is_unauthorized_without_showing_either_token(guarded: MarketStub) -> None:
    wrong = "not-the-token-7d2a"
    with pytest.raises(MarketStubError) as info:
        connect(guarded.url, admin_token=wrong).tick()
    assert info.value.code == "UNAUTHORIZED"
    assert "wrong token" in info.value.message
    assert wrong not in str(vars(info.value))
    assert CONTRACT_TOKEN not in str(vars(info.value))


def test_the_right_token_works(guarded: MarketStub) -> None:
    client = connect(guarded.url, admin_token=CONTRACT_TOKEN)
    assert len(client.markets()) == 3
    assert client.tick(2) == 2


def test_a_stub_that_is_not_running_is_unreachable_naming_the_url() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(MarketStubError) as info:
        connect(f"http://127.0.0.1:{port}").markets()
    assert info.value.code == "STUB_UNREACHABLE"
    assert f"http://127.0.0.1:{port}/__stub/markets" in info.value.message
    assert "connection refused" in info.value.message


def test_no_answer_within_the_timeout_is_unreachable(fake: Callable[[Handler], tuple[str, list[dict[str, str]]]]) -> None:
    gate = threading.Event()

    def hang(handler: http.server.BaseHTTPRequestHandler) -> None:
        gate.wait(5)

    url, _ = fake(hang)
    try:
        with pytest.raises(MarketStubError) as info:
            connect(url, timeout=0.3).markets()
    finally:
        gate.set()
    assert info.value.code == "STUB_UNREACHABLE"
    assert "no answer within 0.3 s" in info.value.message


def test_a_redirect_is_not_followed_and_the_token_goes_nowhere_else(fake: Callable[[Handler], tuple[str, list[dict[str, str]]]]) -> None:
    other, seen_elsewhere = fake(reply(200, b"[]"))
    url, seen = fake(reply(307, b"", {"location": f"{other}/__stub/markets"}))
    with pytest.raises(MarketStubError) as info:
        connect(url, admin_token="secret-abc").markets()
    assert info.value.code == "STUB_UNREACHABLE"
    assert "redirect" in info.value.message
    assert seen[0]["authorization"] == "Bearer secret-abc"
    assert seen_elsewhere == []


def test_a_server_that_is_not_the_admin_api_is_named_so(fake: Callable[[Handler], tuple[str, list[dict[str, str]]]]) -> None:
    html, _ = fake(reply(404, b"<html>nope</html>", {"content-type": "text/html"}))
    with pytest.raises(MarketStubError) as info:
        connect(html).markets()
    assert info.value.code == "STUB_UNREACHABLE"
    assert "text/html: <html>nope</html>" in info.value.message
    not_json, _ = fake(reply(200, b"hello", {"content-type": "text/plain"}))
    with pytest.raises(MarketStubError) as shape:
        connect(not_json).markets()
    assert "not JSON" in shape.value.message
    wrong_shape, _ = fake(reply(200, b'{"a":1}'))
    with pytest.raises(MarketStubError) as unexpected:
        connect(wrong_shape).markets()
    assert "unexpected shape" in unexpected.value.message


def test_an_oversized_answer_is_refused(fake: Callable[[Handler], tuple[str, list[dict[str, str]]]]) -> None:
    url, _ = fake(reply(200, b"[" + b"1," * 2000 + b"1]"))
    with pytest.raises(MarketStubError) as info:
        connect(url, max_response_bytes=1024).markets()
    assert (info.value.code, info.value.option) == ("LIMIT_EXCEEDED", "max_response_bytes")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("ftp://127.0.0.1:1", "ftp://"),
        ("http://127.0.0.1:1/?q=1", "?q=1"),
        ("not a url", "not a url"),
        ("http://user:pw@127.0.0.1:1", "(a URL with credentials, not shown)"),
    ],
)
def test_a_bad_url_is_refused_before_anything_is_sent(url: str, shown: str) -> None:
    with pytest.raises(MarketStubError) as info:
        connect(url)
    assert (info.value.code, info.value.option) == ("OPTION_INVALID", "url")
    assert shown in info.value.message
    assert "pw@" not in info.value.message


def test_bad_options_are_refused_and_a_token_is_never_shown() -> None:
    with pytest.raises(MarketStubError) as token:
        connect("http://127.0.0.1:1", admin_token="bad\ntoken")
    assert "bad\ntoken" not in token.value.message
    assert connect("http://127.0.0.1:1/prefix/").url == "http://127.0.0.1:1/prefix"
    for kwargs in ({"timeout": 0}, {"timeout": True}, {"max_response_bytes": 10}):
        with pytest.raises(MarketStubError) as info:
            connect("http://127.0.0.1:1", **kwargs)
        assert info.value.code == "OPTION_INVALID"


def test_a_kept_alive_connection_the_server_closed_is_replaced(fake: Callable[[Handler], tuple[str, list[dict[str, str]]]]) -> None:
    def answer_then_hang_up(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.protocol_version = "HTTP/1.1"  # no "Connection: close": the client keeps the connection
        reply(200, b'{"count": 3}')(handler)
        handler.close_connection = True  # ...which the server closes right after

    url, seen = fake(answer_then_hang_up)
    client = connect(url)
    assert [client.request_count() for _ in range(3)] == [3, 3, 3]
    assert len(seen) == 3


def test_calls_on_one_client_reuse_one_connection(guarded: MarketStub) -> None:
    client = connect(guarded.url, admin_token=CONTRACT_TOKEN)
    client.reset()
    first = client._local.connection.sock.getsockname()
    for _ in range(5):
        client.clear_requests()
    assert client._local.connection.sock.getsockname() == first
