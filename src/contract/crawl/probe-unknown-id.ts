import { mixSeed } from '../../floor/seed-mix.js';
import { SINGLE_ENDPOINT } from '../checks/index.js';
import type { ProbeSummary } from '../checks/index.js';
import { singleUrl } from './crawl-settings.js';
import { previewBody, type CrawlState } from './crawl-state.js';
import { requestTarget, RequestFailure } from '../http-client/index.js';
import { describeBody } from '../checks/index.js';

/** Seed of the unknown-id probe: the same probe path on every run, so runs compare. */
const PROBE_SEED = 20_260_101;

/**
 * Stage 3 of a crawl: `GET {base}/markets/market-stub-probe-<seeded>`, an id that cannot exist.
 * What the deployment answers is undocumented, so it is information only (a `unknown-id-probe`
 * finding and the report's `probe`), never an error or warning.
 */
export async function probeUnknownId(state: CrawlState): Promise<ProbeSummary> {
  let id = '';
  for (let attempt = 0; id === '' || state.listed.has(id); attempt++) id = `market-stub-probe-${mixSeed(PROBE_SEED, attempt).toString(36)}`;
  const url = singleUrl(state.settings.base, id);
  const request = requestTarget(url);
  let probe: ProbeSummary;
  try {
    const response = await state.get(url, SINGLE_ENDPOINT, id);
    state.requests++;
    const preview = await previewBody(response);
    probe = { request, status: response.status, ...(response.contentType ? { contentType: response.contentType } : {}), body: describeBody(preview.text, response.contentType, preview.bytes) };
  } catch (error) {
    if (!(error instanceof RequestFailure)) throw error;
    probe = { request, failure: `no answer: ${error.reason}` };
  }
  const answer = probe.failure ?? `${probe.status} ${probe.contentType ?? 'no Content-Type'}, ${probe.body}`;
  state.info({ code: 'unknown-id-probe', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: answer, request }, message: `an unknown id (${request}) answers: ${answer}` });
  return probe;
}
