/**
 * A result union for protocol edges, parsers, bus replies and source adapters: failures that come
 * from outside are values, not exceptions. Exceptions stay for programmer mistakes.
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
