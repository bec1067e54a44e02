"""MarketStub: a stub started from Python, the bundled CLI's ``serve`` in a child process.

The child is ``node _launcher.cjs [flags]`` on port 0 (the launcher runs ``_bundled/cli.cjs serve``
in the same process); its URL comes only from the ready record the CLI writes to ``--ready-file``
(a file in this stub's private temporary folder, docs/serving.md "Waiting for the ready record"), read
while the child still runs and naming the child's own pid; never from the child's console output,
which can echo an option's value.
No child outlives its use: ``close()`` (the ``with`` block's end, on an exception or
KeyboardInterrupt too) stops it, an ``atexit`` hook stops every stub still open at interpreter exit,
and when the Python process dies without either (SIGKILL, a killed xdist worker) the launcher sees
its stdin pipe close and stops itself.
"""

from __future__ import annotations

import atexit
import collections
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

from ._client import DEFAULT_TIMEOUT, MarketStubClient
from ._errors import MarketStubError
from ._node import bundled_file, find_node
from ._types import Behaviour, DeviationSetting, Lifecycle, Profile, RuleInput

#: Default longest wait for the ready record, seconds.
DEFAULT_START_TIMEOUT = 30.0
#: Longest wait for a graceful stop after stdin closes, then after SIGTERM, seconds (then SIGKILL).
_STOP_WAIT = 5.0
#: Lines of the child's output kept for error messages (the rest is read and dropped).
_KEPT_LINES = 200
#: How often the ready record's file is looked for while the child starts, seconds.
_READY_POLL = 0.02
#: The only URL a ready record may name: the CLI's ``stub.url`` (http, a host, a port; no user, path or query).
_READY_URL = re.compile(r"^http://(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$")

#: Most behaviour rules at start (MAX_RULES of src/floor/limits.ts, docs/limits.md): more is OPTION_INVALID before anything starts.
MAX_RULES = 10_000

#: Behaviour fields → serve flags (src/options/tables/serve-options.ts, BEHAVIOUR_OPTIONS).
_BEHAVIOUR_FLAGS = {
    "delayMs": "delay",
    "jitterMs": "jitter",
    "status": "status",
    "retryAfter": "retry-after",
    "errorRate": "error-rate",
    "fault": "fault",
}
#: Profile fields → serve flags.
_PROFILE_FLAGS = {
    "envelope": "envelope",
    "paging": "paging",
    "pageSize": "page-size",
    "maxPageSize": "max-page-size",
    "errors": "errors",
    "filterStatus": "filter-status",
}

_open_stubs: weakref.WeakSet[MarketStub] = weakref.WeakSet()


def _close_all_at_exit() -> None:
    for stub in list(_open_stubs):
        stub.close()


atexit.register(_close_all_at_exit)


def _forget_in_forked_child() -> None:
    """A child made by ``os.fork`` (``multiprocessing``'s fork start method) leaves its parent's stubs alone.

    It inherited their objects and stdin pipes: it closes its copies of the pipes, so only the parent
    holds each stub's pipe, and forgets them, so neither its ``atexit`` hook nor a ``close()`` in it
    stops a stub the parent still serves from. The stub is the parent's to stop.
    """
    for stub in list(_open_stubs):
        stub._forget_after_fork()
    _open_stubs.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_forked_child)


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _flag_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def _mapped_flags(name: str, given: Mapping[str, Any], table: Mapping[str, str]) -> list[str]:
    """``{"delay_ms": 200}`` (snake_case or the admin API's camelCase) → ``["--delay", "200"]``."""
    if not isinstance(given, Mapping):
        raise MarketStubError(
            "OPTION_INVALID",
            f"MarketStub.start: {name}: expected a dict such as {{{next(iter(table))!r}: ...}}, found {given!r}",
            option=name,
        )
    flags: list[str] = []
    for key, value in given.items():
        field = _camel(str(key))
        if field not in table:
            known = ", ".join(table)
            hint = (
                " (dribbleMs applies to rules only: pass rules=[{'match': {}, 'behaviour': {'dribbleMs': ...}}])"
                if field == "dribbleMs"
                else ""
            )
            raise MarketStubError(
                "OPTION_INVALID",
                f"MarketStub.start: {name}.{key}: expected a known field ({known}){hint}, found {key!r}",
                option=f"{name}.{key}",
                expected=known,
                found=str(key),
            )
        if value is not None:
            flags += [f"--{table[field]}", _flag_value(value)]
    return flags


