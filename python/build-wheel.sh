#!/usr/bin/env bash
# Builds the wheel of the Python package into python/dist/ (hatchling, through `python -m build`):
#   1. a build venv (python/.venv-build, made once with `python3 -m venv`, build + hatchling);
#   2. python -m build --wheel --no-isolation: the build hook (python/hatch_build.py) runs
#      node scripts/build-python.mjs, the bundled CLI in src/market_stub/_bundled/, proven from an
#      empty folder (it runs `npm run build` first when dist/ is missing);
#   3. a check that the wheel carries _bundled/.
# Environment: PYTHON (default /usr/bin/python3 when present, else python3).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
PYTHON="${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 )}"
VENV="$HERE/.venv-build"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import build, hatchling' 2>/dev/null; then
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet build hatchling
fi
rm -rf "$HERE/dist"
LOG="$(mktemp)"
if ! "$VENV/bin/python" -m build --wheel --no-isolation --outdir "$HERE/dist" "$HERE" >"$LOG" 2>&1; then
  cat "$LOG" >&2
  rm -f "$LOG"
  exit 1
fi
grep -E "market-stub: " "$LOG" || true
rm -f "$LOG"
WHEEL="$(ls "$HERE"/dist/market_stub-*.whl)"
"$VENV/bin/python" - "$WHEEL" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
needed = ["market_stub/_bundled/cli.cjs", "market_stub/_bundled/cli-main.cjs", "market_stub/_bundled/cli-crawl.cjs", "market_stub/_launcher.cjs", "market_stub/py.typed"]
missing = [n for n in needed if n not in names]
if missing:
    sys.exit(f"build-wheel: {sys.argv[1]} lacks {', '.join(missing)}")
print(f"build-wheel: {sys.argv[1]} ({len(names)} files)")
PY
