import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backoff, flush, readStatus } from '../../client/src/flush';
import { Home } from '../../client/src/home';
import { tryLock } from '../../client/src/lock';
import { Queue } from '../../client/src/queue';
import { clientHome } from '../helpers/client';

// The reference client's queue (client/src/queue.ts) and sender (client/src/flush.ts): what a
// crash leaves is finished once, and each answer of the sync routes does what the contract says
// to the batch. The answers come from a small HTTP server scripted per test (the real server
// answers 413 only past limits a client never reaches, and 5xx only when broken; the end-to-end
// tests in tests/e2e/client.test.ts run against the real one).
process.env.TZ = 'UTC';

interface Seen {
  key: string;
  path: string;
  buckets: { time: number }[];
}
let answers: ((seen: Seen) => [number, Record<string, string>, unknown])[] = [];
const seen: Seen[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const s = { key: String(req.headers['idempotency-key']), path: req.url!, buckets: JSON.parse(body).activities };
    seen.push(s);
    const [status, headers, answer] = (answers.shift() ?? (() => [200, {}, { accepted: s.buckets.length, rejected: [] }]))(s);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(answer));
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
const homes: string[] = [];
afterEach(() => {
  answers = [];
  seen.length = 0;
});
afterAll(() => homes.forEach((h) => fs.rmSync(h, { recursive: true, force: true })));

function setup(): { home: Home; queue: Queue } {
  const dir = clientHome();
  homes.push(dir);
  const home = new Home(dir);
  home.writeConfig({ api_url: url, token: 'ct_test' });
  return { home, queue: new Queue(home) };
}

const base = Date.parse('2026-11-20T00:00:00Z');
/** `n` editor events a minute apart, each in a language of its own: n-1 buckets (one per language... and hour). */
function record(queue: Queue, n: number, from = base) {
  for (let i = 0; i < n; i++) queue.record({ kind: 'editor', at: from + i * 60_000, language: `L${i}`, project: 'p', editor: 'e' });
}
const sentSeconds = () => seen.reduce((s, x) => s + x.buckets.reduce((a, b) => a + b.time, 0), 0);

describe('the queue', () => {
  it('commits once what a sender that crashed after writing its outbox file left behind', () => {
    const { home, queue } = setup();
    record(queue, 5);
    const events = queue.pendingEvents();
    const before = fs.readdirSync(home.file('events')).map((n) => [n, fs.readFileSync(path.join(home.file('events'), n))] as const);
    expect(queue.commit()).toMatchObject({ events: 5 });
    const outbox = queue.outbox();
    expect(outbox).toHaveLength(1);
    // The crash: the outbox file is written, but the events and their list are still there and state.json is the old one.
    for (const [n, data] of before) fs.writeFileSync(path.join(home.file('events'), n), data);
    fs.writeFileSync(path.join(home.file('outbox'), outbox[0].replace('.json', '.consumed')), events.join('\n'));
    fs.rmSync(home.file('state.json'));
    expect(queue.pendingEvents()).toEqual(events);
    queue.recover();
    expect(queue.pendingEvents()).toEqual([]);
    expect(queue.commit()).toMatchObject({ events: 0 });
    expect(queue.size()).toMatchObject({ batches: 1, buckets: 4 });
    // The state came back from the outbox file: the next event is credited after the last one.
    record(queue, 1, base + 5 * 60_000);
    queue.commit();
    expect(queue.size()).toMatchObject({ batches: 2, buckets: 5 });
  });

  it('commits again what a sender that crashed before writing its outbox file left behind', () => {
    const { home, queue } = setup();
    record(queue, 5);
    // The crash: the list of consumed events is written, the outbox file is not.
    fs.writeFileSync(path.join(home.file('outbox'), '000000000001.consumed'), queue.pendingEvents().join('\n'));
    queue.recover();
    expect(queue.pendingEvents()).toHaveLength(5);
    expect(fs.readdirSync(home.file('outbox'))).toEqual([]);
    expect(queue.commit()).toMatchObject({ events: 5 });
    expect(queue.size()).toMatchObject({ events: 0, batches: 1, buckets: 4 });
  });

  it('writes batches of at most 1000 buckets, each with a key of its own, kept with it', () => {
    const { queue } = setup();
    record(queue, 2102);
    queue.commit();
    const file = JSON.parse(fs.readFileSync(path.join(queue.home.file('outbox'), queue.outbox()[0]), 'utf8'));
    expect(file.batches.map((b: { buckets: unknown[] }) => b.buckets.length)).toEqual([1000, 1000, 101]);
    expect(new Set(file.batches.map((b: { key: string }) => b.key)).size).toBe(3);
  });
});

