/**
 * What every msw platform stand-in (netease-api.ts, qq-music-api.ts, bilibili-api.ts, jellyfin-api.ts)
 * shares: fixtures read from tests/fixtures/<platform>/, the log of what the platform was asked, and
 * the answers a test puts in place of the fixtures. Log and answers are cleared after each test, so
 * every test meets the stand-in as it started. Each stand-in keeps its own request checks and its
 * default answers; this is only the bookkeeping around them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, type JsonBodyType } from 'msw';
import { afterEach } from 'vitest';

/** tests/fixtures/<folder>/<name>.json, parsed. */
export function readFixture<T = unknown>(folder: string, name: string): T {
  return JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures', folder, `${name}.json`), 'utf8'));
}

/** What a test wants one request answered with: a JSON body, or a Response made from the request. */
export type Answer<Asked> = object | ((asked: Asked) => Response | Promise<Response>);

export interface PlatformStub<Asked> {
  /** What the platform was asked during the current test, in order. */
  readonly requests: Asked[];
  /** Answers the requests under `key` (a path, a module.method…) with this until the test ends. */
  answer(key: string, body: Answer<Asked>): void;
  /**
   * Answers a request the stand-in has logged: the test's Response maker first; then `refusal`, a
   * check that turns away even a test's body (a bad signature); then the test's body; else `fallback`
   * (the stand-in's fixture answer).
   */
  reply(
    key: string,
    asked: Asked,
    fallback: () => Response,
    refusal?: () => Response | undefined,
  ): Response | Promise<Response>;
}

/** The request log and test answers of one stand-in, reset after each test of the file. */
export function usePlatformStub<Asked>(): PlatformStub<Asked> {
  const requests: Asked[] = [];
  const overrides = new Map<string, Answer<Asked>>();
  afterEach(() => {
    requests.length = 0;
    overrides.clear();
  });
  return {
    requests,
    answer(key, body) {
      overrides.set(key, body);
    },
    reply(key, asked, fallback, refusal) {
      const override = overrides.get(key);
      if (typeof override === 'function') return override(asked);
      const refused = refusal?.();
      if (refused) return refused;
      return override === undefined ? fallback() : HttpResponse.json(override as JsonBodyType);
    },
  };
}

/** The logged requests to one path, in order. */
export const requestsTo =
  <Asked extends { path: string }>(requests: readonly Asked[]) =>
  (path: string): Asked[] =>
    requests.filter((r) => r.path === path);
