#!/usr/bin/env bash
# Node version matrix for CI (issue 30, docs/support.md): runs the vitest suite and a CLI smoke test
# under each Node major of the matrix, taken from the npm registry as the package that carries
# Node's binary (scripts/node-runtimes.mjs installs it into .cache/runtimes/node<major>/, once).
# That node goes first on PATH, so vitest, the CLIs the tests spawn and `npx` all run on it.
#
#   .ci/node-matrix.sh                 the whole vitest suite on Node 22 and 24 (about 3 min each here, .ci/run runs this)
#   .ci/node-matrix.sh --quick         a representative subset (QUICK_FILES below) on Node 22 and 24
#   .ci/node-matrix.sh --quick 24      only the named majors
#
# Needs `npm ci` and `npm run build` done (dist/ is built here when missing). Typecheck and lint
# are not repeated: they do not depend on the runtime. Each major's step is bounded by STEP_LIMIT.
# Last line: "node matrix: N passed, N failed". Exit 0 when every major passed, 1 otherwise.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1

quick=false
majors=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    [0-9]*) majors+=("$arg") ;;
    *) echo "node-matrix: unknown argument '$arg' (use --quick and Node majors such as 22 24)" >&2; exit 2 ;;
  esac
done
[ "${#majors[@]}" -gt 0 ] || majors=(22 24)

# The quick subset: the adapters (node:http, Express, MSW), the request core, the clients, the
# CLI's serve, the contract check's CLI and the packaging checks: the places a runtime difference
# (sockets, fetch, streams, file watching, module loading) would show first. Left to the whole
# suite: test/msw/same-bytes.test.ts (197 cases, 134 s of the first 307 s measured for this subset).
QUICK_FILES=(test/http test/runtime test/client test/msw/msw-client-contract.test.ts test/msw/optional-peer.test.ts
  test/cli/serve.test.ts test/contract/check-cli.test.ts test/packaging)
STEP_LIMIT=${NODE_MATRIX_STEP_LIMIT:-1200}

[ -f dist/cli.cjs ] || npm run build || { echo "node-matrix: npm run build failed" >&2; exit 1; }

# CLI smoke: --version, then serve on a free port and GET /markets (200 and a JSON array).
smoke() {
  local out pid url body
  out=$(mktemp)
  node dist/cli.cjs --version || return 1
  node dist/cli.cjs serve --port 0 --quiet --seed 7 --count 5 --clock 2026-01-01 >"$out" 2>&1 &
  pid=$!
  url=
  for _ in $(seq 1 100); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$out" | head -1)
    [ -n "$url" ] && break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "serve printed no ready line within 10 s: $(cat "$out")" >&2
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$out"
    return 1
  fi
  body=$(curl -sS --max-time 5 -w '\n%{http_code}' "$url/markets")
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$out"
  [ "$(tail -1 <<<"$body")" = 200 ] || { echo "GET $url/markets: status $(tail -1 <<<"$body")" >&2; return 1; }
  node -e 'const a = JSON.parse(process.argv[1]); if (!Array.isArray(a) || a.length !== 5) process.exit(1)' "$(sed '$d' <<<"$body")" \
    || { echo "GET $url/markets: not a JSON array of 5 markets" >&2; return 1; }
  echo "cli smoke: --version, serve, GET /markets 200 with 5 markets"
}

passed=0
failed=0
for major in "${majors[@]}"; do
  bin=$(node scripts/node-runtimes.mjs --bin "$major") || { echo "node-matrix: Node $major could not be installed" >&2; failed=$((failed + 1)); continue; }
  start=$(date +%s)
  echo "== Node $major ($("$bin/node" --version), $bin/node): vitest $([ "$quick" = true ] && echo "--quick subset: ${QUICK_FILES[*]}" || echo "whole suite")"
  if [ "$quick" = true ]; then files=("${QUICK_FILES[@]}"); else files=(); fi
  if PATH="$bin:$PATH" timeout --kill-after=10 "$STEP_LIMIT" npx vitest run "${files[@]}" && PATH="$bin:$PATH" smoke; then
    passed=$((passed + 1))
    echo "== Node $major: passed in $(($(date +%s) - start)) s"
  else
    failed=$((failed + 1))
    echo "== Node $major: FAILED after $(($(date +%s) - start)) s"
  fi
done
echo "node matrix: $passed passed, $failed failed"
[ "$failed" = 0 ]
