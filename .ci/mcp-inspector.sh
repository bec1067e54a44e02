#!/usr/bin/env bash
# `market-stub mcp` under the MCP Inspector's CLI (docs/mcp.md): a client that is not ours lists the
# tools (with --strict: every input schema must pass its portability check), reads a resource, calls
# a tool, and gets a refused call back as a tool error; then the same over Streamable HTTP
# (`serve --mcp-http on`, docs/mcp.md "Over HTTP"), where a request without the token is refused. The Inspector comes from the npm registry
# (@modelcontextprotocol/inspector, whose `--cli` mode is the Inspector CLI: the separate
# @modelcontextprotocol/inspector-cli 1.x package fails outside its own repository), installed once
# into .cache/mcp-inspector/ without install scripts. Its engines field asks for Node 22.19; its CLI
# mode runs on Node 20 too (this script is run on Node 20.20 in .ci/run).
#
#   .ci/mcp-inspector.sh     about 10 s once installed; needs `npm ci` and `npm run build` (dist/ is built when missing)
#
# Last line: "mcp inspector: N passed, N failed". Exit 0 when every step passed, 1 otherwise.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1
INSPECTOR_VERSION=2.12.0
DIR="$REPO/.cache/mcp-inspector"
INSPECTOR="$DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
[ -f dist/cli.cjs ] || npm run build >/dev/null || exit 1
if [ ! -f "$INSPECTOR" ] || ! grep -q "\"version\": \"$INSPECTOR_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/inspector/package.json"; then
  mkdir -p "$DIR" && [ -f "$DIR/package.json" ] || echo '{"private":true}' > "$DIR/package.json"
  timeout 600 npm install --prefix "$DIR" --ignore-scripts --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null || { echo "mcp inspector: npm install @modelcontextprotocol/inspector@$INSPECTOR_VERSION failed"; exit 1; }
fi
WORK=$(mktemp -d)
SERVE_PID=
trap '[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
# The Inspector keeps a catalog of servers; this run's stays in its temporary folder.
export MCP_CATALOG_PATH="$WORK/catalog.json"
STUB=(node "$REPO/dist/cli.cjs" mcp --port 0 --seed 7 --count 5 --clock 2026-01-01 --admin-token ci-inspector-token)
passed=0
failed=0
# step NAME CHECK EXIT INSPECTOR ARGS: runs the Inspector's CLI, expects its exit status to be EXIT (0, or
# 5 where the tool answers isError: the Inspector's exit status for such a call, tool_is_error), then runs CHECK (a node script
# reading its stdout on stdin, its stderr's file named by STDERR_FILE); the admin token must appear in neither stdout nor stderr.
step() {
  local name=$1 check=$2 expected=$3 status
  shift 3
  timeout 60 node "$INSPECTOR" --cli "$@" >"$WORK/out.json" 2>"$WORK/err.txt"
  status=$?
  if [ "$status" -eq "$expected" ] && STDERR_FILE="$WORK/err.txt" node -e "$check" <"$WORK/out.json" && ! grep -q ci-inspector-token "$WORK/out.json" "$WORK/err.txt"; then
    echo "ok   $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name (exit $status, expected $expected)"
    sed 's/^/     /' "$WORK/err.txt" | tail -20
    head -c 2000 "$WORK/out.json" | sed 's/^/     /'
    failed=$((failed + 1))
  fi
}
read_json='const r = JSON.parse(require("fs").readFileSync(0, "utf8"));'
# control_steps PREFIX TARGET...: the checks every transport answers alike (the same tools, a call, a refused call).
control_steps() {
  local prefix=$1
  shift
  step "${prefix}tools/list --strict: one tool per control-table row, then openapi and check" \
    "$read_json const names = r.tools.map((t) => t.name); for (const n of ['catalog','setMarkets','tick','setClock','setDeviations','requests','har','clearRequests','openapi','check']) if (!names.includes(n)) { console.error('missing tool ' + n); process.exit(1); }" \
    0 --strict "$@" --method tools/list
  step "${prefix}tools/call setClock {\"advance\":\"PT6H\"}" \
    "$read_json if (r.isError || r.structuredContent.instant !== '2026-01-01T06:00:00Z') process.exit(1);" \
    0 "$@" --method tools/call --tool-name setClock --tool-arg 'body={"advance":"PT6H"}'
  step "${prefix}tools/call tick {\"n\":0}: a tool error with the admin API's problem" \
    "$read_json const p = r.structuredContent; if (!r.isError || p.error !== 'option_invalid' || p.option !== 'n') process.exit(1);" \
    5 "$@" --method tools/call --tool-name tick --tool-arg 'body={"n":0}'
}
control_steps '' "${STUB[@]}"
step 'resources/read market-stub://deviations' \
  "$read_json const body = JSON.parse(r.contents[0].text); if (!body.catalogue.some((d) => d.name === 'string-price')) process.exit(1);" \
  0 "${STUB[@]}" --method resources/read --uri market-stub://deviations
# Over Streamable HTTP: a serve process with --mcp-http on; its URL from --ready-file.
node "$REPO/dist/cli.cjs" serve --port 0 --seed 7 --count 5 --clock 2026-01-01 --admin-token ci-inspector-token --mcp-http on --quiet --ready-file "$WORK/ready.json" >"$WORK/serve.log" 2>&1 &
SERVE_PID=$!
for _ in $(seq 150); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
if [ -s "$WORK/ready.json" ]; then
  MCP_URL="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).url)' "$WORK/ready.json")/__stub/mcp"
  HTTP=("$MCP_URL" --transport http --header 'Authorization: Bearer ci-inspector-token')
  control_steps 'http: ' "${HTTP[@]}"
  # Without the token: the admin API's 401 on stderr (the Inspector then wants OAuth; --stored-auth-only: no browser).
  step 'http: without the token: refused with the admin API'"'"'s 401' \
    'const e = JSON.parse(require("fs").readFileSync(process.env.STDERR_FILE, "utf8")).error; if (e.code !== "auth_required" || !/status\W+401\W+error\W+unauthorized/.test(e.message)) process.exit(1);' \
    3 --stored-auth-only "$MCP_URL" --transport http --method tools/list
else
  echo "FAIL http: serve --mcp-http on did not become ready"
  sed 's/^/     /' "$WORK/serve.log" | tail -20
  failed=$((failed + 1))
fi
echo "mcp inspector: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
