import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, outbound, outboundBytes, type OutboundPolicy } from '../../lib/http/outbound';

// The rules of requests made on a user's word, against real servers on this machine's loopback
// (which no such request may reach unless the operator lists it).

let server: http.Server;
let other: http.Server;
let base: string;
let otherBase: string;
const seen: string[] = [];
const otherSeen: string[] = [];

const listen = (s: http.Server) => new Promise<string>((resolve) => s.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(s.address() as AddressInfo).port}`)));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/big') return res.end(Buffer.alloc(64 * 1024, 97));
    if (req.url === '/hang') return void res.writeHead(200).write('partial');
    if (req.url === '/to-other') return void res.writeHead(302, { location: `http://${otherBase}/hello` }).end();
    if (req.url === '/to-self') return void res.writeHead(301, { location: '/hello' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, method: req.method }));
  });
  other = http.createServer((request, res) => {
    otherSeen.push(request.headers.authorization ?? '');
    res.end('other');
  });
  base = await listen(server);
  otherBase = await listen(other);
});
afterAll(() => {
  server.close();
  other.close();
});

const only = (...hosts: string[]): OutboundPolicy => ({ hosts, publicAddresses: true });
const req = { timeoutMs: 2_000, maxBytes: 16 * 1024 };

describe('outbound requests', () => {
  it('reach a loopback host only when the operator lists it (with its port, or without one)', async () => {
    await expect(outbound(`http://${base}/hello`, only(), req)).rejects.toMatchObject({ failure: 'refused_address' });
    const answer = await outboundBytes(`http://${base}/hello`, only(base), req);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({ ok: true, method: 'GET' });
    expect((await outboundBytes(`http://${base}/hello`, only('127.0.0.1'), req)).status).toBe(200);
    await expect(outbound(`http://${base}/hello`, only('127.0.0.1:1'), req)).rejects.toMatchObject({ failure: 'refused_address' });
  });

  it('refuse localhost, mapped and private literals, credentials and other schemes before sending anything', async () => {
    const before = seen.length;
    for (const url of [`http://localhost:${base.split(':')[1]}/`, `http://[::ffff:127.0.0.1]:${base.split(':')[1]}/`, 'http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data/']) {
      await expect(outbound(url, only(), req)).rejects.toMatchObject({ failure: 'refused_address' });
    }
    await expect(outbound(`http://user:pw@${base}/`, only(base), req)).rejects.toMatchObject({ failure: 'bad_url' });
    await expect(outbound('file:///etc/passwd', only(), req)).rejects.toMatchObject({ failure: 'bad_url' });
    expect(seen.length).toBe(before);
  });

  it('check the address a name resolves to at connection time', async () => {
    const name = os.hostname();
    const addresses = await dns.lookup(name, { all: true }).catch(() => []);
    const port = base.split(':')[1];
    const attempt = outbound(`http://${name}:${port}/hello`, only(), req);
    if (addresses.length > 0 && addresses.every((a) => !isPublicAddress(a.address))) await expect(attempt).rejects.toMatchObject({ failure: 'refused_address' });
    else await expect(attempt).rejects.toBeTruthy();
  });

  it('follow redirects only where the policy reaches, and never for a POST', async () => {
    expect((await outboundBytes(`http://${base}/to-self`, only(base), req)).url).toBe(`http://${base}/hello`);
    await expect(outbound(`http://${base}/to-other`, only(base), req)).rejects.toMatchObject({ failure: 'refused_redirect' });
    expect((await outboundBytes(`http://${base}/to-other`, only(base, otherBase), req)).body.toString()).toBe('other');
    await expect(outbound(`http://${base}/to-self`, only(base), { ...req, method: 'POST', body: '{}' })).rejects.toMatchObject({ failure: 'refused_redirect' });
    // A key is never sent on to another origin, even one the policy reaches.
    const keyed = { ...req, headers: { Authorization: 'Basic a2V5' } };
    expect((await outboundBytes(`http://${base}/to-self`, only(base), keyed)).status).toBe(200);
    const before = otherSeen.length;
    await expect(outbound(`http://${base}/to-other`, only(base, otherBase), keyed)).rejects.toMatchObject({ failure: 'refused_redirect' });
    expect(otherSeen.length).toBe(before);
    await expect(outbound(`http://${base}/loop`, only(base), req)).rejects.toMatchObject({ failure: 'refused_redirect' });
  });

  it('bound the body in size and the exchange in time', async () => {
    await expect(outboundBytes(`http://${base}/big`, only(base), req)).rejects.toMatchObject({ failure: 'too_large' });
    expect((await outboundBytes(`http://${base}/big`, only(base), { ...req, maxBytes: 64 * 1024 })).body.length).toBe(64 * 1024);
    await expect(outboundBytes(`http://${base}/hang`, only(base), { ...req, timeoutMs: 300 })).rejects.toMatchObject({ failure: 'timeout' });
  });

  it('tell public addresses from the rest', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '::7f00:1', '::a00:1', 'not an address']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});
