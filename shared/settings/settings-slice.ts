/**
 * A platform's slice of the global settings: its key, how a stored value is read (every field with
 * its default), and which of its fields are write-only secrets, each shown to clients only as a
 * `has…` flag. Each platform that keeps settings declares its slice in its own folder
 * (`<platform>-settings.ts`, importing nothing of its adapter so the settings can be read without
 * one); its module names it, and settings.ts reads with it.
 */
import type { z } from 'zod';

export interface SettingsSlice<K extends string = string, V = unknown> {
  key: K;
  reader: z.ZodType<V>;
  /** Secret field → the flag clients see instead (`password` → `hasPassword`: whether one is set). */
  secrets?: Readonly<Record<string, `has${string}`>>;
}
