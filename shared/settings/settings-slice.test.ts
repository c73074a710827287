import { describe, expect, it } from 'vitest';
import type { PlatformModule } from '../sources/platform-module';
import { PLATFORM_MODULES } from '../sources/platform-modules';
import { PLATFORM_SETTINGS, SETTINGS_KEYS } from './settings';

describe("the platforms' settings slices", () => {
  it('are exactly those the platform modules name, each a settings key', () => {
    const named = Object.values(PLATFORM_MODULES).flatMap((module: PlatformModule) =>
      module.settings ? [module.settings] : [],
    );
    expect(new Set(PLATFORM_SETTINGS)).toEqual(new Set(named));
    for (const slice of PLATFORM_SETTINGS) expect(SETTINGS_KEYS).toContain(slice.key);
  });
});
