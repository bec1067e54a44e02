#!/usr/bin/env bash
# The Python package installed from source the way Python users install it, from a clean copy of
# the committed tree (`git archive HEAD`: no node_modules, no dist/, no _bundled/):
#   1. without Node on PATH, `pip install ./python` stops at build time, naming Node.js, and
#      installs nothing (never a package that installs and then fails);
#   2. with Node, `pip install ./python` bundles the CLI (python/hatch_build.py: npm ci, then
#      scripts/build-python.mjs, then the build stamp) and the installed package starts a stub
#      that answers GET /markets;
#   3. the sdist: built from that copy with NO Node on PATH (the stamp says the bundle was built
#      from these very sources, compared by content); a source changed by one byte makes the same
#      build need Node again; the sdist carries the bundled CLI and its stamp, installs where Node
#      is not on PATH, and the stub then starts with Node; an sdist with a bundle file missing is
#      refused at build time, naming what is wrong;
#   4. `pip install "git+file://…#subdirectory=python"` of a clone of the committed tree, how a
#      repository's Python package is installed, with Node: the hook bundles, the stub starts.
# Each pip or build run is bounded (BUILD_TIMEOUT_S, default 900 s: npm ci of a cold cache is the
# long part); npm run test:python bounds the whole script (1,800 s).
#
#   bash scripts/test-python-source-install.sh WORK_DIR
# Environment: PYTHON (default /usr/bin/python3), BUILD_TIMEOUT_S. Exit 0 when all four hold.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:?usage: test-python-source-install.sh WORK_DIR}"
PYTHON="${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 )}"
BUILD_TIMEOUT_S="${BUILD_TIMEOUT_S:-900}"
NODE_DIR="$(dirname "$(command -v node)")"
mkdir -p "$WORK"
# A PATH with every command of this one but node, npm, npx and corepack: one folder of links (node
# often shares /usr/bin with the tools pip and the shell need, so folders cannot just be dropped).
NO_NODE_BIN="$WORK/no-node-bin"
rm -rf "$NO_NODE_BIN" && mkdir -p "$NO_NODE_BIN"
IFS=':' read -r -a PATH_DIRS <<<"$PATH"
for dir in "${PATH_DIRS[@]}"; do
  [ -d "$dir" ] || continue
  for tool in "$dir"/*; do
    name="${tool##*/}"
    case "$name" in node|nodejs|npm|npx|corepack) continue ;; esac
    if [ -x "$tool" ] && [ ! -e "$NO_NODE_BIN/$name" ]; then ln -s "$tool" "$NO_NODE_BIN/$name"; fi
  done
done
NO_NODE_PATH="$NO_NODE_BIN"

echo "-- a clean copy of the committed tree (git archive HEAD)"
rm -rf "$WORK/src" && mkdir -p "$WORK/src"
git -C "$ROOT" archive HEAD | tar -x -C "$WORK/src"

# A fresh venv at $WORK/$1, made with Node on PATH (venv does not need it).
fresh_venv() {
  rm -rf "$WORK/$1"
  "$PYTHON" -m venv "$WORK/$1"
}

# smoke VENV: the installed package starts a stub (Node on PATH) and GET /markets answers 200 with 3 markets.
smoke() {
  (cd "$WORK" && "$WORK/$1/bin/python" - <<'PY'
import json
import urllib.request

from market_stub import MarketStub

with MarketStub.start(count=3, seed=7) as stub:
    with urllib.request.urlopen(f"{stub.url}/markets", timeout=30) as answer:
        markets = json.load(answer)
    assert answer.status == 200 and len(markets) == 3, (answer.status, markets)
    print(f"   started {stub.url}: GET /markets 200, {len(markets)} markets")
PY
  )
}

# refused VENV TARGET MESSAGE: `pip install TARGET` in a fresh venv with no Node on PATH stops at
# build time, its output says MESSAGE, and nothing is installed. Sets REFUSED (pip's exit code).
refused() {
  local code=0
  fresh_venv "$1"
  PATH="$NO_NODE_PATH" timeout "$BUILD_TIMEOUT_S" "$WORK/$1/bin/pip" install --quiet "$2" >"$WORK/$1.log" 2>&1 || code=$?
  if [ "$code" -eq 0 ]; then echo "pip install $2 succeeded without Node: it must stop at build time" >&2; exit 1; fi
  if ! grep -q "$3" "$WORK/$1.log"; then echo "pip's output does not say \"$3\":" >&2; tail -30 "$WORK/$1.log" >&2; exit 1; fi
  if "$WORK/$1/bin/python" -c 'import market_stub' 2>/dev/null; then echo "a package was installed after all" >&2; exit 1; fi
  REFUSED=$code
}

