"""Hatchling build hook: puts the bundled CLI (``src/market_stub/_bundled/``) into the sdist and wheel.

The Python package starts the stub with Node and the CLI bundled into ``_bundled/`` by
``scripts/build-python.mjs`` of the repository. Where the package is built decides what happens:

* a checkout of the repository (``pip install ./python``,
  ``pip install "git+https://…/market-stub.git#subdirectory=python"``, ``python -m build --sdist python``): the
  CLI is bundled here, with Node (>= the ``engines`` floor of package.json) and npm: ``npm ci`` first when
  ``node_modules/`` is missing, then ``node scripts/build-python.mjs`` (which proves the bundle from an empty
  folder); the hook then writes ``_bundled/build-stamp.json``: the package version, a SHA-256 of the sources the
  bundle was built from and one of the bundle itself. A bundle whose stamp names these sources and this version is
  reused (no Node needed);
* an sdist (no JavaScript sources beside it): the bundle it carries is used when its stamp names this version and
  its bytes match the stamp's digest (whole and unchanged); Node is not needed at build time (only to run a stub);
* otherwise the build stops with a message naming what is needed. A package that installs and then
  cannot start a stub is never built.

Environment: ``MARKET_STUB_NODE`` (a node binary, as the package itself reads it), else ``node`` on PATH.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Longest time ``npm ci`` and the bundle may take, seconds (a cold npm cache takes a few minutes).
STEP_TIMEOUT_S = 900
#: Files a complete bundle has (what python/build-wheel.sh checks in the wheel).
BUNDLE_FILES = ("manifest.json", "cli.cjs", "cli-main.cjs", "cli-crawl.cjs")


class BundleError(RuntimeError):
    """The CLI cannot be bundled here; the message says what is needed."""


def _fail(reason: str) -> BundleError:
    return BundleError(
        f"market-stub: cannot build the Python package: {reason}. "
        "The package runs the stub with a CLI bundled at build time; either build where Node.js and npm are installed "
        "(from a clone of the whole repository), or install a release's wheel or sdist, which carry the CLI already "
        "(docs/python.md, Install)."
    )


def _version(text: str) -> tuple[int, int]:
    match = re.match(r"v?(\d+)\.(\d+)", text.strip())
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _node(floor: str) -> str:
    """The node binary to build with: MARKET_STUB_NODE, else node on PATH, at least ``floor`` (``20.19``)."""
    node = os.environ.get("MARKET_STUB_NODE") or shutil.which("node")
    if not node:
        raise _fail(f"Node.js >= {floor} is not on PATH (nor MARKET_STUB_NODE)")
    found = subprocess.run([node, "--version"], capture_output=True, text=True, check=False, timeout=60).stdout
    if _version(found) < _version(floor):
        raise _fail(f"{node} is Node.js {found.strip() or 'of an unknown version'}, older than {floor}")
    return node


def _run(command: list[str], cwd: Path, what: str) -> None:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=STEP_TIMEOUT_S)
    except subprocess.TimeoutExpired as error:
        raise _fail(f"{what} took over {STEP_TIMEOUT_S} s") from error
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise _fail(f"{what} failed (exit {done.returncode}):\n{tail}\n")


#: What scripts/build-python.mjs builds the bundle from (as scripts/start.mjs judges dist/ out of date).
BUNDLE_INPUTS = ("src", "console", "schemas", "scripts", "package.json", "package-lock.json", "python/src/market_stub/_launcher.cjs")
#: The stamp this hook writes into ``_bundled/`` after a bundle is built: which sources it was built from, for
#: which version of the package, and the digest of what was built (so an sdist can be checked without the sources).
STAMP = "build-stamp.json"


def _digest(base: Path, names: list[str]) -> str:
    """SHA-256 (hex) over the files under ``base/name`` for each name: sorted relative paths, each with its bytes, length-prefixed."""
    files = sorted(
        {
            path.relative_to(base).as_posix()
            for name in names
            for path in ([base / name] if (base / name).is_file() else (base / name).rglob("*"))
            if path.is_file() and path.name != STAMP
        }
    )
    digest = hashlib.sha256()
    for relative in files:
        data = (base / relative).read_bytes()
        digest.update(f"{len(relative)}:{relative}:{len(data)}:".encode())
        digest.update(data)
    return digest.hexdigest()


def _bundle_digest(package_root: Path) -> str:
    """Digest of what a build carries for the CLI: every file of ``_bundled/`` (but the stamp) and ``_launcher.cjs``."""
    return _digest(package_root / "src" / "market_stub", ["_bundled", "_launcher.cjs"])


def _stamp(bundled: Path) -> dict[str, Any]:
    try:
        stamp = json.loads((bundled / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _stale(package_root: Path, version: str, sources: str | None) -> str | None:
    """Why the bundle in ``_bundled/`` cannot be used as it is (None: it can).

    ``sources`` is the digest of the repository's bundle inputs, or None in a tree without them (an sdist): the
    stamp then vouches for the sources, and what is checked is that the bundle is whole and unchanged since it was
    stamped, and that it was stamped for this version of the package.
    """
    bundled = package_root / "src" / "market_stub" / "_bundled"
    missing = [name for name in (*BUNDLE_FILES, STAMP) if not (bundled / name).is_file()]
    if missing:
        return f"src/market_stub/_bundled/ lacks {', '.join(missing)}"
    stamp = _stamp(bundled)
    if stamp.get("version") != version:
        return f"src/market_stub/_bundled/ was built for version {stamp.get('version')!r} of the package, not {version!r}"
    if sources is not None and stamp.get("sources") != sources:
        return "the repository's sources changed since src/market_stub/_bundled/ was built"
    if stamp.get("bundle") != _bundle_digest(package_root):
        return "a file of src/market_stub/_bundled/ or _launcher.cjs is missing, added or altered since the bundle was stamped"
    return None


def _write_stamp(package_root: Path, version: str, sources: str) -> None:
    stamp = {"version": version, "sources": sources, "bundle": _bundle_digest(package_root)}
    target = package_root / "src" / "market_stub" / "_bundled" / STAMP
    partial = target.with_suffix(".tmp")
    partial.write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    partial.replace(target)


def bundle(package_root: Path, version: str) -> str:
    """Bundles the CLI into ``src/market_stub/_bundled/`` when needed; returns what was done, for the build log.

    ``version`` is the Python package's version (pyproject.toml). In the repository, a bundle is reused when its stamp
    names the same sources (a SHA-256 of BUNDLE_INPUTS, not modification times, which copies and archives do not
    keep) and the same version; otherwise it is built again and stamped. In a tree without the JavaScript sources (an
    sdist), the bundle it carries is used when its stamp matches this version and the bundle's own bytes.

    :raises BundleError: naming what is needed (Node.js and npm, or a source tree with the JavaScript sources).
    """
    repository = package_root.parent
    in_repository = (repository / "scripts" / "build-python.mjs").is_file() and (repository / "package.json").is_file()
    if not in_repository:
        why = _stale(package_root, version, None)
        if why is None:
            return "the bundled CLI this source tree carries is whole and stamped for this version"
        raise _fail(
            f"this source tree has no usable bundled CLI: {why}; and it lacks the repository's JavaScript sources to build one. "
            "Build the sdist again from the repository (python -m build --sdist python)"
        )
    sources = _digest(repository, list(BUNDLE_INPUTS))
    why = _stale(package_root, version, sources)
    if why is None:
        return "the bundled CLI was built from these sources (build stamp)"
    floor = str(json.loads((repository / "package.json").read_text(encoding="utf-8"))["engines"]["node"]).removeprefix(">=")
    node = _node(floor)
    if not (repository / "node_modules" / ".package-lock.json").is_file():
        npm = shutil.which("npm")
        if not npm:
            raise _fail("npm is not on PATH (it installs the JavaScript dependencies the CLI is bundled from)")
        _run([npm, "ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], repository, "npm ci")
    _run([node, str(repository / "scripts" / "build-python.mjs")], repository, "node scripts/build-python.mjs")
    _write_stamp(package_root, version, sources)
    return f"bundled the CLI with {node} ({why})"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Runs :func:`bundle` before the sdist and the wheel are built (both carry ``_bundled/``)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self.app.display_info(f"market-stub: {bundle(Path(self.root), self.metadata.version)}")
