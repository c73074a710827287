/**
 * A platform's slice of the global settings: its key, how a stored value is read (every field with
 * its default), which of its fields are write-only secrets, each shown to clients only as a `has…`
 * flag, and its part of the Settings contract (what GET shows, what POST accepts). Each platform that
 * keeps settings declares its slice in its own folder (`<platform>-settings.ts`, importing nothing of
 * its adapter so the settings can be read without one); its module names it, settings.ts reads with
 * it, and openapi/routes/settings.ts assembles the contract from the slices.
 */
import type { z } from 'zod';

export interface SettingsSlice<K extends string = string, V = unknown> {
  key: K;
  reader: z.ZodType<V>;
  /** Secret field → the flag clients see instead (`password` → `hasPassword`: whether one is set). */
  secrets?: Readonly<Record<string, `has${string}`>>;
  /** What GET /api/bot/settings shows under `key`: the value with each secret replaced by its flag. */
  shown: z.ZodType;
  /** What POST /api/bot/settings accepts under `key` (a merge: an object's fields are each optional). */
  update: z.ZodType;
}

type SliceContract = 'shown' | 'update';
/** The slices' part of the Settings contract: each slice's `shown` or `update` schema under its key. */
export type SlicesContract<S extends readonly SettingsSlice[], C extends SliceContract> = {
  [X in S[number] as X['key']]: X[C];
};

export function slicesContract<const S extends readonly SettingsSlice[], C extends SliceContract>(
  slices: S,
  contract: C,
): SlicesContract<S, C> {
  return Object.fromEntries(slices.map((slice) => [slice.key, slice[contract]])) as SlicesContract<S, C>;
}

/** The description of a write-only secret field in a slice's `update` schema. */
export const WRITE_ONLY_SECRET = 'Write-only; an empty string clears it';
