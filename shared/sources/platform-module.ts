/**
 * What one platform is on the server: its module (shared/sources/<platform>/<platform>-module.ts),
 * listed once in platform-modules.ts. Its facts (the web-safe row in platforms.ts) say what it can do;
 * the module gives the code that does it: its catalog (search and browse, the api's side), its source
 * (stream resolution, the daemon's side), its login ways, the slice of the process configuration it
 * reads from the environment, and the settings it keeps and which of them are secrets. It has no routes
 * of its own: the api serves every platform by the capability its facts name (a shelf, a login kind),
 * and the few SPEC paths that carry a value take it from the platform owning that capability.
 */
import type { z } from 'zod';
import type { Db } from '../db/client';
import type { AuthLoginKind, FactsOf, Platform, PlatformFacts } from '../domain/platforms';
import type { FfmpegLocation } from '../media/ffmpeg-locator';
import type { SettingsSlice } from '../settings/settings-slice';
import type { MusicSource } from './music-source';
import type { PlatformLogin } from './platform-login';
import type { ShelfCatalogs } from './shelf-catalogs';
import type { SongCatalog } from './song-catalog';

/** What every platform's factories may use, whatever its own configuration. */
export interface CommonContext {
  db: Db;
  /** DATA_DIR: uploads live under it. */
  dataDir: string;
  /** Where ffprobe is looked for (a plain file's tags are read with it); unset: no tags read. */
  ffmpeg?: FfmpegLocation | undefined;
}

/**
 * The environment variables a platform reads (checked at start-up with every other one, by the
 * entries' loadConfig) and the options it makes of them, merged into the process configuration.
 */
export interface ConfigSlice<Shape extends z.ZodRawShape, Options extends object> {
  env: Shape;
  options(env: z.output<z.ZodObject<Shape>>): Options;
}

/**
 * A platform's module. `Options` is what its configuration slice makes; its factories are given the
 * common context with those options (the whole process's context at run time, which has them all).
 */
export interface PlatformModule<Options extends object = object> {
  /** Its registry row (shared/domain/platforms.ts): the module list is keyed by the row's value. */
  facts: PlatformFacts;
  catalog(ctx: CommonContext & Options): SongCatalog;
  source(ctx: CommonContext & Options): MusicSource;
  /** How its shared login is made (QR, cookie, SMS) and renewed, where it has one. */
  login?(ctx: CommonContext & Options): PlatformLogin;
  config?: ConfigSlice<z.ZodRawShape, Options>;
  /** The settings it keeps, with its secrets (read by shared/settings/settings.ts). */
  settings?: SettingsSlice;
}

/** The /api/auth login ways a registry row names. */
type AuthLoginsOf<P extends Platform> = Extract<FactsOf<P>['logins'][number], AuthLoginKind>;

/**
 * The module a registry row asks for: a source that says it is this row's (the sources are found by
 * their `platform`, so a copied source naming another row would silently replace that row's), a login
 * factory giving each of its /api/auth ways (and none where the row names none), the status check of
 * a personal login where the row offers one, and a catalog with the methods of the row's own shelves.
 */
export type ModuleOf<P extends Platform> = Omit<PlatformModule, 'facts' | 'login' | 'catalog' | 'source'> & {
  facts: FactsOf<P>;
  source(ctx: CommonContext): MusicSource & { readonly platform: P };
} & ([AuthLoginsOf<P>] extends [never]
    ? { login?: never }
    : { login(ctx: CommonContext): PlatformLogin & Required<Pick<PlatformLogin, AuthLoginsOf<P>>> }) &
  (FactsOf<P> extends { personalLogin: string }
    ? { login(ctx: CommonContext): Required<Pick<PlatformLogin, 'status'>> }
    : unknown) & {
    catalog(ctx: CommonContext): SongCatalog & ShelvesOf<P>;
  };

/** The catalog methods of the shelves a row names that come with their own (shelf-catalogs.ts). */
type ShelvesOf<P extends Platform> = UnionToIntersection<
  ShelfCatalogs[Extract<FactsOf<P>['shelves'][number], keyof ShelfCatalogs>]
>;
type UnionToIntersection<U> = [U] extends [never]
  ? unknown
  : (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
    ? I
    : never;
