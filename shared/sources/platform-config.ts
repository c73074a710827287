/**
 * The platforms' slices of the process configuration (the environment variables a platform reads and
 * the options it makes of them), one entry per platform that has one, written out of the module list
 * (platform-modules.ts) by `make openapi` so that reading the configuration (shared/config.ts) loads no
 * adapter: a slice is a light file of its platform's folder, named by its module.
 */
import type { z } from 'zod';
import { PLATFORM_CONFIG_SLICES } from './platform-config.generated';
import type { ConfigSlice } from './platform-module';

export const PLATFORM_CONFIG = PLATFORM_CONFIG_SLICES satisfies readonly {
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