def _deviation_flags(deviations: Sequence[str | DeviationSetting]) -> list[str]:
    """``["string-price", {"name": "item-bom", "rate": 0.1}]`` → ``--deviation string-price --deviation item-bom=0.1``."""
    if isinstance(deviations, (str, bytes)) or not isinstance(deviations, Iterable):
        raise MarketStubError(
            "OPTION_INVALID",
            f"MarketStub.start: deviations: expected a list of names or {{'name', 'rate'}} dicts, found {deviations!r}",
            option="deviations",
        )
    flags: list[str] = []
    for i, setting in enumerate(deviations):
        if isinstance(setting, str):
            flags += ["--deviation", setting]
            continue
        if not isinstance(setting, Mapping) or not isinstance(setting.get("name"), str):
            raise MarketStubError(
                "OPTION_INVALID",
                f"MarketStub.start: deviations[{i}]: expected a name or {{'name': ..., 'rate': ...}}, found {setting!r}",
                option=f"deviations[{i}]",
            )
        if setting.get("marketIds") is not None or setting.get("market_ids") is not None:
            raise MarketStubError(
                "OPTION_INVALID",
                f"MarketStub.start: deviations[{i}].marketIds: a start-up deviation applies to every market or a seeded rate of them; "
                "for named markets call stub.set_deviations([...]) after start (reset() then clears it)",
                option=f"deviations[{i}].marketIds",
            )
        rate = setting.get("rate")
        flags += ["--deviation", setting["name"] if rate is None else f"{setting['name']}={_flag_value(rate)}"]
    return flags


def _list_flags(flag: str, values: Iterable[str] | None) -> list[str]:
    return [part for value in (values or []) for part in (f"--{flag}", str(value))]


def _refuse_nul(args: Sequence[str]) -> None:
    """OPTION_INVALID for a value holding NUL (U+0000): no process argument can carry one (``ValueError: embedded null byte``)."""
    for i, value in enumerate(args):
        if "\0" in value:
            flag = args[i - 1] if i > 0 and args[i - 1].startswith("--") else value
            option = flag.lstrip("-").replace("-", "_")
            raise MarketStubError(
                "OPTION_INVALID",
                f"MarketStub.start: {option}: expected a value without a NUL character (U+0000), found one with it",
                option=option,
                expected="a value without a NUL character (U+0000)",
            )


