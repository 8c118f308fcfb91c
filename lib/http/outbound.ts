import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { pipeline, Transform, type Readable } from 'node:stream';
import { config } from '../config';
import { ApiError } from './problem';

// Requests Codetally makes on a user's word (an import by key, a relay): to another server whose
// address the user gave, so never an open door into the network the service runs in. A host is
// reached only when the policy lists it (`host` or `host:port`: the operator's own settings, such
// as IMPORT_ALLOWED_HOSTS, WAKATIME_API_URL's host and IMPORT_DOWNLOAD_HOSTS, the only way to a
// loopback or private address), or, where the policy allows public addresses, when every address
// its name resolves to is public. The check is made in the connection's own look-up, so the address
// checked is the address connected to (a name that answers a public address to a check and a
// private one to the connection gets nowhere). Redirects are followed only to where the same policy
// allows, at most MAX_REDIRECTS, and never to another origin with an Authorization header (a key
// goes only where its owner named); a method other than GET is never redirected. Every request is
// bounded: a deadline for the whole exchange (headers and body) and a size for the body.

/** Where requests may go. */
export interface OutboundPolicy {
  /** Hosts reachable whatever their address: `host` (any port) or `host:port`, lower case. */
  hosts: readonly string[];
  /** Whether any other host is reachable when all its addresses are public. */
  publicAddresses: boolean;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange's deadline, body included. */
  timeoutMs: number;
  /** The most bytes of body taken; more is an error (`too_large`). */
  maxBytes: number;
}

export interface OutboundAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The address that answered (after redirects). */
  url: string;
}

/** Why an outbound request got no answer; `message` names the host at most, never a header. */
export type OutboundFailure = 'refused_address' | 'refused_redirect' | 'bad_url' | 'timeout' | 'too_large' | 'unreachable';

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export const MAX_REDIRECTS = 3;

/** Where an address a user gave may lead: public addresses, and the hosts IMPORT_ALLOWED_HOSTS lists. */
export function userAddresses(): OutboundPolicy {
  return { hosts: hostList(config().IMPORT_ALLOWED_HOSTS), publicAddresses: true };
}

/** `host[:port]` items of a comma-separated setting, lower case, IPv6 in brackets as in a URL. */
export function hostList(setting: string | undefined): string[] {
  return (setting ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/** The `host:port` of a URL (the scheme's port when it names none), as a policy lists it. */
export function hostOf(url: URL): { host: string; port: string } {
  return { host: url.hostname.toLowerCase(), port: url.port || (url.protocol === 'https:' ? '443' : '80') };
}

/** Whether the policy lists the URL's host (with its port, or with none). */
export function listed(policy: OutboundPolicy, url: URL): boolean {
  const { host, port } = hostOf(url);
  return policy.hosts.includes(host) || policy.hosts.includes(`${host}:${port}`);
}

// Addresses that are not the public internet: this machine, private networks, links, carrier NAT,
// documentation, multicast and reserved ranges, and the same behind IPv6's mappings, translations and
// the old IPv4-compatible form (::a.b.c.d).
const notPublic = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) notPublic.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 96], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) notPublic.addSubnet(net6, bits, 'ipv6');

/** Whether an address is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    if (/^::ffff:/i.test(address)) return false;
  }
  return !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A look-up for the connection that refuses a name with any address that is not public. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || !list.every((a) => isPublicAddress(a.address))) {
      return callback(Object.assign(new Error('not a public address'), { code: 'ECODETALLY_REFUSED' }), '', 0);
    }
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  });
}

/** The URL checked against the policy before anything is sent: a scheme, no credentials, a host it allows. */
export function checkedUrl(raw: string | URL, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad_url', 'not an address (http:// or https://)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('bad_url', 'must be an http:// or https:// address');
  if (url.username || url.password) throw new OutboundError('bad_url', 'must not carry a user name or password');
  if (listed(policy, url)) return url;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.publicAddresses || (net.isIP(literal) && !isPublicAddress(literal)) || literal === 'localhost' || literal.endsWith('.localhost')) {
    throw new OutboundError('refused_address', `${url.host} is not an address this server may reach`);
  }
  return url;
}

/**
 * An address field of a request body, checked against the policy before anything is sent: no
 * #fragment, and for an API base (`base`) no ?query and no trailing slash. Refused with a 422
 * naming the field and its rule (`invalid_format`, or `address_not_allowed` for a host the policy
 * keeps out).
 */
