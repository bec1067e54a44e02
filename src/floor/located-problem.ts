/**
 * One located problem: the shape every surface reports a problem in. A fixture problem
 * (catalog/market-problems.ts FixtureProblem), a schema finding (schema/finding.ts Finding), the
 * findings a MarketStubError and an admin API error body carry (ErrorFinding) and a contract
 * finding (contract/checks/contract-finding.ts ContractFinding) and an option problem
 * (options/resolve-options.ts OptionProblem: the pointer into a config file, and the option as the
 * user gave it: `--port`, `market-stub.config.json /serve/port`) all are one, with their own fields added.
 */
export interface LocatedProblem {
  /** RFC 6901 JSON pointer into the value the problem is about (`/3/yes_price`); `''` is the whole value. */
  pointer: string;
  /** What was expected, in words (`number`, `a YYYY-MM-DD calendar date`). */
  expected: string;
  /** What was found, as compact JSON text or a short description (`"0.63"`, `nothing (missing)`). */
  found: string;
  /** One sentence for people: `/3/yes_price: expected number, found "0.63"`. */
  message: string;
}
