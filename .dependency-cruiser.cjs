// The layers of src/ and the rules between them, checked by `npm run lint` (depcruise src).
// From the bottom up (docs/architecture.md draws the same picture):
//   floor     src/floor, src/schema: vocabulary, limits, errors, seeds, bytes, the schema and its validators
//   domain    src/catalog, src/deviation, src/behaviour, src/journal: markets and what happens to them, as data
//   runtime   src/runtime: the request core (every route, the admin API included) → Reply; the controls
//   adapters  src/http (node:http fast path, Express app), src/msw, src/fetch (Fetch handler): requests in, Replies out;
//             src/file-system: the file system (fixture files and folders, watch, atomic writes, errno causes)
//   assembly  src/stub.ts, src/stub-options.ts: startMarketStub puts catalog, runtime and server together
//   edges     contract (check, record), proxy, client, options, config file, CLI, logger: files, sockets, processes
//   entries   src/index.ts, src/cli.ts, src/msw.ts, src/fetch.ts, src/testcontainers.ts: the package's doors
// Imports point down only; floor, domain and runtime import no Node built-in and no Express, so the
// core bundles for a browser (test/runtime/browser-bundle.test.ts proves it).
const FLOOR = '^src/(floor|schema)/';
const DOMAIN = '^src/(catalog|deviation|behaviour|journal)/';
const RUNTIME = '^src/runtime/';
const ADAPTERS = '^src/(http|msw|fetch|file-system)/';
const ASSEMBLY = '^src/(stub|stub-options)\\.ts$';
const EDGES = '^src/(contract|proxy|client|options|config-file|cli|mcp)/|^src/(config|serve-environment|logger)\\.ts$';
// The contract room's sub-rooms (docs/architecture.md): each has an index.ts, its only door.
// From the bottom up: http-client, paging, checks, reports, crawl; fixture-sets beside them.
// The recording proxy sees these (the HTTP client and the checks it observes; paging for the next-page link, a fixture set to record into):
const PROXY_SEES = 'http-client|paging|checks|fixture-sets';
const SUB_ROOM_ENTRY = '^src/contract/[^/]+/index\\.ts$';
const ENTRIES = '^src/(index|cli|msw|fetch|testcontainers)\\.ts$';

const upward = (name, from, to) => ({ name, severity: 'error', comment: 'imports point down the layers only (see the top of this file)', from: { path: from, pathNot: '\\.test\\.ts$' }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'a cycle makes two modules one; break it by moving the shared part down a layer', from: {}, to: { circular: true } },
    upward('floor-imports-up', FLOOR, `${DOMAIN}|${RUNTIME}|${ADAPTERS}|${ASSEMBLY}|${EDGES}|${ENTRIES}`),
    upward('domain-imports-up', DOMAIN, `${RUNTIME}|${ADAPTERS}|${ASSEMBLY}|${EDGES}|${ENTRIES}`),
    upward('runtime-imports-up', RUNTIME, `${ADAPTERS}|${ASSEMBLY}|${EDGES}|${ENTRIES}`),
    upward('adapter-imports-up', ADAPTERS, `${ASSEMBLY}|${EDGES}|${ENTRIES}`),
    upward('assembly-imports-up', ASSEMBLY, `${EDGES}|${ENTRIES}`),
    upward('edge-imports-entry', EDGES, ENTRIES),
    {
      name: 'core-is-platform-neutral', severity: 'error',
      comment: 'floor, domain and runtime run in a browser too: no Node built-in (files, sockets, timers belong to adapters and edges)',
      from: { path: `${FLOOR}|${DOMAIN}|${RUNTIME}`, pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-without-express', severity: 'error', comment: 'Express is one adapter (src/http/create-app.ts)',
      from: { path: `${FLOOR}|${DOMAIN}|${RUNTIME}` }, to: { path: 'node_modules/(express|@types/express)/' },
    },
    {
      name: 'options-without-adapters', severity: 'error',
      comment: 'option tables read their bounds from the floor (src/floor/limits.ts), never from an adapter',
      from: { path: '^src/options/' }, to: { path: ADAPTERS },
    },
    {
      name: 'contract-through-its-door', severity: 'error',
      comment: 'other rooms use the contract room (crawl, checks, reports, fixture sets) through src/contract/index.ts only; the recording proxy through the entries of the sub-rooms it observes',
      from: { path: '^src/', pathNot: '^src/(contract|proxy)/' }, to: { path: '^src/contract/', pathNot: '^src/contract/index\\.ts$' },
    },
    {
      name: 'proxy-through-sub-room-entries', severity: 'error',
      comment: 'the recording proxy observes HTTP, paging and checks (and records into fixture sets): it imports those sub-rooms\' index.ts only, never the outer door, reports or a sub-room\'s file',
      from: { path: '^src/proxy/' }, to: { path: '^src/contract/', pathNot: `^src/contract/(${PROXY_SEES})/index\\.ts$` },
    },
    {
      name: 'contract-sub-room-through-its-entry', severity: 'error',
      comment: 'a sub-room of src/contract is imported from another sub-room only through its index.ts',
      from: { path: '^src/contract/([^/]+)/' }, to: { path: '^src/contract/[^/]+/', pathNot: ['^src/contract/$1/', SUB_ROOM_ENTRY] },
    },
    {
      name: 'contract-door-through-sub-room-entries', severity: 'error',
      comment: 'the outer door src/contract/index.ts re-exports the sub-rooms\' index.ts only',
      from: { path: '^src/contract/[^/]+$' }, to: { path: '^src/contract/[^/]+/', pathNot: SUB_ROOM_ENTRY },
    },
    { name: 'no-orphans', severity: 'error', comment: 'a module nothing imports is dead or an entry knip should know', from: { orphan: true, pathNot: ['\\.test\\.ts$', '\\.d\\.ts$', ENTRIES, '^src/schema/generated/'] }, to: {} },
  ],
  options: {
    // @swc/core parses the TypeScript sources (dependency-cruiser 16 reads TypeScript up to 5.x only).
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
  },
};