export function checkedUrlField(path: string, raw: string, policy: OutboundPolicy, { base = false } = {}): string {
  try {
    const url = checkedUrl(raw, policy);
    if (url.hash || (base && url.search)) throw new OutboundError('bad_url', base ? 'must be a base address, without ? or #' : 'must not carry a #fragment');
    return base ? url.toString().replace(/\/+$/, '') : url.toString();
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    const code = err.failure === 'bad_url' ? 'invalid_format' : 'address_not_allowed';
    throw new ApiError('invalid_payload', 'The request body is not valid.', { errors: [{ path, code, message: `${path}: ${err.message}` }] });
  }
}

/**
 * Sends one request under the policy and answers its status, headers and body as a stream bounded
 * by `maxBytes` and the deadline (the stream fails with an OutboundError past either). The caller
 * reads the body or destroys it.
 */
export async function outbound(raw: string | URL, policy: OutboundPolicy, req: OutboundRequest): Promise<OutboundAnswer & { body: Readable }> {
  const deadline = Date.now() + req.timeoutMs;
  let url = checkedUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    const res = await once(url, policy, req, deadline);
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304 && location) {
      res.destroy();
      if ((req.method ?? 'GET') !== 'GET' || hop >= MAX_REDIRECTS) throw new OutboundError('refused_redirect', `${url.host} answered a redirect, which is not followed`);
      let next: URL;
      try {
        next = checkedUrl(new URL(location, url), policy);
      } catch (err) {
        throw err instanceof OutboundError ? new OutboundError('refused_redirect', `${url.host} redirected to an address this server may not reach`) : err;
      }
      // A user's key goes only to the place the user named: never on to another origin.
      if (next.origin !== url.origin && Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) {
        throw new OutboundError('refused_redirect', `${url.host} redirected elsewhere; a key is not sent on`);
      }
      url = next;
      continue;
    }
    return { status: res.statusCode ?? 0, headers: res.headers, url: url.toString(), body: bounded(res, req.maxBytes, deadline, url.host) };
  }
}

/** Sends one request and reads its whole body (at most `maxBytes`). */
export async function outboundBytes(raw: string | URL, policy: OutboundPolicy, req: OutboundRequest): Promise<OutboundAnswer & { body: Buffer }> {
  const answer = await outbound(raw, policy, req);
  const parts: Buffer[] = [];
  for await (const chunk of answer.body) parts.push(chunk as Buffer);
  return { ...answer, body: Buffer.concat(parts) };
}

function once(url: URL, policy: OutboundPolicy, req: OutboundRequest, deadline: number): Promise<http.IncomingMessage> {
  const left = deadline - Date.now();
  if (left <= 0) return Promise.reject(new OutboundError('timeout', `${url.host} did not answer in time`));
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: req.method ?? 'GET',
      headers: { ...req.headers, ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) },
      lookup: listed(policy, url) ? undefined : publicLookup,
      agent: false,
      timeout: left,
    });
    const timer = setTimeout(() => request.destroy(new OutboundError('timeout', `${url.host} did not answer in time`)), left);
    request.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    request.on('timeout', () => request.destroy(new OutboundError('timeout', `${url.host} did not answer in time`)));
    request.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err instanceof OutboundError) return reject(err);
      if (err.code === 'ECODETALLY_REFUSED') return reject(new OutboundError('refused_address', `${url.host} is not an address this server may reach`));
      reject(new OutboundError('unreachable', `${url.host} could not be reached`));
    });
    request.end(req.body);
  });
}

/** The body, failing past `maxBytes` or the deadline. */
function bounded(res: http.IncomingMessage, maxBytes: number, deadline: number, host: string): Readable {
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new OutboundError('too_large', `${host}'s answer is over ${maxBytes} bytes`));
      done(null, chunk);
    },
  });
  const timer = setTimeout(() => counted.destroy(new OutboundError('timeout', `${host} did not send its whole answer in time`)), Math.max(0, deadline - Date.now()));
  pipeline(res, counted, (err) => {
    clearTimeout(timer);
    if (err && !counted.destroyed) counted.destroy(err instanceof OutboundError ? err : new OutboundError('unreachable', `${host}'s answer was cut short`));
  });
  counted.on('close', () => clearTimeout(timer));
  return counted;
}