echo "-- 1. without Node on PATH: pip install ./python stops at build time, naming Node.js"
refused venv-no-node "$WORK/src/python" "cannot build the Python package: Node.js >= 20.19 is not on PATH"
echo "   refused (pip exit $REFUSED): $(grep -o 'cannot build the Python package: Node[^;]*PATH[^)]*)' "$WORK/venv-no-node.log" | head -1)"

# installs VENV TARGET: `pip install TARGET` in a fresh venv with Node on PATH (timed), then the smoke test.
installs() {
  local started
  fresh_venv "$1"
  started=$(date +%s)
  timeout "$BUILD_TIMEOUT_S" "$WORK/$1/bin/pip" install --quiet "$2"
  echo "   installed in $(( $(date +%s) - started )) s"
  smoke "$1"
}

echo "-- 2. with Node: pip install ./python bundles the CLI (npm ci and the bundle), and the package starts a stub"
installs venv-source "$WORK/src/python"

echo "-- 3. the sdist: built without Node from the stamped bundle, installed without Node, refused when incomplete"
fresh_venv venv-sdist-build
"$WORK/venv-sdist-build/bin/pip" install --quiet build hatchling
# build_sdist OUT_DIR LOG: python -m build --sdist of the clean copy, with no Node on PATH.
build_sdist() {
  rm -rf "$1" && PATH="$NO_NODE_PATH" timeout "$BUILD_TIMEOUT_S" "$WORK/venv-sdist-build/bin/python" -m build --sdist --no-isolation --outdir "$1" "$WORK/src/python" >"$2" 2>&1
}
build_sdist "$WORK/sdist" "$WORK/sdist.log" || { echo "the sdist could not be built without Node from the stamped bundle:" >&2; tail -30 "$WORK/sdist.log" >&2; exit 1; }
echo "   built without Node: $(grep -o 'market-stub: .*' "$WORK/sdist.log" | head -1)"
SDIST="$(ls "$WORK"/sdist/market_stub-*.tar.gz)"
# The listing goes to a file: `tar | grep -q` under pipefail fails when grep stops reading early (tar gets SIGPIPE).
tar -tzf "$SDIST" >"$WORK/sdist.files"
for name in cli.cjs cli-main.cjs cli-crawl.cjs manifest.json build-stamp.json; do
  grep -q "/src/market_stub/_bundled/$name\$" "$WORK/sdist.files" || { echo "$SDIST lacks _bundled/$name" >&2; exit 1; }
done
echo "   $(basename "$SDIST"): $(wc -l <"$WORK/sdist.files") files, the bundled CLI and its build stamp included"

# One byte more in a source the bundle is built from: the stamp no longer matches, so the same build needs Node.
printf '\n' >>"$WORK/src/src/cli.ts"
if build_sdist "$WORK/sdist-stale" "$WORK/sdist-stale.log"; then echo "an sdist was built without Node from a bundle older than its sources" >&2; exit 1; fi
grep -q "cannot build the Python package: Node.js >= 20.19 is not on PATH" "$WORK/sdist-stale.log" || { echo "the stale build did not name Node.js:" >&2; tail -30 "$WORK/sdist-stale.log" >&2; exit 1; }
echo "   src/cli.ts changed by one byte: the build without Node is refused, naming Node.js"
truncate -s -1 "$WORK/src/src/cli.ts"

fresh_venv venv-sdist
PATH="$NO_NODE_PATH" timeout "$BUILD_TIMEOUT_S" "$WORK/venv-sdist/bin/pip" install --quiet "$SDIST"
echo "   installed from the sdist with no Node on PATH"
PATH="$PATH:$NODE_DIR" smoke venv-sdist

# The sdist with one bundle file removed: refused at build time without Node, saying what is wrong.
rm -rf "$WORK/sdist-broken" && mkdir -p "$WORK/sdist-broken" && tar -xzf "$SDIST" -C "$WORK/sdist-broken"
BROKEN="$(ls -d "$WORK"/sdist-broken/market_stub-*)"
rm "$BROKEN/src/market_stub/_bundled/cli-crawl.cjs"
refused venv-sdist-broken "$BROKEN" "no usable bundled CLI: src/market_stub/_bundled/ lacks cli-crawl.cjs"
echo "   an sdist lacking _bundled/cli-crawl.cjs: refused (pip exit $REFUSED), naming the file"

echo "-- 4. pip install git+file://…#subdirectory=python (a clone of the committed tree, with Node)"
# A whole clone, not --depth 1: pip clones it again with --filter=blob:none, and git (2.39) fetching
# that way from a shallow repository over file:// loops on "filtering not recognized by server".
rm -rf "$WORK/clone" && git clone --quiet "file://$ROOT" "$WORK/clone"
installs venv-git "git+file://$WORK/clone#subdirectory=python"
echo "-- all four hold"
