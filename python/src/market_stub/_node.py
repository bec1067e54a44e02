"""Finding the Node.js that runs the bundled CLI: ``MARKET_STUB_NODE``, then ``node`` on ``PATH``."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from importlib import resources

from ._errors import MarketStubError

#: Longest wait for ``node --version``, seconds.
_VERSION_TIMEOUT = 10.0


def bundled_file(name: str) -> str:
    """Path of a file the wheel carries beside this module (``_launcher.cjs``, ``_bundled/manifest.json``)."""
    return str(resources.files(__package__ or "market_stub").joinpath(name))


@functools.lru_cache(maxsize=1)
def node_floor() -> tuple[int, int]:
    """The lowest Node the bundled CLI supports: package.json's ``engines.node`` (``>=20.19``), as ``(20, 19)``.

    Raises MarketStubError STUB_START_FAILED when the package was built without its bundled CLI.
    """
    try:
        with open(bundled_file("_bundled/manifest.json"), encoding="utf-8") as file:
            floor = str(json.load(file)["nodeFloor"])
    except (OSError, ValueError, KeyError) as error:
        raise MarketStubError(
            "STUB_START_FAILED",
            "market_stub: the bundled CLI is missing (_bundled/manifest.json); install the market-stub wheel, or in the repository run `npm run build:python`",
        ) from error
    major, minor = [*floor.split("."), "0"][:2]
    return int(major), int(minor)


@functools.lru_cache(maxsize=8)
def _version_of(node: str, mtime: float) -> tuple[int, int, int] | None:
    """``node --version`` as numbers, or None when it does not run or answers something else (cached per binary and mtime)."""
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=_VERSION_TIMEOUT, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.match(r"^v(\d+)\.(\d+)\.(\d+)", out.strip())
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _usable(node: str) -> tuple[int, int, int] | None:
    try:
        mtime = os.stat(node).st_mtime
    except OSError:
        return None
    return _version_of(node, mtime)


def find_node() -> str:
    """The Node binary to run the bundled CLI with.

    ``MARKET_STUB_NODE`` when set (it must run and meet the floor: a wrong setting is an error, not
    skipped), else ``node`` on ``PATH`` when it meets the floor (``engines`` of package.json).
    Raises MarketStubError NODE_NOT_FOUND saying what to install, or to set ``MARKET_STUB_URL`` to a
    stub already running (a CI service container) instead.
    """
    floor = node_floor()
    wanted = f"Node.js >= {floor[0]}.{floor[1]}"
    instead = (
        f"install {wanted} (https://nodejs.org/, or your system's package, e.g. apt-get install nodejs), "
        "set MARKET_STUB_NODE to the path of such a node binary, "
        "or set MARKET_STUB_URL to a stub already running (market-stub serve, the Docker image as a CI service) to use it instead of starting one"
    )
    configured = os.environ.get("MARKET_STUB_NODE")
    if configured:
        version = _usable(configured)
        if version is None:
            raise MarketStubError(
                "NODE_NOT_FOUND",
                f"MARKET_STUB_NODE={configured} does not run as node (`{configured} --version` failed); {instead}.",
                option="MARKET_STUB_NODE",
            )
        if version[:2] < floor:
            shown = ".".join(map(str, version))
            raise MarketStubError(
                "NODE_NOT_FOUND",
                f"MARKET_STUB_NODE={configured} is Node.js {shown}, older than {wanted}; {instead}.",
                option="MARKET_STUB_NODE",
            )
        return configured
    found = shutil.which("node")
    if found is None:
        raise MarketStubError("NODE_NOT_FOUND", f"market-stub needs {wanted} to start a stub and found no `node` on PATH; {instead}.")
    version = _usable(found)
    if version is None or version[:2] < floor:
        shown = "an unknown version" if version is None else "Node.js " + ".".join(map(str, version))
        raise MarketStubError(
            "NODE_NOT_FOUND", f"market-stub needs {wanted} to start a stub; `node` on PATH ({found}) is {shown}; {instead}."
        )
    return found
