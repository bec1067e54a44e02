import { ContractRunError } from './contract-run-error.js';

/** A field name (RFC 9110 §5.1: a token). */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What is wrong with a header field given to market-stub, or undefined when it may be sent: a
 * name that is not a token (RFC 9110 §5.1), or a value holding CR, LF or NUL (RFC 9110 §5.5: a
 * recipient must refuse them; a sender that passed them on would split one field into two, the
 * header injection a pipeline building `--header "$VAR"` invites) or another control character.
 * The wording never shows the value: header values are usually secrets.
 */
export function headerFieldProblem(name: string, value: string): string | undefined {
  if (!FIELD_NAME.test(name)) return 'expected "Name: value" with a field name before the colon (RFC 9110 §5.1)';
  if (/[\r\n\0]/.test(value)) return 'the value holds a CR, LF or NUL character, which would split it into two header fields (RFC 9110 §5.5); nothing was sent';
  // eslint-disable-next-line no-control-regex -- the rule is about control characters
  if (/[\x01-\x08\x0a-\x1f\x7f]/.test(value)) return 'the value holds a control character (RFC 9110 §5.5); nothing was sent';
  return undefined;
}

/**
 * Checks every header pair given to a crawl (library `headers`, CLI `--header`).
 * @throws ContractRunError OPTION_INVALID naming `option`, the header's position and its name, never its value.
 */
export function checkHeaderFields(headers: ReadonlyArray<readonly [string, string]>, option: string, where: string): void {
  headers.forEach(([name, value], i) => {
    const problem = headerFieldProblem(String(name), String(value));
    if (problem) throw new ContractRunError('OPTION_INVALID', `${option} #${i + 1}${FIELD_NAME.test(String(name)) ? ` (${name})` : ''}: ${problem}; the value is not shown.`, where);
  });
}
