import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, readJsonBody } from '@/lib/http/body';
import { ApiError } from '@/lib/http/problem';

// JSON bodies: nesting is bounded before JSON.parse sees them, in one pass over the bytes.

const bytes = (text: string) => Buffer.from(text);
const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('the nesting of a JSON body', () => {
  it(`counts arrays and objects inside each other, up to ${MAX_JSON_DEPTH}`, () => {
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`), MAX_JSON_DEPTH)).toBe(true);
    // Siblings are not depth: these thousand heartbeats nest four levels.
    const bulk = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ entity: `f${i}.ts`, time: i, dependencies: ['a', ['b']] })));
    expect(nestsDeeperThan(bytes(bulk), 4)).toBe(false);
    expect(nestsDeeperThan(bytes(bulk), 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ entity: nested(500), quoted: `"${'['.repeat(200)}\\"[`, tail: '\\' });
    expect(nestsDeeperThan(bytes(text), 1)).toBe(false);
    expect(nestsDeeperThan(bytes(JSON.stringify([['\\"]]]]"']])), 2)).toBe(false);
    expect(nestsDeeperThan(bytes(JSON.stringify([[['\\']]])), 2)).toBe(true);
  });

  it('refuses a body nested too deep with a 400 naming the rule, before parsing a megabyte of it', async () => {
    const body = nested(512 * 1024);
    const request = new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const started = performance.now();
    const refused = await readJsonBody(request).catch((err: unknown) => err);
    expect(performance.now() - started).toBeLessThan(50);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'malformed_json', detail: `The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.` });
  });
});
