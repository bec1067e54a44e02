#!/usr/bin/env bash
# Container test for CI (issues 5 and 12): builds docker/Dockerfile with podman and runs
# test/container against the image: the image itself, market-stub/testcontainers through podman's
# Docker-compatible socket (`podman system service`, DOCKER_HOST, TESTCONTAINERS_RYUK_DISABLED=true)
# and docs/ci/compose.yaml with docker-compose; then market-stub/testcontainers from the packed
# package on testcontainers 11 and 12 (test/consumers/testcontainers-11, -12; the repository's own
# suite above runs on its devDependency, 10). Called by .ci/run after the unit tests; also fine
# to run by hand.
#
#   .ci/container-test.sh          # from anywhere; the repo is this script's parent folder
#
# Runs only as root with apt-get (podman, runc and the local node:24-bookworm-slim stand-in come
# from ../shared/container, next to the repo); otherwise prints "skipped: <why>" and exits 0.
# Last line: "N passed, N failed". Exit 0 when every container check passed, 1 otherwise.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED="${MARKET_STUB_SHARED_CONTAINER:-$REPO/../shared/container}"  # a worktree elsewhere: set it

if [ "$(id -u)" != 0 ]; then
  echo "container test skipped: not root (podman here installs from apt and runs rootful)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "container test skipped: apt-get not available (podman is installed from Debian's packages)"
  exit 0
fi
fail() {
  echo "container test: $1" >&2
  echo "0 passed, 1 failed"
  exit 1
}
[ -f "$SHARED/env.sh" ] && [ -x "$SHARED/ensure-base.sh" ] \
  || fail "$SHARED/env.sh and ensure-base.sh not found; CI clones the repo with shared/ beside it"
[ -x "$REPO/node_modules/.bin/vitest" ] || fail "node_modules/.bin/vitest missing; run 'npm ci' in $REPO first"

# shellcheck source=/dev/null
source "$SHARED/env.sh"
base=$("$SHARED/ensure-base.sh") || fail "ensure-base.sh failed: podman or the node:24-bookworm-slim stand-in is not available"
echo "container test: podman $(podman version --format '{{.Client.Version}}'), base image $base"

# docker-compose runs the compose recipe against podman's socket; the dnsname CNI plugin lets its
# services find each other by name (podman 4.3 with CNI has no name resolution without it).
need=()
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
[ -x /usr/lib/cni/dnsname ] || need+=(golang-github-containernetworking-plugin-dnsname)
if [ "${#need[@]}" -gt 0 ]; then
  { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1; }; } \
    || fail "could not install ${need[*]} from apt"
fi

out=$(mktemp -d)
service_pid=
cleanup() {
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null; wait "$service_pid" 2>/dev/null; fi
  rm -rf "$out"
}
trap cleanup EXIT
# testcontainers-node and docker-compose talk to podman through its Docker-compatible API socket.
# The reaper (Ryuk) is an image that cannot be pulled here: disabled; the tests stop their containers.
podman system service --time=0 "unix://$out/podman.sock" >"$out/podman-service.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 50); do [ -S "$out/podman.sock" ] && break; sleep 0.1; done
[ -S "$out/podman.sock" ] || fail "podman system service did not open $out/podman.sock: $(tail -3 "$out/podman-service.log")"
export DOCKER_HOST="unix://$out/podman.sock" TESTCONTAINERS_RYUK_DISABLED=true
echo "container test: $(docker-compose version --short 2>/dev/null | sed 's/^/docker-compose /'), DOCKER_HOST=$DOCKER_HOST"

cd "$REPO" || exit 1
MARKET_STUB_CONTAINER_FIGURES="$out/figures.txt" CONTAINER_ENGINE=podman \
  ./node_modules/.bin/vitest run -c vitest.container.config.ts \
  --reporter=default --reporter=json --outputFile.json="$out/results.json"
code=$?

# The peer range's other majors: each consumer installs the packed tarball beside its testcontainers
# major and starts this image through it (scripts/test-consumers.mjs; 12 runs on Node 24 from npm).
consumer_image="localhost/market-stub-consumers:$$"
consumers_passed=0
consumers_failed=0
echo "container test: market-stub/testcontainers on testcontainers 11 and 12 (test/consumers/testcontainers-11, -12), image $consumer_image"
if podman build -q -f docker/Dockerfile -t "$consumer_image" . >"$out/consumer-build.log" 2>&1; then
  MARKET_STUB_IMAGE="$consumer_image" node scripts/test-consumers.mjs testcontainers-11 testcontainers-12 | tee "$out/consumers.log"
  read -r consumers_passed consumers_failed < <(sed -n 's/^consumers: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$out/consumers.log")
  [ -n "$consumers_passed" ] || { consumers_passed=0; consumers_failed=2; }
  podman rmi -f "$consumer_image" >/dev/null 2>&1
else
  echo "container test: podman build for the consumers failed: $(tail -5 "$out/consumer-build.log")" >&2
  consumers_failed=2
fi

counts=$(node -e '
  const fs = require("node:fs");
  try {
    const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    // Anything not passed counts as failed: the suite has no skipped or todo tests of its own.
    console.log(r.numPassedTests, r.numTotalTests - r.numPassedTests);
  } catch { console.log("0 0"); }
' "$out/results.json")
read -r passed failed <<<"$counts"
if [ "$code" != 0 ] && [ "$failed" = 0 ]; then
  echo "container test: vitest exited $code with an error outside the tests (see above)" >&2
  failed=1
fi
if [ -s "$out/figures.txt" ]; then
  echo "container test figures:"
  sed 's/^/  /' "$out/figures.txt"
fi
passed=$((passed + consumers_passed))
failed=$((failed + consumers_failed))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
