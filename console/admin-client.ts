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

/** An admin API answer other than 2xx: its status and the admin error body's message (or the status text). */
export class AdminCallError extends Error {
  constructor(readonly status: number, message: string, readonly route: string) {
    super(message);
    this.name = 'AdminCallError';
  }
}

/** Largest admin answer the console reads, bytes (a 10,000-market catalog is about 2 MB). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * One admin call: `method` and a path under /__stub (`/deviations`), a JSON body when given.
 * @returns the parsed JSON answer, or undefined for 204.
 * @throws AdminCallError for a non-2xx answer (401 when the token is missing or wrong), a
 *   network failure (status 0) or an answer over MAX_ANSWER_BYTES.
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
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_ANSWER_BYTES) throw new AdminCallError(response.status, `${route}: the answer is ${length} bytes, more than the console reads (${MAX_ANSWER_BYTES})`, route);
  const raw = response.status === 204 ? '' : await response.text();
  const parsed: unknown = raw === '' ? undefined : JSON.parse(raw);
  if (!response.ok) {
    const message = (parsed as { message?: unknown } | undefined)?.message;
    throw new AdminCallError(response.status, typeof message === 'string' ? message : `${route}: ${response.status} ${response.statusText}`, route);
  }
  return parsed;
}
