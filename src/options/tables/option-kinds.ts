/** Helpers that write option kinds (core/option-kind.ts) as literal types, so tables type their values (option-values.ts). */

/** An integer kind within [min, max]. */
export const int = (min: number, max: number) => ({ type: 'integer', min, max }) as const;
/** One of `choices`, typed as their union. */
export const choice = <C extends string>(...choices: C[]) => ({ type: 'choice', choices }) as const;
export const BOOLEAN = { type: 'boolean' } as const;
/** Repeatable text values, comma-separated in the environment. */
export const LIST = { type: 'list', separator: ',' } as const;
