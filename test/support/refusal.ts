import { expect } from 'vitest';

/** The error `run` throws, checked to be a `type`; fails the test when it throws nothing. */
export function refusal<E extends Error>(run: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name}`);
}
