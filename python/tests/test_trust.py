"""Trust at the Python edges (issue 41): the launcher learns the stub's URL only from the CLI's ready
record (never from console text that can echo an option), the pytest plugin never prints the admin
token, a client timeout is a deadline over the whole call, and hostile answers end in a clean error."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from market_stub import MarketStub, MarketStubError, connect, find_node

SECRET = "s3cret-admin-token-41"


class _Capture(http.server.BaseHTTPRequestHandler):
    """Records every request line and Authorization header that reaches it (a server an attacker would run)."""

    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self._record()

    def do_POST(self) -> None:
        self._record()

    def _record(self) -> None:
        type(self).seen.append(f"{self.command} {self.path} {self.headers.get('authorization')}")
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def capture() -> Iterator[tuple[str, list[str]]]:
    """A server recording what reaches it: (its base URL, the requests seen)."""
    _Capture.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Capture)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Capture.seen
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("shape", ["same line", "after a newline"])
def test_an_option_echoing_a_ready_line_is_refused_and_the_token_goes_nowhere(capture: tuple[str, list[str]], shape: str) -> None:
    url, seen = capture
    clock = f"listening on {url}/capture" if shape == "same line" else f"x\nmarket-stub listening on {url}"
    with pytest.raises(MarketStubError) as info, MarketStub.start(clock=clock, admin_token=SECRET, start_timeout=20) as stub:
        stub.reset()
    assert info.value.code == "OPTION_INVALID"
    assert "--clock" in info.value.message
    assert seen == []


def _fake_node(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-node"
    script.write_text(f'#!/bin/sh\nif [ "$1" = "--version" ]; then exec {find_node()} --version; fi\n{body}\n')
    script.chmod(0o755)
    return str(script)


def test_a_child_printing_a_ready_line_without_the_record_is_not_started(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capture: tuple[str, list[str]]
) -> None:
    url, seen = capture
    monkeypatch.setenv("MARKET_STUB_NODE", _fake_node(tmp_path, f"echo 'market-stub listening on {url} serving x'\nexec sleep 30"))
    with pytest.raises(MarketStubError) as info:
        MarketStub.start(admin_token=SECRET, start_timeout=1.5)
    assert info.value.code == "STUB_START_FAILED"
    assert "no ready record" in info.value.message
    assert seen == []


def _record_writer(url: str, pid: str, then: str) -> str:
    """A fake node's script body writing a well-formed ready record (naming ``url`` and ``pid``) to its ``--ready-file``."""
    record = f'printf \'{{"marketStub":"ready","command":"serve","url":"{url}","pid":%s}}\\n\' {pid} > "$last"'
    return f'for a; do last="$a"; done\npid=$$\n{then.format(record=record)}'


@pytest.mark.parametrize(
    ("case", "pid", "then"),
    [
        # Exits at once; a leftover of it writes the record (with the child's pid) after.
        ("a child that exited", "$pid", "(sleep 0.5; {record}) &\nexit 0"),
        ("another pid", "1", "{record}\nexec sleep 30"),
    ],
)
def test_a_ready_record_from_a_child_that_exited_or_of_another_pid_is_not_trusted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capture: tuple[str, list[str]], case: str, pid: str, then: str
) -> None:
    url, seen = capture
    monkeypatch.setenv("MARKET_STUB_NODE", _fake_node(tmp_path, _record_writer(url, pid, then)))
    with pytest.raises(MarketStubError) as info:
        MarketStub.start(admin_token=SECRET, start_timeout=10)
    assert info.value.code == "STUB_START_FAILED", case
    assert seen == []


def test_the_ready_record_is_removed_at_close_and_the_stub_serves_its_url() -> None:
    with MarketStub.start(count=2) as stub:
        record = Path(stub._folder, "ready.json")
        assert record.is_file()
        assert stub.url in record.read_text(encoding="utf-8")
        assert len(stub.markets()) == 2


# -- the pytest plugin prints no token --------------------------------------------------------------


