/**
 * Why a check, record or proxy could not run at all (exit code 2): the message is one sentence
 * for people, saying what failed, where, and what to do. Never carries request headers.
 * Codes: `OPTION_INVALID` (a bad option value), `DEPLOYMENT_UNREACHABLE` (refused, DNS, TLS or a
 * timeout on the list), `INTERRUPTED` (SIGINT/SIGTERM during the crawl), `OUTPUT_UNWRITABLE`.
 */
export class ContractRunError extends Error {
  constructor(readonly code: 'OPTION_INVALID' | 'DEPLOYMENT_UNREACHABLE' | 'INTERRUPTED' | 'OUTPUT_UNWRITABLE', message: string) {
    super(message);
    this.name = 'ContractRunError';
  }
}
