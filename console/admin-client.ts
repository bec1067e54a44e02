import { AdminCallError, readBounded } from './admin-answer.js';

/**
 * The console's only way to the stub: the documented admin API under /__stub, same origin, with
 * `Authorization: Bearer <token>` when a token is kept. The token lives in sessionStorage (this
 * tab, until it closes): never in localStorage, a cookie or the URL.
 */
const TOKEN_KEY = 'market-stub.adminToken';

/** The token this tab holds, if any. */
export function storedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

/** Keeps (or with `undefined`, forgets) the token for this tab. */
export function storeToken(token: string | undefined): void {
  if (token === undefined || token === '') sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
}

/**
 * The journal as a HAR file (`GET /__stub/requests.har`), handed to the browser as a download
 * (`market-stub-<time>.har`): read as a Blob, not through adminCall's bounded JSON reader, since a
 * full journal's HAR may pass that bound (docs/limits.md bounds the export itself).
 * @throws AdminCallError for a non-2xx answer or a network failure.
 */
export async function downloadHar(): Promise<void> {
  const route = 'GET /__stub/requests.har';
  const token = storedToken();
  let response: Response;
  try {
    response = await fetch('/__stub/requests.har', { headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, cache: 'no-store', credentials: 'omit' });
  } catch (error) {
    throw new AdminCallError(0, `${route}: the stub did not answer (${(error as Error).message}); is it still running?`, route);
  }
  if (!response.ok) throw new AdminCallError(response.status, `${route}: ${response.status} ${response.statusText}`, route);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `market-stub-${new Date().toISOString().replace(/[:.]/g, '-')}.har`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * One admin call: `method` and a path under /__stub (`/deviations`), a JSON body when given.
 * @returns the parsed JSON answer, or undefined for 204.
 * @throws AdminCallError for a non-2xx answer (401 when the token is missing or wrong), a
 *   network failure (status 0) or an answer over MAX_ANSWER_BYTES (read no further; admin-answer.ts).
 */
export async function adminCall(method: string, path: string, body?: unknown): Promise<unknown> {
  const route = `${method} /__stub${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = storedToken();
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/__stub${path}`, { method, headers, cache: 'no-store', credentials: 'omit', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (error) {
    throw new AdminCallError(0, `${route}: the stub did not answer (${(error as Error).message}); is it still running?`, route);
  }
  const raw = response.status === 204 ? '' : await readBounded(response, route);
  const parsed: unknown = raw === '' ? undefined : JSON.parse(raw);
  if (!response.ok) {
    const message = (parsed as { message?: unknown } | undefined)?.message;
    throw new AdminCallError(response.status, typeof message === 'string' ? message : `${route}: ${response.status} ${response.statusText}`, route);
  }
  return parsed;
}
