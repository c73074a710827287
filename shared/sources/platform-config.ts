/**
 * The platforms' slices of the process configuration (the environment variables a platform reads and
 * the options it makes of them), one entry per platform that has one. Kept apart from the module list
 * (platform-modules.ts) so that reading the configuration (shared/config.ts) loads no adapter: a slice
 * is a light file of its platform's folder, and the platform's module names the same slice (a test
 * checks that they agree).
 */
import type { z } from 'zod';
import type { ConfigSlice } from './platform-module';
import { spotifyOptions } from './spotify/spotify-options';
import { youtubeConfig } from './youtube/youtube-config';

export const PLATFORM_CONFIG = [youtubeConfig, spotifyOptions] as const satisfies readonly {
  env: z.ZodRawShape;
  options(env: never): object;
}[];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** The options the platforms' configuration slices make, all together (part of the process configuration). */
export type PlatformOptions = UnionToIntersection<ReturnType<(typeof PLATFORM_CONFIG)[number]['options']>>;

const slices: readonly ConfigSlice<z.ZodRawShape, object>[] = PLATFORM_CONFIG;

/** The environment variables the platforms read, for the entries' loadConfig to check with the rest. */
export const PLATFORM_ENV: z.ZodRawShape = Object.assign({}, ...slices.map((slice) => slice.env));

/** The platforms' options made of the checked environment. */
export function platformOptions(env: Record<string, unknown>): PlatformOptions {
  return Object.assign({}, ...slices.map((slice) => slice.options(env as never))) as PlatformOptions;
}
