#!/usr/bin/env bash
# The Python package's checks (npm run test:python [-- --quick]), each a step that passes or fails:
#   wheel       python/build-wheel.sh: the bundled CLI (proven from an empty folder) and the wheel
#   mypy, ruff  mypy --strict and ruff (check + format --check) on python/src and python/tests
#   pytest      the package's own tests against the installed wheel, under pytest -n 2
#   consumers   each folder of test/python-consumers/ in a fresh venv with the wheel installed:
#               requests-client, httpx-client, docs-examples (the files docs/python.md shows,
#               `<!-- from: … -->`) in both modes; pandas-step and notebook in full mode
#   source      pip install ./python from a clean copy (git archive HEAD) without Node on PATH
#               (refused at build time, naming Node.js), with Node (a working package), the sdist
#               (built and installed without Node; refused when its bundle is incomplete), and
#               pip install "git+file://…#subdirectory=python" (scripts/test-python-source-install.sh;
#               in both modes, about 8 minutes: two npm ci and two bundles; 485 s and 508 s measured)
#   container   requests-client with --market-stub-url against the Docker image in podman
#               (full mode; when podman cannot run here it is reported as not run, not counted)
# Prints `N passed, N failed` last and exits 1 when any step failed (2 when the wheel cannot be built).
#
# Environment: PYTHON (default /usr/bin/python3, else python3), WORK (venvs and outputs; default a
# temporary folder, removed at the end unless KEEP=1). pip reads its own configuration (index, proxy);
# PIP_RETRIES defaults to 1 here so an unreachable index is given up on quickly.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
PYTHON="${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 )}"
export PIP_RETRIES="${PIP_RETRIES:-1}" PIP_DISABLE_PIP_VERSION_CHECK=1
WORK="${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/market-stub-python-XXXXXX")}"
[ "${KEEP:-0}" = "1" ] || trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
FAILURES=()
STARTED=$(date +%s)

# step NAME COMMAND...: runs it, counts it, prints its duration.
step() {
  local name="$1" t0 t1
  shift
  echo "== $name"
  t0=$(date +%s.%N)
  if "$@"; then
    PASSED=$((PASSED + 1))
    t1=$(date +%s.%N)
    awk -v n="$name" -v a="$t0" -v b="$t1" 'BEGIN { printf "-- %s passed (%.1f s)\n", n, b - a }'
  else
    FAILED=$((FAILED + 1))
    FAILURES+=("$name")
    t1=$(date +%s.%N)
    awk -v n="$name" -v a="$t0" -v b="$t1" 'BEGIN { printf "-- %s FAILED (%.1f s)\n", n, b - a }'
  fi
}

# venv NAME PACKAGES...: a fresh venv in $WORK/NAME with the wheel and PACKAGES installed.
venv() {
  local dir="$WORK/$1"
  shift
  "$PYTHON" -m venv "$dir" && "$dir/bin/pip" install --quiet "$WHEEL" "$@"
}

echo "== wheel (python/build-wheel.sh)"
if ! bash "$ROOT/python/build-wheel.sh"; then
  echo "0 passed, 1 failed (the wheel could not be built)"
  exit 2
fi
PASSED=$((PASSED + 1))
WHEEL="$(ls "$ROOT"/python/dist/market_stub-*.whl)"

step "venv for the package's checks" venv dev pytest pytest-xdist mypy ruff
DEV="$WORK/dev/bin"
step "mypy --strict" bash -c "cd '$ROOT/python' && '$DEV/mypy' --strict --cache-dir '$WORK/mypy-cache'"
step "ruff check, ruff format --check" bash -c "cd '$ROOT/python' && '$DEV/ruff' check --no-cache src tests hatch_build.py ../bench/python-bench.py && '$DEV/ruff' format --check --no-cache src tests hatch_build.py ../bench/python-bench.py"
# From python/tests with the source tree off sys.path: the tests import the installed wheel.
step "package tests (pytest -n 2)" bash -c "cd '$ROOT/python' && '$DEV/python' -m pytest -q -p no:cacheprovider -n 2 tests"

# consumer NAME [pytest args...]: the folder's requirements in a fresh venv, then its pytest.
consumer() {
  local name="$1"
  shift
  venv "venv-$name" -r "$ROOT/test/python-consumers/$name/requirements.txt" &&
    (cd "$ROOT/test/python-consumers/$name" && "$WORK/venv-$name/bin/python" -m pytest -q -p no:cacheprovider "$@")
}
step "consumer requests-client" consumer requests-client
step "consumer httpx-client" consumer httpx-client
step "docs/python.md examples (test/python-consumers/docs-examples)" consumer docs-examples
# pip install from a clean copy of the committed tree (git archive): refused at build time without
# Node, a working package with it, an sdist that carries the CLI and installs without Node, and
# pip's git+URL form. Bounded: each pip run by BUILD_TIMEOUT_S (900 s), the whole step by 1,800 s.
step "pip install ./python, the sdist and a git URL from a clean copy, without and with Node (scripts/test-python-source-install.sh)" \
  timeout 1800 bash "$ROOT/scripts/test-python-source-install.sh" "$WORK/source-install"
if [ "$QUICK" = "0" ]; then
  step "consumer pandas-step" consumer pandas-step
  step "consumer notebook (nbclient)" bash -c "'$PYTHON' -m venv '$WORK/venv-notebook' && '$WORK/venv-notebook/bin/pip' install --quiet '$WHEEL' -r '$ROOT/test/python-consumers/notebook/requirements.txt' && '$WORK/venv-notebook/bin/python' '$ROOT/test/python-consumers/notebook/run_notebook.py' '$WORK/notebook-out'"
  echo "== consumer requests-client against the container (--market-stub-url; scripts/test-python-container.sh)"
  if ! command -v podman >/dev/null 2>&1; then
    echo "-- not run: podman is not installed"
  else
    bash "$ROOT/scripts/test-python-container.sh" "$WORK/venv-requests-client"
    case $? in
      0) PASSED=$((PASSED + 1)); echo "-- passed" ;;
      3) echo "-- not run (the reason is above)" ;;
      *) FAILED=$((FAILED + 1)); FAILURES+=("container"); echo "-- FAILED" ;;
    esac
  fi
fi

echo "test-python: $(( $(date +%s) - STARTED )) s$([ "$QUICK" = "1" ] && echo ' (--quick)')"
[ "$FAILED" -gt 0 ] && echo "failed: ${FAILURES[*]}"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
