/**
 * The check behind `POST /api/auth/jellyfin/test`: is the address a Jellyfin server
 * (`/System/Info/Public`, answered without a login), and do the credentials log in? Fields left
 * empty fall back to the stored configuration (SPEC). Nothing is stored: the admin may be trying
 * values before saving them. The answer is always `{ok, …}`; a failure is a sentence saying why
 * (unreachable, not a Jellyfin server, wrong password, invalid key).
 *
 * `PublicSystemInfo` (`ServerName`, `Version`, `ProductName` "Jellyfin Server") from jellyfin/jellyfin
 * MediaBrowser.Model/System/PublicSystemInfo.cs and Jellyfin.Api/Controllers/SystemController.cs.
 */
import { err, ok, type Result } from '../../result';
import type { StoredSettings } from '../../settings/settings';
import { type JellyfinAuthMode, jellyfinCredentials, normalizeServerUrl } from './jellyfin-config';
import { callJellyfin } from './jellyfin-http';
import { logIn } from './jellyfin-login';
import { PublicSystemInfoSchema } from './jellyfin-schemas';

export interface JellyfinTestInput {
  serverUrl?: string | undefined;
  authMode?: JellyfinAuthMode | undefined;
  username?: string | undefined;
  password?: string | undefined;
  apiKey?: string | undefined;
  userId?: string | undefined;
}

export interface JellyfinTestResult {
  ok: boolean;
  serverName?: string;
  version?: string;
  error?: string;
}

export async function testJellyfinConnection(
  input: JellyfinTestInput,
  stored: StoredSettings['jellyfin'],
): Promise<JellyfinTestResult> {
  const serverUrl = normalizeServerUrl(input.serverUrl || stored.serverUrl);
  if (!serverUrl.ok) return { ok: false, error: serverUrl.error };
  const mode = input.authMode ?? stored.authMode;
  // The stored secret is a password or a key depending on the stored mode; only the same mode may reuse it.
  const storedSecret = stored.authMode === mode ? stored.password : '';
  const secret = (mode === 'apikey' ? input.apiKey || input.password : input.password) || storedSecret;
  const credentials = jellyfinCredentials(
    mode,
    input.username || stored.username,
    secret,
    input.userId || undefined,
  );
  if (!credentials.ok) return { ok: false, error: credentials.error };
  const server = await publicInfo(serverUrl.value);
  if (!server.ok) return { ok: false, error: server.error };
  const login = await logIn(serverUrl.value, credentials.value);
  return login.ok ? { ok: true, ...server.value } : { ok: false, error: login.error };
}

async function publicInfo(serverUrl: string): Promise<Result<{ serverName: string; version: string }>> {
  const answer = await callJellyfin(serverUrl, '/System/Info/Public');
  if (!answer.ok) return answer;
  const info = PublicSystemInfoSchema.safeParse(answer.value.body);
  if (answer.value.status !== 200 || !info.success || !info.data.ProductName?.includes('Jellyfin'))
    return err(`${serverUrl} is not a Jellyfin server`);
  return ok({ serverName: info.data.ServerName, version: info.data.Version });
}
