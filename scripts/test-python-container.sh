#!/usr/bin/env bash
# The Python consumer suite test/python-consumers/requests-client against the Docker image in podman,
# through the plugin's --market-stub-url (what a CI service container gives a Python suite):
# builds docker/Dockerfile (as .ci/container-test.sh does), runs it on a free port of 127.0.0.1 with an
# admin token, waits for its health check, runs the suite with --market-stub-url and
# --market-stub-admin-token, then removes the container.
#
#   scripts/test-python-container.sh VENV    # VENV: a venv with the wheel and the suite's requirements
#
# Called by scripts/test-python.sh (full mode) when podman is on PATH. Needs ../shared/container
# beside the repository (or SHARED_CONTAINER) on a machine without a registry (env.sh, ensure-base.sh).
# Exit 0 when the suite passed, 1 when it failed, 3 after printing "skipped: <why>" when podman cannot run here.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${1:?usage: scripts/test-python-container.sh VENV}"
SHARED="${SHARED_CONTAINER:-$ROOT/../shared/container}"
TAG="localhost/market-stub:python-consumer"
TOKEN="python-consumer-$$"
[ "$(id -u)" = 0 ] || { echo "skipped: not root (podman here runs rootful, as .ci/container-test.sh)"; exit 3; }
[ -f "$SHARED/env.sh" ] || { echo "skipped: $SHARED/env.sh not found (CI clones the repository with shared/ beside it; or set SHARED_CONTAINER)"; exit 3; }
# shellcheck source=/dev/null
source "$SHARED/env.sh"
"$SHARED/ensure-base.sh" >/dev/null || { echo "skipped: ensure-base.sh failed (no podman base image)"; exit 3; }
podman build -q -f "$ROOT/docker/Dockerfile" -t "$TAG" "$ROOT" >/dev/null || { echo "podman build failed" >&2; exit 1; }
# Host networking on a loopback port chosen here (rootful podman without a bridge: -p does nothing).
port=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
container=$(podman run -d --rm --network=host -e PORT="$port" -e HOST=127.0.0.1 -e MARKET_STUB_ADMIN_TOKEN="$TOKEN" -e MARKET_STUB_QUIET=true "$TAG") || exit 1
trap 'podman rm -f "$container" >/dev/null 2>&1' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "$url/markets" 2>/dev/null && break
  sleep 0.2
done
echo "container $TAG at $url"
cd "$ROOT/test/python-consumers/requests-client" &&
  "$VENV/bin/python" -m pytest -q -p no:cacheprovider --market-stub-url "$url" --market-stub-admin-token "$TOKEN"
