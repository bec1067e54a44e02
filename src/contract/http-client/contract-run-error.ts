import { MarketStubError } from '../../floor/market-stub-error.js';

/** Codes of a check, record or proxy that could not run. */
export type ContractRunErrorCode = 'OPTION_INVALID' | 'DEPLOYMENT_UNREACHABLE' | 'INTERRUPTED' | 'OUTPUT_UNWRITABLE' | 'LIMIT_EXCEEDED' | 'UNAUTHORIZED';

/**
 * Why a check, record or proxy could not run at all (exit code 2): a MarketStubError whose message
 * is one sentence for people, saying what failed, where, and what to do. Never carries a request
 * header value. Codes: `OPTION_INVALID` (a bad option value, or a --base-url that ends in
 * /markets), `DEPLOYMENT_UNREACHABLE` (refused, DNS, TLS or a timeout on the list),
 * `LIMIT_EXCEEDED` (a list page larger than maxBodyMb, or a 429 still after the pace was lowered to its floor: crawl-state.ts), `UNAUTHORIZED` (a 401/403 after a
 * credential was given or after earlier successes: contract/crawl/credential-refusal.ts), `INTERRUPTED` (SIGINT/SIGTERM during the
 * crawl), `OUTPUT_UNWRITABLE`.
 * Access refused on the first request (401/403, whatever the body, with or without a credential)
 * is `UNAUTHORIZED` too; an announced outage (a 503 whose Retry-After is past
 * --retry-after-max-ms: contract/crawl/announced-outage.ts) is `DEPLOYMENT_UNREACHABLE`.
 */
export class ContractRunError extends MarketStubError {
  declare readonly code: ContractRunErrorCode;

  constructor(code: ContractRunErrorCode, message: string, where = 'check') {
    super({ code, where, message });
    this.name = 'ContractRunError';
  }
}
