/**
 * A GET for a URL given by a user (platform `stream`), guarded against server-side request forgery:
 *
 * - only `http:` and `https:`, at every hop;
 * - at most MAX_REDIRECTS redirects, each hop checked again;
 * - every address the host resolves to must be public (public-address.ts) unless the admin allows
 *   private hosts; the connection goes to the address that was checked (the check is the socket's own
 *   DNS look-up), so a name that resolves differently a moment later (DNS rebinding) gains nothing;
 * - the answer's headers must arrive within `timeoutMs`.
 *
 * A refusal (`refused`) is the URL's fault and is told to the user as such; `failed` is the network's.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { err, ok, type Result } from '../result';
import { isPublicAddress } from './public-address';

export const MAX_REDIRECTS = 5;
/** How long a server may take to answer with its headers. */
export const ANSWER_TIMEOUT_MS = 10_000;

export interface GuardedFetchOptions {
  /** The admin setting `streamAllowPrivateHosts`: skip the address check (a LAN radio server). */
  allowPrivateHosts: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type FetchFailure = { kind: 'refused'; message: string } | { kind: 'failed'; message: string };

export interface GuardedAnswer {
  response: Response;
  /** The URL that answered, after redirects (relative references in a playlist resolve against it). */
  url: string;
}

/** Why an address was refused; raised inside the socket's look-up so the connection never starts. */
class RefusedAddress extends Error {}

/** A URL's refusal before any request: not http(s), or a host that is a non-public IP literal. */
export function urlRefusal(url: URL, allowPrivateHosts: boolean): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'only http and https addresses can be played';
  if (url.username || url.password) return 'an address with a user name or password cannot be played';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivateHosts && isIP(host) && !isPublicAddress(host)) return refusedHost(host);
  return undefined;
}

const refusedHost = (host: string) =>
  `${host} is a private or local address; an admin can allow such hosts (streamAllowPrivateHosts)`;

export async function guardedFetch(
  address: string,
  options: GuardedFetchOptions,
): Promise<Result<GuardedAnswer, FetchFailure>> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return err({ kind: 'refused', message: 'not a valid address' });
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refusal = urlRefusal(url, options.allowPrivateHosts);
    if (refusal) return err({ kind: 'refused', message: refusal });
    const answer = await getOnce(url, options);
    if (!answer.ok) return answer;
    const message = answer.value;
    const location = message.headers.location;
    const status = message.statusCode ?? 0;
    if (status < 300 || status >= 400 || !location)
      return ok({ response: toResponse(message), url: url.href });
    message.destroy();
    try {
      url = new URL(location, url);
    } catch {
      return err({ kind: 'failed', message: 'the server redirected to an invalid address' });
    }
  }
  return err({ kind: 'refused', message: `more than ${MAX_REDIRECTS} redirects` });
}

function getOnce(url: URL, options: GuardedFetchOptions): Promise<Result<IncomingMessage, FetchFailure>> {
  const requestOptions: RequestOptions = {
    method: 'GET',
    headers: options.headers ?? {},
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let timedOut = false;
    const request = send(url, requestOptions, (message) => {
      clearTimeout(timer);
      resolve(ok(message));
    });
    // Only the wait for the headers is bounded here: a radio stream's body never ends.
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy();
    }, options.timeoutMs ?? ANSWER_TIMEOUT_MS);
    request.once('error', (error) => {
      clearTimeout(timer);
      if (error instanceof RefusedAddress) resolve(err({ kind: 'refused', message: error.message }));
      else if (timedOut) resolve(err({ kind: 'failed', message: `${url.host} did not answer in time` }));
      else resolve(err({ kind: 'failed', message: `${url.host} could not be reached (${error.message})` }));
    });
    request.end();
  });
}

/**
 * The socket's DNS look-up, refusing a host any of whose addresses is not public. Node asks for all
 * addresses (`all: true`) when it races IPv4 and IPv6 (autoSelectFamily), one otherwise.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) return callback(new RefusedAddress(refusedHost(hostname)), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses as [LookupAddress];
    return callback(null, first.address, first.family);
  });
};

function toResponse(message: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const status = message.statusCode ?? 502;
  const noBody = status === 204 || status === 304 || status < 200;
  if (noBody) message.destroy();
  return new Response(noBody ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>), {
    status: status < 200 || status > 599 ? 502 : status,
    headers,
  });
}