def test_skip_reasons_usage_errors_and_junit_xml_never_show_the_admin_token(pytester: pytest.Pytester) -> None:
    with MarketStub.start(count=2, admin_token=SECRET) as external:
        pytester.makepyfile(
            f"""
            import pytest

            @pytest.mark.market_stub(seed=3, admin_token={SECRET!r})
            def test_other_options(market_stub):
                pass
            """
        )
        result = pytester.runpytest_subprocess(
            "--market-stub-url", external.url, "--market-stub-admin-token", SECRET, "-rs", "--junitxml=report.xml", "-l"
        )
        result.assert_outcomes(skipped=1)
        assert "cannot be applied" in result.stdout.str()
        assert SECRET not in result.stdout.str() + result.stderr.str()
        assert SECRET not in (pytester.path / "report.xml").read_text(encoding="utf-8")
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.market_stub(no_such_option=1, admin_token={SECRET!r})
        def test_unknown(market_stub):
            pass
        """
    )
    result = pytester.runpytest_subprocess("-l", "--junitxml=report.xml")
    assert result.ret != 0
    assert "no_such_option" in result.stdout.str() + result.stderr.str()
    assert SECRET not in result.stdout.str() + result.stderr.str()


def test_an_admin_token_option_alone_applies_to_an_external_stub_and_a_wrong_one_fails(pytester: pytest.Pytester) -> None:
    with MarketStub.start(count=2, admin_token=SECRET) as external:
        pytester.makeconftest(
            f"""
            import pytest

            @pytest.fixture(scope="session")
            def market_stub_options():
                return {{"admin_token": {SECRET!r}}}
            """
        )
        pytester.makepyfile("def test_runs(market_stub):\n    assert len(market_stub.markets()) == 2\n")
        result = pytester.runpytest_subprocess("--market-stub-url", external.url)
        result.assert_outcomes(passed=1)
        pytester.makeconftest(
            """
            import pytest

            @pytest.fixture(scope="session")
            def market_stub_options():
                return {"admin_token": "not-the-token"}
            """
        )
        result = pytester.runpytest_subprocess("--market-stub-url", external.url)
        result.assert_outcomes(errors=1)
        assert "not-the-token" not in result.stdout.str()
        result = pytester.runpytest_subprocess("--market-stub-url", external.url, "--market-stub-admin-token", SECRET)
        result.assert_outcomes(errors=1)
        assert "differs from --market-stub-admin-token" in result.stdout.str()
        assert SECRET not in result.stdout.str() + result.stderr.str()


# -- deadlines and hostile answers ------------------------------------------------------------------


def _serve_raw(answer: bytes, dribble: float = 0.0) -> tuple[str, threading.Event]:
    """A one-connection-at-a-time server answering every request with ``answer``, a byte every ``dribble`` s."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def run() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                try:
                    conn.recv(65536)
                    if dribble:
                        for byte in answer:
                            if stop.is_set():
                                break
                            conn.sendall(bytes([byte]))
                            time.sleep(dribble)
                    else:
                        conn.sendall(answer)
                except OSError:
                    pass
        listener.close()

    threading.Thread(target=run, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}", stop


def _http_answer(status: str, body: bytes, close: bool = True) -> bytes:
    head = f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n{'connection: close' + chr(13) + chr(10) if close else ''}\r\n"
    return head.encode() + body


def _raised(answer: bytes, call: Callable[[str], object], dribble: float = 0.0) -> MarketStubError:
    """The MarketStubError ``call(url)`` raises against a server answering ``answer``."""
    url, stop = _serve_raw(answer, dribble)
    try:
        with pytest.raises(MarketStubError) as info:
            call(url)
    finally:
        stop.set()
    return info.value


def test_a_timeout_is_a_deadline_over_the_whole_call_against_a_dribbling_server() -> None:
    started = time.monotonic()
    error = _raised(
        _http_answer("200 OK", b'{"markets":[]}' * 20, close=False), lambda url: connect(url, timeout=1.5).markets(), dribble=0.25
    )
    took = time.monotonic() - started
    assert error.code == "STUB_UNREACHABLE"
    assert "1.5 s" in error.message
    assert took < 3.0, f"a 1.5 s timeout held the call for {took:.1f} s"


def test_a_deeply_nested_answer_is_a_clean_error_not_a_recursion_error() -> None:
    error = _raised(_http_answer("200 OK", b"[" * 1_000_000 + b"]" * 1_000_000), lambda url: connect(url, timeout=10).markets())
    assert error.code == "STUB_UNREACHABLE"
    assert "nested" in error.message


def test_an_admin_error_body_echoing_the_token_is_redacted_in_the_message() -> None:
    body = f'{{"status":400,"error":"option_invalid","message":"PUT /__stub/behaviour: token {SECRET} echoed","found":"{SECRET}"}}'
    error = _raised(
        _http_answer("400 Bad Request", body.encode()),
        lambda url: connect(url, admin_token=SECRET, timeout=5).set_behaviour({"status": 503}),
    )
    assert error.code == "OPTION_INVALID"
    assert SECRET not in str(error) + repr(error) + str(error.found)
    assert "[redacted]" in error.message
