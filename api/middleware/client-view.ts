/**
 * The address the browser used to reach the service, and its own address, as one answer for every
 * place that needs them (the cross-site check, the Secure cookie flag, rate limits, absolute links).
 *
 * Behind a trusted proxy (`TRUST_PROXY=1`) the proxy's headers are read, first hop only, in this order:
 * - `Forwarded` (RFC 7239): `for=`, `proto=`, `host=` of its first element;
 * - `X-Forwarded-For`, `X-Forwarded-Proto`, `X-Forwarded-Host`; a host without a port gets
 *   `X-Forwarded-Port` when that is not the scheme's default (proxies that send `$host` drop the port
 *   the browser's `Origin` carries, e.g. `https://music.example.org:8443`).
 * Without a trusted proxy they are ignored: anybody can send them.
 *
 * `PUBLIC_URL`, when set, is where people reach the service: its host is always one of the service's
 * own, whatever the headers say.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env';

export interface ProxyTrust {
  trustProxy: boolean;
  publicUrl: string | null;
}

interface ForwardedHop {
  for?: string;
  proto?: string;
  host?: string;
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

const firstValue = (header: string | undefined) => header?.split(',')[0]?.trim() || undefined;

/** The first element of an RFC 7239 `Forwarded` header, its parameter names lower-cased, quotes removed. */
export function parseForwarded(header: string | undefined): ForwardedHop {
  const first = header?.split(',')[0];
  const hop: ForwardedHop = {};
  for (const pair of first?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim().toLowerCase();
    const value = pair
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if ((name === 'for' || name === 'proto' || name === 'host') && value) hop[name] = value;
  }
  return hop;
}

/** A `for=` node as an address: brackets and port dropped ("[2001:db8::1]:4711" → "2001:db8::1"). */
function nodeAddress(node: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(node);
  if (bracketed?.[1]) return bracketed[1];
  return node.split(':').length === 2 ? (node.split(':')[0] ?? node) : node;
}

/** The scheme the browser used: `https` or `http`. */
export function requestProto(c: Context<AppEnv>, trust: ProxyTrust): 'http' | 'https' {
  if (trust.trustProxy) {
    const proto =
      parseForwarded(c.req.header('forwarded')).proto ?? firstValue(c.req.header('x-forwarded-proto'));
    if (proto) return proto.toLowerCase() === 'https' ? 'https' : 'http';
  }
  return new URL(c.req.url).protocol === 'https:' ? 'https' : 'http';
}

/** The host (with its port, unless the scheme's default) the browser sent its request to. */
export function requestHost(c: Context<AppEnv>, trust: ProxyTrust): string {
  if (trust.trustProxy) {
    const forwarded = parseForwarded(c.req.header('forwarded')).host;
    if (forwarded) return forwarded.toLowerCase();
    const host = firstValue(c.req.header('x-forwarded-host'));
    if (host) {
      const port = firstValue(c.req.header('x-forwarded-port'));
      const hasPort = /:\d+$/.test(host);
      const isDefault = port === DEFAULT_PORTS[requestProto(c, trust)];
      return (port && !hasPort && !isDefault ? `${host}:${port}` : host).toLowerCase();
    }
  }
  return (c.req.header('host') || new URL(c.req.url).host).toLowerCase();
}

/** The client's address as the proxy saw it, or undefined to fall back on the socket's peer. */
export function forwardedClientAddress(c: Context<AppEnv>, trust: ProxyTrust): string | undefined {
  if (!trust.trustProxy) return undefined;
  const forwarded = parseForwarded(c.req.header('forwarded')).for;
  if (forwarded) return nodeAddress(forwarded);
  return firstValue(c.req.header('x-forwarded-for'));
}

/** Every host a page of this service is served from: the one requested, and PUBLIC_URL's. */
export function ownHosts(c: Context<AppEnv>, trust: ProxyTrust): Set<string> {
  const hosts = new Set([requestHost(c, trust)]);
  if (trust.publicUrl) hosts.add(new URL(trust.publicUrl).host.toLowerCase());
  return hosts;
}

/** The origin absolute links start from: PUBLIC_URL when set (base path included), else the request's. */
export function publicOrigin(c: Context<AppEnv>, trust: ProxyTrust, basePath: string): string {
  if (trust.publicUrl) return trust.publicUrl.replace(/\/+$/, '');
  return `${requestProto(c, trust)}://${requestHost(c, trust)}${basePath}`;
}
