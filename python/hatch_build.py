"""Hatchling build hook: puts the bundled CLI (``src/market_stub/_bundled/``) into the sdist and wheel.

The Python package starts the stub with Node and the CLI bundled into ``_bundled/`` by
``scripts/build-python.mjs`` of the repository. Where the package is built decides what happens:

* an sdist or a release's source already carries ``_bundled/`` (``manifest.json`` and ``cli.cjs``):
  nothing to build, Node is not needed at build time (only to run a stub);
* a checkout of the repository (``pip install ./python``,
  ``pip install "git+https://…/market-stub.git#subdirectory=python"``): the CLI is bundled here, with
  Node (>= the ``engines`` floor of package.json) and npm: ``npm ci`` first when ``node_modules/`` is
  missing, then ``node scripts/build-python.mjs`` (which proves the bundle from an empty folder);
* neither: the build stops with a message naming what is needed. A package that installs and then
  cannot start a stub is never built.

Environment: ``MARKET_STUB_NODE`` (a node binary, as the package itself reads it), else ``node`` on PATH.
"""

from __future__ import annotations

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


def _newest_mtime(path: Path) -> float:
    if path.is_file():
        return path.stat().st_mtime
    return max((Path(folder, name).stat().st_mtime for folder, _, names in os.walk(path) for name in names), default=0.0)


def _fresh(bundled: Path, repository: Path) -> bool:
    """Whether a complete bundle is newer than every input (make's rule): pip asks for metadata, then the wheel, each in its own process."""
    if not all((bundled / name).is_file() for name in BUNDLE_FILES):
        return False
    built = min((bundled / name).stat().st_mtime for name in BUNDLE_FILES)
    return all(_newest_mtime(repository / name) < built for name in BUNDLE_INPUTS)


def bundle(package_root: Path) -> str:
    """Bundles the CLI into ``src/market_stub/_bundled/`` when needed; returns what was done, for the build log.

    :raises BundleError: naming what is needed (Node.js and npm, or a source tree with the JavaScript sources).
    """
    bundled = package_root / "src" / "market_stub" / "_bundled"
    repository = package_root.parent
    in_repository = (repository / "scripts" / "build-python.mjs").is_file() and (repository / "package.json").is_file()
    if not in_repository:
        if all((bundled / name).is_file() for name in BUNDLE_FILES):
            return "the bundled CLI is in this source tree already"
        raise _fail(
            "this source tree has neither the bundled CLI (src/market_stub/_bundled/) nor the repository's JavaScript sources to build it from"
        )
    if _fresh(bundled, repository):
        return "the bundled CLI is newer than its sources"
    floor = str(json.loads((repository / "package.json").read_text(encoding="utf-8"))["engines"]["node"]).removeprefix(">=")
    node = _node(floor)
    if not (repository / "node_modules" / ".package-lock.json").is_file():
        npm = shutil.which("npm")
        if not npm:
            raise _fail("npm is not on PATH (it installs the JavaScript dependencies the CLI is bundled from)")
        _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], repository, "npm ci")
    _run([node, str(repository / "scripts" / "build-python.mjs")], repository, "node scripts/build-python.mjs")
    return f"bundled the CLI with {node}"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Runs :func:`bundle` before the sdist and the wheel are built (both carry ``_bundled/``)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self.app.display_info(f"market-stub: {bundle(Path(self.root))}")
