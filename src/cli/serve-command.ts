import { SERVE_OPTIONS, type ServeValues } from '../options/tables/serve-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub serve`: options as data (SERVE_OPTIONS); its run, with the stub, loads on use (run-serve.ts). */
export const serveCommand: CommandSpec<ServeValues> = {
  name: 'serve',
  describe: 'Serve GET /markets and GET /markets/{market_id} from generated markets or fixtures',
  options: SERVE_OPTIONS,
  examples: [
    ['$0 serve', 'generated markets on http://127.0.0.1:4010'],
    ['$0 serve --port 0 --seed 7 --count 250 --clock 2026-01-01', 'a reproducible catalog on a free port'],
    ['$0 serve --fixtures fixtures --watch', 'the real-sample markets in fixtures/, reloaded on change'],
    ['MARKET_STUB_PAGING=cursor MARKET_STUB_ENVELOPE=markets $0 serve', 'a Kalshi-like list: {"markets": [...], "next_cursor": ...}'],
    ['$0 serve --config ci/market-stub.config.json --print-config', 'the options a config file gives, with where each value came from'],
  ],
  load: async () => ({ run: (await import('./run-serve.js')).runServe }),
};