def _rules_json(rules: Sequence[RuleInput | Mapping[str, Any]]) -> str:
    """The rules as the JSON text of ``--behaviours``. Raises MarketStubError OPTION_INVALID for more than MAX_RULES or a value JSON cannot carry."""
    if isinstance(rules, (str, bytes, Mapping)) or not isinstance(rules, Iterable):
        raise MarketStubError(
            "OPTION_INVALID", f"MarketStub.start: rules: expected a list of rules, found {type(rules).__name__}", option="rules"
        )
    given = list(rules)
    if len(given) > MAX_RULES:
        raise MarketStubError(
            "OPTION_INVALID",
            f"MarketStub.start: rules: expected at most {MAX_RULES} rules (MAX_RULES, docs/limits.md), found {len(given)}",
            option="rules",
            expected=f"at most {MAX_RULES} rules",
            found=str(len(given)),
        )
    try:
        return json.dumps(given, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise MarketStubError(
            "OPTION_INVALID",
            f"MarketStub.start: rules: expected JSON values (no sets, NaN, Infinity or other objects JSON cannot carry): {error}",
            option="rules",
            expected="JSON values",
        ) from None


def _child_env(admin_token: str | None) -> dict[str, str]:
    """The parent's environment without ``MARKET_STUB_*`` (each would set a serve option unseen), plus the token."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MARKET_STUB_") and key not in ("PORT", "HOST")}
    if admin_token is not None:
        env["MARKET_STUB_ADMIN_TOKEN"] = admin_token
    return env


class _Output:
    """Reads a child's stdout and stderr on daemon threads and keeps the last lines, for error messages only.

    Nothing in them is trusted: the URL comes from the ready record (_read_ready_record).
    """

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=_KEPT_LINES)
        self._threads = [
            threading.Thread(target=self._read, args=(stream,), daemon=True, name="market-stub-output")
            for stream in (process.stdout, process.stderr)
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, stream: IO[str] | None) -> None:
        if stream is None:
            return
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def text(self) -> str:
        return "\n".join(self.lines)

    def finish(self, timeout: float) -> None:
        """Waits (at most ``timeout`` seconds) until both streams are read to their end: a child that exited has said everything."""
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))


def _read_ready_record(file: str, pid: int) -> str | None:
    """The URL in the ready record at ``file`` once the CLI wrote it, else None (not there yet).

    The record (src/cli/ready-record.ts) is written atomically, so a file that exists is whole. It
    must be ``{"marketStub": "ready", "command": "serve", "url": "http://HOST:PORT", "pid": <the child's pid>}``.
    Raises MarketStubError STUB_START_FAILED for a record of another shape.
    """
    try:
        with open(file, encoding="utf-8") as handle:
            text = handle.read(4096)
    except FileNotFoundError:
        return None
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        record = None
    url = record.get("url") if isinstance(record, dict) else None
    port = _READY_URL.match(url) if isinstance(url, str) else None
    if (
        not isinstance(record, dict)
        or record.get("marketStub") != "ready"
        or record.get("command") != "serve"
        or record.get("pid") != pid
        or port is None
        or not 0 < int(port[1]) < 65536
    ):
        raise MarketStubError("STUB_START_FAILED", f"MarketStub.start: the ready record {file} is not the one market-stub serve writes")
    return str(url)


def _wait_for_ready(process: subprocess.Popen[str], file: str, start_timeout: float) -> str | None:
    """The stub's URL from its ready record, read while the child still runs; None when it exited first.

    Raises TimeoutError when neither happened within ``start_timeout`` seconds.
    """
    deadline = time.monotonic() + start_timeout
    while True:
        url = _read_ready_record(file, process.pid)
        # The record counts only from a child still running: one that wrote it and exited is not ready.
        if process.poll() is not None:
            return None
        if url is not None:
            return url
        if time.monotonic() >= deadline:
            raise TimeoutError
        time.sleep(_READY_POLL)


class MarketStub(MarketStubClient):
    """A stub running in a child process, with every control of MarketStubClient; a context manager.

    Start one with ``MarketStub.start(seed=…, count=…)``; ``with MarketStub.start() as stub:`` stops
    it at the block's end. ``url`` is its base URL (``http://127.0.0.1:PORT``).
    """

    def __init__(
        self, process: subprocess.Popen[str], output: _Output, url: str, folder: str, admin_token: str | None, timeout: float
    ) -> None:
        super().__init__(url, admin_token=admin_token, timeout=timeout)
        self._process = process
        self._output = output
        self._folder = folder
        self._closed = False
        self._close_lock = threading.Lock()
        _open_stubs.add(self)

    @classmethod
    def start(
        cls,
        *,
        seed: int | None = None,
        count: int | None = None,
        clock: str | datetime.date | None = None,
        lifecycle: Lifecycle | None = None,
        fixtures: str | os.PathLike[str] | None = None,
        watch: bool = False,
        deviations: Sequence[str | DeviationSetting] | None = None,
        profile: Profile | Mapping[str, Any] | None = None,
        behaviour: Behaviour | Mapping[str, Any] | None = None,
        rules: Sequence[RuleInput | Mapping[str, Any]] | None = None,
        admin_token: str | None = None,
        journal_size: int | None = None,
        journal_bytes: int | None = None,
        journal_headers: str | None = None,
        redact_headers: Sequence[str] | None = None,
        redact_query: Sequence[str] | None = None,
        cors: bool | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        shutdown_grace_ms: int | None = None,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> MarketStub:
        """Starts ``market-stub serve`` (the CLI bundled in this package) and waits for its ready record.

        Options are ``startMarketStub``'s in snake_case: a generated catalog (``seed``, ``count``,
        ``clock`` YYYY-MM-DD) or ``fixtures`` (a JSON file or folder; ``watch`` reloads it);
        ``lifecycle`` (``"off"``, ``"generic"`` or ``"kalshi"``: generated markets open, close and resolve
        as the stub clock moves, docs/lifecycle.md; ``--lifecycle``);
        ``deviations`` (names, or ``{"name", "rate"}``), ``profile`` and ``behaviour`` (dicts, keys in
        snake_case or camelCase), ``rules`` (behaviour rules), the journal's options, ``admin_token``
        (passed in the environment, never on the command line). ``port`` 0 picks a free port.
        ``start_timeout`` bounds the wait for the ready record, ``timeout`` each control call (seconds).
        Raises MarketStubError: NODE_NOT_FOUND (no suitable Node), OPTION_INVALID (a bad option, in the
        CLI's words), STUB_START_FAILED (the CLI exited or never wrote its ready record).
        """
        # The token and timeout are checked before anything starts (the client's own checks, no request sent).
        MarketStubClient("http://127.0.0.1", admin_token=admin_token, timeout=timeout)
        args = ["--port", str(port), "--host", host, "--quiet"]
        for flag, value in (
            ("seed", seed),
            ("count", count),
            ("clock", clock),
            ("lifecycle", lifecycle),
            ("journal-size", journal_size),
            ("journal-bytes", journal_bytes),
        ):
            if value is not None:
                args += [f"--{flag}", _flag_value(value)]
        for flag, value in (("journal-headers", journal_headers), ("shutdown-grace", shutdown_grace_ms)):
            if value is not None:
                args += [f"--{flag}", _flag_value(value)]
        if fixtures is not None:
            args += ["--fixtures", os.path.abspath(os.fspath(fixtures))]
        if watch:
            args += ["--watch"]
        if cors is not None:
            args += ["--cors", "on" if cors else "off"]
        args += _deviation_flags(deviations or [])
        args += _mapped_flags("profile", profile or {}, _PROFILE_FLAGS)
        args += _mapped_flags("behaviour", behaviour or {}, _BEHAVIOUR_FLAGS)
        args += _list_flags("redact-header", redact_headers) + _list_flags("redact-query", redact_query)
        _refuse_nul(args)
        rules_text = _rules_json(rules) if rules else None
        folder = tempfile.mkdtemp(prefix="market-stub-")
        try:
            if rules_text is not None:
                rules_file = os.path.join(folder, "rules.json")
                with open(rules_file, "w", encoding="utf-8") as file:
                    file.write(rules_text)
                args += ["--behaviours", rules_file]
            return cls._spawn(find_node(), args, folder, admin_token, start_timeout, timeout)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise

    @classmethod
    def _spawn(cls, node: str, args: list[str], folder: str, admin_token: str | None, start_timeout: float, timeout: float) -> MarketStub:
        posix = os.name == "posix"
        ready_file = os.path.join(folder, "ready.json")
        process = subprocess.Popen(
            [node, bundled_file("_launcher.cjs"), *args, "--ready-file", ready_file],
            cwd=folder,  # an empty folder: no market-stub.config.json is picked up by accident
            env=_child_env(admin_token),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            # Its own process group: a terminal's Ctrl-C reaches Python, which closes the stub in order.
            start_new_session=posix,
            creationflags=0 if posix else getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
        )
        output = _Output(process)
        try:
            url = _wait_for_ready(process, ready_file, start_timeout)
        except TimeoutError:
            _stop(process)
            raise MarketStubError(
                "STUB_START_FAILED",
                f"MarketStub.start: market-stub serve wrote no ready record within {start_timeout:g} s:\n{output.text()}",
            ) from None
        except BaseException:
            _stop(process)
            raise
        if url is None:
            code = process.wait()
            output.finish(_STOP_WAIT)
            text = output.text()
            kind = "OPTION_INVALID" if code == 2 and "expected" in text else "STUB_START_FAILED"
            raise MarketStubError(kind, f"MarketStub.start: market-stub serve exited with {code} before it was ready:\n{text}")
        try:
            return cls(process, output, url, folder, admin_token, timeout)
        except BaseException:
            _stop(process)
            raise

    @property
    def pid(self) -> int:
        """Process id of the Node process serving the stub."""
        return self._process.pid

    @property
    def output(self) -> str:
        """The last lines the stub wrote (ready line, warnings), for diagnostics."""
        return self._output.text()

    def _forget_after_fork(self) -> None:
        """In a forked child: close this copy of the stdin pipe and mark the stub closed here, without stopping it."""
        self._closed = True
        try:
            if self._process.stdin is not None:
                os.close(self._process.stdin.fileno())
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        """Stops the stub and waits for its process to end (stdin closed, then SIGTERM, then SIGKILL). Safe to call twice.

        In a child made by ``os.fork`` after the stub started it does nothing: the stub is the parent's.
        """
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        _stop(self._process)
        shutil.rmtree(self._folder, ignore_errors=True)
        _open_stubs.discard(self)

    @property
    def closed(self) -> bool:
        """Whether close() ran."""
        return self._closed

    def __enter__(self) -> MarketStub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MarketStub({self.url!r}, pid={self._process.pid}{', closed' if self._closed else ''})"


def _stop(process: subprocess.Popen[str]) -> None:
    """Ends the child: EOF on its stdin (a graceful stop), then SIGTERM to its group, then SIGKILL."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    for step in ("wait", "term", "kill"):
        if step == "term":
            _signal(process, signal.SIGTERM)
        elif step == "kill":
            _signal(process, getattr(signal, "SIGKILL", signal.SIGTERM))
        try:
            process.wait(timeout=_STOP_WAIT)
            return
        except subprocess.TimeoutExpired:
            continue


def _signal(process: subprocess.Popen[str], sig: int) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass
