/**
 * The `Date` header's value of a stub instant (RFC 9110 §6.6.1, an IMF-fixdate: whole seconds,
 * GMT). A deployment's Date is its own idea of now, and `market-stub check` judges "past" against
 * it, so a stub whose clock says 2026-01-01 is checked as of that day, whatever day the check runs.
 * The last second's text is kept: one `toUTCString` a second, not one a request.
 */
export function httpDate(): (t: number) => string {
  let second = Number.NaN;
  let header = '';
  return (t) => {
    const current = Math.floor(t / 1000);
    if (current !== second) {
      second = current;
      header = new Date(current * 1000).toUTCString();
    }
    return header;
  };
}
