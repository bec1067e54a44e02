import { proxyCause, type ChosenProxy } from './outgoing-agent.js';
import { probeTlsFailure, type ClientTls } from './tls-failure.js';

/** The kinds of failure, each with its real cause in `reason`. */
export type FailureKind = 'timeout' | 'refused' | 'dns' | 'tls' | 'reset' | 'decode' | 'framing' | 'limit' | 'cross-origin' | 'aborted' | 'proxy' | 'other';

/** What is known about a request that failed before its answer. */
export interface FailureContext {
  /** The forward proxy the request went through, if any. */
  proxy: ChosenProxy | undefined;
  tls: ClientTls;
  /** Whether a closed https:// connection may be asked again why (not through a test dispatcher, not on a retry). */
  probeTls: boolean;
  timeoutMs: number;
}

/**
 * A truer cause for a failure than the HTTP client's error gives, or undefined: the forward
 * proxy when it is the one that refused (outgoing-agent.ts proxyCause), or the TLS alert of a
 * direct https:// connection closed before any response byte (tls-failure.ts probeTlsFailure:
 * a TLS 1.3 server refuses a client certificate after the handshake, RFC 8446 §4.4.2.4).
 */
export async function betterCause(url: URL, error: unknown, failure: { kind: FailureKind; reason: string }, context: FailureContext): Promise<{ reason: string; kind: FailureKind } | undefined> {
  if (failure.kind === 'aborted') return undefined;
  if (context.proxy) {
    const cause = proxyCause(error, failure.kind, failure.reason, context.proxy);
    return cause === undefined ? undefined : { reason: cause, kind: 'proxy' };
  }
  if (failure.kind !== 'reset' || url.protocol !== 'https:' || !context.probeTls) return undefined;
  const why = await probeTlsFailure(url, context.tls, Math.min(context.timeoutMs, 5_000));
  return why === undefined ? undefined : { reason: `the TLS session failed: ${why}`, kind: 'tls' };
}
