// The contract room's HTTP client: one request to the deployment and its answer, as the crawl and
// the recording proxy both need it: the outgoing agent (proxies, TLS, client certificates), the
// pace and its rate-limit fields, interim responses, content codings, bounded body text and the
// streamed JSON reader, and ContractRunError, the error a run stops with. It imports no other
// sub-room. Other sub-rooms and rooms import these files only from here (.dependency-cruiser.cjs).
export { parseBaseUrl } from './base-url.js';
export { type BaseQuery, baseUrlSecrets, readBaseQuery, shownUrl, withBaseQuery } from './base-query.js';
export { BodyText, collectBodyText } from './body-text.js';
export { contentDecoders, decodeFailureReason, unsupportedCodingReason } from './content-decoding.js';
export { ContractRunError, type ContractRunErrorCode } from './contract-run-error.js';
export { createDeploymentClient, type DeploymentClient, type DeploymentResponse, displayBase, displayUrl, type ExchangeEvent, formatBytes, RequestFailure, requestTarget, resolveHttpUrl, retryWait } from './deployment-client.js';
export { checkHeaderFields } from './header-field.js';
export { describeFraming, isFramingRefusal, probeFraming, unaskedTransferCoding } from './message-framing.js';
export { type ClientTls } from './tls-failure.js';
export { createJsonReader, type JsonAnomaly, type JsonReader, type JsonReadResult, readJsonText, StreamedArray } from './json-body-reader.js';
export { cookieValues, type RunCookies } from './run-cookies.js';
export { type ChosenProxy, createOutgoingAgent, networkSecrets, type OutgoingAgent, type OutgoingNetwork, proxyCause } from './outgoing-agent.js';