describe('the sender', () => {
  it('sends a batch the server could not take again with the same key, and never twice once stored', async () => {
    const { home, queue } = setup();
    record(queue, 4);
    answers = [() => [503, {}, { code: 'unavailable' }]];
    expect(await flush(home)).toMatchObject({ delivered: 0, queued: 1, error: '503 unavailable' });
    expect(readStatus(home)).toMatchObject({ failures: 1, last_error: '503 unavailable' });
    expect(readStatus(home).next_attempt_at).toBeGreaterThan(Date.now());
    // A background flush waits out the back-off; an explicit one goes ahead.
    expect(await flush(home)).toMatchObject({ delivered: 0, queued: 1 });
    expect(seen).toHaveLength(1);
    expect(await flush(home, { force: true })).toMatchObject({ delivered: 1, queued: 0, error: null });
    expect(seen.map((s) => s.key)).toEqual([seen[0].key, seen[0].key]);
    expect(readStatus(home)).toMatchObject({ failures: 0, next_attempt_at: 0 });
    expect(await flush(home, { force: true })).toMatchObject({ delivered: 0, queued: 0 });
    expect(seen).toHaveLength(2);
  });

  it('waits at least what Retry-After asks on 429 and 409, retrying within its time', async () => {
    const { home, queue } = setup();
    record(queue, 3);
    answers = [() => [429, { 'retry-after': '1' }, { code: 'rate_limited' }], () => [409, {}, { code: 'idempotency_in_progress' }]];
    const t0 = Date.now();
    expect(await flush(home, { retryForMs: 10_000 })).toMatchObject({ delivered: 1, queued: 0 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
  });

  it('splits a batch the server finds too large into halves with keys of their own', async () => {
    const { home, queue } = setup();
    record(queue, 11);
    answers = [() => [413, {}, { code: 'payload_too_large' }]];
    expect(await flush(home)).toMatchObject({ delivered: 2, queued: 0 });
    expect(seen.map((s) => s.buckets.length)).toEqual([10, 5, 5]);
    expect(new Set(seen.map((s) => s.key)).size).toBe(3);
    expect(sentSeconds()).toBe(2 * 10 * 60); // the refused one, then its halves
  });

  it('drops and logs what the server refuses for good, and keeps the rest', async () => {
    const { home, queue } = setup();
    record(queue, 3);
    queue.commit();
    record(queue, 3, base + 3600_000);
    answers = [() => [200, {}, { accepted: 1, rejected: [{ index: 1, errors: [{ field: 'language', code: 'too_long' }] }] }], () => [422, {}, { code: 'invalid_payload', detail: 'no valid bucket' }]];
    expect(await flush(home)).toMatchObject({ delivered: 1, dropped: 1, queued: 0 });
    expect(readStatus(home)).toMatchObject({ dropped_buckets: 1 + 2, last_error: '422 invalid_payload no valid bucket' });
    const log = fs.readFileSync(home.file('client.log'), 'utf8');
    expect(log).toContain('refused 1 bucket(s)');
    expect(log).toContain('dropped batch');
  });

  it('keeps everything while the token is refused', async () => {
    const { home, queue } = setup();
    record(queue, 3);
    answers = [() => [401, {}, { code: 'invalid_token' }]];
    expect(await flush(home)).toMatchObject({ delivered: 0, queued: 1, error: '401 invalid_token' });
    expect(await flush(home, { force: true })).toMatchObject({ delivered: 1, queued: 0 });
  });

  it('lets one process send at a time', async () => {
    const { home, queue } = setup();
    record(queue, 3);
    const held = await tryLock(home);
    expect(held).not.toBeNull();
    expect(await tryLock(home)).toBeNull();
    expect(await flush(home)).toMatchObject({ busy: true });
    await held!.release();
    expect(await flush(home)).toMatchObject({ busy: false, delivered: 1 });
  });

  it('backs off exponentially with jitter, never below Retry-After', () => {
    expect(backoff(1, null, () => 0)).toBe(500);
    expect(backoff(1, null, () => 1)).toBe(1000);
    expect(backoff(5, null, () => 1)).toBe(16_000);
    expect(backoff(30, null, () => 1)).toBe(600_000);
    expect(backoff(1, 30_000, () => 1)).toBe(30_000);
  });
});
