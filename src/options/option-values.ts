import type { OptionKind } from '../floor/option-kind.js';
import type { OptionSpec } from '../floor/option-spec.js';
import type { OptionTable } from './resolve-options.js';

/** `journal-size` → `journalSize`: the key an option's flag gives (resolve-options.ts optionKey does the same at run time). */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The key of an option row: its `key`, else the camelCase of its `flag`. */
export type OptionKeyOf<O> = O extends { key: infer K extends string } ? K : O extends { flag: infer F extends string } ? CamelCase<F> : never;

/** The value a kind resolves to: a number, a boolean, one of the choices, strings for a list, else text. */
type KindValue<K extends OptionKind> =
  K extends { type: 'integer' | 'number' } ? number
    : K extends { type: 'boolean' } ? boolean
      : K extends { type: 'choice'; choices: readonly (infer C)[] } ? C
        : K extends { type: 'list' } ? readonly string[]
          : string;

/** `undefined` for a row that may resolve to nothing (neither a default nor required). */
type Unset<O> = O extends { default: unknown } | { required: string } ? never : undefined;

/**
 * The resolved values of an option table, typed from its rows as literals (a table made by
 * optionTable, or a shared group declared `as const`): `{ port: number; fixtures: string |
 * undefined; paging: 'none' | 'offset' | 'cursor'; … }`. A key the table does not have is a
 * compile error.
 */
export type OptionValues<T extends readonly { flag: string; kind: OptionKind }[]> = {
  readonly [O in T[number] as OptionKeyOf<O>]: KindValue<O['kind']> | Unset<O>;
};

/** The table of `rows` (declared `as const` where shared, so each row keeps its literal flag and kind), typed with OptionValues. */
export function optionTable<const T extends readonly OptionSpec[]>(rows: T): OptionTable<OptionValues<T>> {
  return rows;
}

/** The resolved values of a table made by optionTable: `TableValues<typeof SERVE_OPTIONS>`. */
export type TableValues<T> = T extends OptionTable<infer V> ? V : never;
