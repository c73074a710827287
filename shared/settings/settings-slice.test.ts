import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlatformModule } from '../sources/platform-module';
import { PLATFORM_MODULES } from '../sources/platform-modules';
import { PLATFORM_SETTINGS, SETTINGS_KEYS } from './settings';

/** An object schema's field names; a scalar slice (one setting, not a block) has none. */
function fieldsOf(schema: z.ZodType): string[] | undefined {
  const inner = schema instanceof z.ZodCatch ? schema.unwrap() : schema;
  return inner instanceof z.ZodObject ? Object.keys(inner.shape).sort() : undefined;
}

describe("the platforms' settings slices", () => {
  it('are exactly those the platform modules name, each a settings key', () => {
    const named = Object.values(PLATFORM_MODULES).flatMap((module: PlatformModule) =>
      module.settings ? [module.settings] : [],
    );
    expect(new Set(PLATFORM_SETTINGS)).toEqual(new Set(named));
    for (const slice of PLATFORM_SETTINGS) expect(SETTINGS_KEYS).toContain(slice.key);
  });

  it('show every stored field but a secret, which shows as its flag, and accept every stored field', () => {
    for (const slice of PLATFORM_SETTINGS) {
      const stored = fieldsOf(slice.reader);
      const secrets: Record<string, string> = 'secrets' in slice ? slice.secrets : {};
      const shown = stored?.map((field) => secrets[field] ?? field).sort();
      expect({ key: slice.key, shown: fieldsOf(slice.shown) }).toEqual({ key: slice.key, shown });
      expect({ key: slice.key, accepted: fieldsOf(slice.update) }).toEqual({
        key: slice.key,
        accepted: stored,
      });
    }
  });
});
