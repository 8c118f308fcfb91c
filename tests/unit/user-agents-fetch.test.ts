import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../lib/config';
import { ApiError } from '../../lib/http/problem';
import { MAX_DUMP_USER_AGENTS } from '../../lib/wakatime/importing/dump-origins';
import { fetchMachineNames, fetchUserAgents, MAX_ANSWER_BYTES, MAX_PAGES, readMachineNamesPage, readUserAgentsPage, wakatimeKeyOf } from '../../lib/wakatime/importing/user-agents-fetch';
import { closedPortUrl, wakatimeStandInForTests, type StandIn } from '../helpers/wakatime-standin';

// Reading a user's User-Agents from WakaTime (lib/wakatime/importing/user-agents-fetch.ts): what is kept of
// an answer, and what each way WakaTime may fail becomes, against a stand-in on a local port.

const vscode = 'wakatime/v1.98.0 (linux-6.8.0-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';
const agent = (id: string, value = vscode) => ({ id, value, editor: 'vscode', os: 'Linux', is_browser_extension: false, is_desktop_app: false, last_seen_at: '2024-05-01T10:00:00Z', created_at: '2023-01-01T00:00:00Z' });

/** What a look-up throws: its code and detail. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; status: number; detail: string }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const { code, status, detail } = err as ApiError;
  return { code, status, detail };
}

describe("reading WakaTime's list of User-Agents", () => {
  it('keeps the id, value, editor and system of each entry, and leaves out what is not one', () => {
    const page = readUserAgentsPage({
      data: [
        agent('ua-1'),
        null,
        7,
        [agent('ua-x')],
        { value: vscode },
        { id: '' },
        { id: 'x'.repeat(129) },
        { id: 42, value: vscode },
        { id: 'ua-2', value: 12, editor: ['vim'], os: 'x'.repeat(300) },
        { id: 'ua-3', value: 'v'.repeat(2000), editor: 'neovim', os: null },
      ],
      total_pages: 3,
    });
    expect(page).toEqual({
      entries: [
        { id: 'ua-1', value: vscode, editor: 'vscode', os: 'Linux' },
        { id: 'ua-2', value: null, editor: null, os: null },
        { id: 'ua-3', value: null, editor: 'neovim', os: null },
      ],
      totalPages: 3,
    });
  });

  it('is not an answer unless it is an object with a data array; a page count that is not one is one page', () => {
    for (const body of [null, 'data', [agent('ua-1')], {}, { data: null }, { data: { 0: agent('ua-1') } }, { error: 'Unauthorized' }]) {
      expect(readUserAgentsPage(body)).toBeNull();
    }
    for (const total_pages of [undefined, 0, -2, 1.5, '4', null]) expect(readUserAgentsPage({ data: [], total_pages })?.totalPages).toBe(1);
  });

  it('keeps at most MAX_DUMP_USER_AGENTS entries of a page', () => {
    const data = Array.from({ length: MAX_DUMP_USER_AGENTS + 50 }, (_, i) => ({ id: `ua-${i}` }));
    const page = readUserAgentsPage({ data })!;
    expect(page.entries).toHaveLength(MAX_DUMP_USER_AGENTS);
    expect(page.entries.at(-1)?.id).toBe(`ua-${MAX_DUMP_USER_AGENTS - 1}`);
  });
});

describe('the X-WakaTime-Api-Key header', () => {
  const request = (value?: string) => new Request('http://localhost/', { headers: value === undefined ? {} : { 'x-wakatime-api-key': value } });

  it('is a WakaTime key (waka_ and a UUID, or a UUID), none when absent or empty', () => {
    const uuid = randomUUID();
    expect(wakatimeKeyOf(request())).toBeNull();
    expect(wakatimeKeyOf(request('  '))).toBeNull();
    expect(wakatimeKeyOf(request(uuid))).toBe(uuid);
    expect(wakatimeKeyOf(request(`waka_${uuid}`))).toBe(`waka_${uuid}`);
    expect(wakatimeKeyOf(request(` WAKA_${uuid.toUpperCase()} `))).toBe(`WAKA_${uuid.toUpperCase()}`);
  });

  it('refuses anything else with 400 naming the header', () => {
    for (const value of ['hunter2', `ct_${'a'.repeat(43)}`, `waka_${randomUUID()}x`, `Basic ${randomUUID()}`, `waka-${randomUUID()}`]) {
      const err = (() => {
        try {
          wakatimeKeyOf(request(value));
        } catch (e) {
          return e as ApiError;
        }
      })();
      expect(err, value).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'invalid_header', status: 400, extra: { errors: [{ path: 'X-WakaTime-Api-Key' }] } });
      expect(err!.detail).toMatch(/^X-WakaTime-Api-Key: not a WakaTime API key/);
      expect(err!.detail).not.toContain(value);
    }
  });
});

describe("fetching a user's User-Agents from WakaTime", () => {
  const key = `waka_${randomUUID()}`;

  const waka = wakatimeStandInForTests(key, [[agent('ua-1'), agent('ua-2')], [agent('ua-3'), agent('ua-1', 'later')]], [[{ id: 'm-1', name: 'desk', value: 'desk.local' }, { id: 'm-2', name: null, value: 'box' }]]);
  const { useUrl } = waka;

  it("reads the machine names alike: each id with its name, else its value (the hostname)", async () => {
    expect(await fetchMachineNames(key)).toEqual([
      { id: 'm-1', name: 'desk' },
      { id: 'm-2', name: 'box' },
    ]);
    expect(waka.standIn.requests.map((r) => r.path)).toEqual(['/api/v1/users/current/machine_names']);
    expect(readMachineNamesPage({ data: [{ id: 'm-3' }, { id: 'm-4', name: '  ' }, { id: 5, name: 'x' }, 'x'] })).toEqual({ entries: [], totalPages: 1 });
    expect(readMachineNamesPage({ machines: [] })).toBeNull();
  });

  it('asks with the key as wakatime-cli sends it, reads every page, each id once (the first)', async () => {
    const found = await fetchUserAgents(key);
    expect(found.map((a) => a.id)).toEqual(['ua-1', 'ua-2', 'ua-3']);
    expect(found[0]).toEqual({ id: 'ua-1', value: vscode, editor: 'vscode', os: 'Linux' });
    expect(waka.standIn.requests).toEqual([1, 2].map((page) => ({ path: '/api/v1/users/current/user_agents', page, authorization: `Basic ${Buffer.from(key).toString('base64')}` })));
  });

  it('reads at most MAX_PAGES pages, and stops at an empty one', async () => {
    waka.standIn.answer(({ page }) => ({ status: 200, body: { data: [agent(`ua-${page}`)], total_pages: 1000 } }));
    expect(await fetchUserAgents(key)).toHaveLength(MAX_PAGES);
    expect(waka.standIn.requests).toHaveLength(MAX_PAGES);
    waka.standIn.requests.length = 0;
    waka.standIn.answer(({ page }) => ({ status: 200, body: { data: page === 1 ? [agent('ua-1')] : [], total_pages: 1000 } }));
    expect(await fetchUserAgents(key)).toHaveLength(1);
    expect(waka.standIn.requests).toHaveLength(2);
  });

  it('keeps at most MAX_DUMP_USER_AGENTS over all pages', async () => {
    const per = Math.ceil(MAX_DUMP_USER_AGENTS / 2) + 100;
    waka.standIn.answer(({ page }) => ({ status: 200, body: { data: Array.from({ length: per }, (_, i) => ({ id: `p${page}-${i}` })), total_pages: 3 } }));
    expect(await fetchUserAgents(key)).toHaveLength(MAX_DUMP_USER_AGENTS);
    expect(waka.standIn.requests).toHaveLength(2);
  });

  it('takes a key WakaTime refuses (401, 403) as a bad header: 400 naming it', async () => {
    expect(await failure(fetchUserAgents(`waka_${randomUUID()}`))).toMatchObject({ code: 'invalid_header', status: 400, detail: expect.stringMatching(/^X-WakaTime-Api-Key: WakaTime refused this key \(401\)/) });
    waka.standIn.answer(() => ({ status: 403, body: { error: 'Forbidden' } }));
    expect(await failure(fetchUserAgents(key))).toMatchObject({ code: 'invalid_header', detail: expect.stringContaining('(403)') });
  });

  it('answers 502 when WakaTime fails, answers something else, too much, or redirects, saying nothing of its words', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const cases: [Parameters<StandIn['answer']>[0], RegExp][] = [
      [() => ({ status: 500, body: { error: 'internal trace at db.go:12' } }), /^WakaTime answered 500/],
      [() => ({ status: 429, body: {} }), /^WakaTime answered 429/],
      [() => ({ status: 200, body: '<html>maintenance</html>' }), /not the list of your User-Agents/],
      [() => ({ status: 200, body: { data: 'none' } }), /not the list of your User-Agents/],
      [() => ({ status: 200, body: `{"data": [${'"x",'.repeat(MAX_ANSWER_BYTES / 4)}"x"]}` }), /not the list of your User-Agents/],
      [() => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }), /could not be reached/],
      [() => 'drop', /could not be reached|cut short/],
    ];
    for (const [answer, detail] of cases) {
      waka.standIn.answer(answer);
      const got = await failure(fetchUserAgents(key));
      expect(got).toMatchObject({ code: 'wakatime_unavailable', status: 502 });
      expect(got.detail).toMatch(detail);
      expect(got.detail).not.toMatch(/trace|maintenance/);
    }
    // The log says why, never the key.
    for (const [line] of warn.mock.calls) expect(String(line)).not.toContain(key.slice(5));
    expect(warn).toHaveBeenCalled();
  });

  it('answers 502 when WakaTime is down or does not answer in time', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    useUrl(await closedPortUrl());
    expect(await failure(fetchUserAgents(key))).toMatchObject({ code: 'wakatime_unavailable', detail: expect.stringMatching(/^WakaTime could not be reached/) });
    useUrl(waka.standIn.url);
    waka.standIn.answer(() => 'hang');
    const t0 = Date.now();
    expect(await failure(fetchUserAgents(key, 300))).toMatchObject({ code: 'wakatime_unavailable', detail: expect.stringMatching(/^WakaTime did not answer within 0.3 seconds/) });
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

describe('WAKATIME_API_URL', () => {
  it("is WakaTime's API unless set, an http(s) URL without its trailing slash", () => {
    expect(parseConfig({}).WAKATIME_API_URL).toBe('https://wakatime.com/api/v1');
    expect(parseConfig({ WAKATIME_API_URL: 'https://waka.example/api/v1/' }).WAKATIME_API_URL).toBe('https://waka.example/api/v1');
    expect(() => parseConfig({ WAKATIME_API_URL: 'ftp://waka.example' })).toThrow(/WAKATIME_API_URL: must be an http/);
  });
});
