import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every route file answers every method: its own handlers, and a 405 problem with Allow for the
// rest (lib/http/methods.ts); Next's own 405 says nothing of what is allowed.
const routeFiles = (fs.readdirSync('app', { recursive: true }) as string[]).filter((f) => f.endsWith(`${path.sep}route.ts`) || f === 'route.ts');

describe('route files', () => {
  it('are found', () => expect(routeFiles.length).toBeGreaterThan(20));

  it.each(routeFiles)('%s exports a handler for every method', async (file) => {
    const mod = await import(/* @vite-ignore */ path.resolve('app', file));
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) expect([file, method, typeof mod[method]]).toEqual([file, method, 'function']);
  });
});

// openapi.json describes every API route file and every method it takes (as its OPTIONS answer
// lists them), and nothing that no route file serves.
describe('openapi.json', () => {
  const apiRoot = path.join('app', 'main', 'api', 'v1');
  const apiFiles = routeFiles
    .map((f) => path.join('app', f))
    .filter((f) => f.startsWith(apiRoot + path.sep) && !f.includes('[...'));
  const openApiPath = (file: string) =>
    `/${path.relative(apiRoot, path.dirname(file)).split(path.sep).join('/')}`.replace(/\[([^\]]+)\]/g, '{$1}');

  async function served(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const file of apiFiles) {
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      const answer: Response = await mod.OPTIONS(new Request(`http://localhost/main/api/v1${openApiPath(file)}`, { method: 'OPTIONS' }));
      const allow = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim().toLowerCase());
      out[openApiPath(file)] = allow.filter((m) => m !== 'head' && m !== 'options').sort();
    }
    return out;
  }

  it('lists exactly the routes and methods the route files serve', async () => {
    const { openApiDocument } = await import('@/lib/openapi');
    const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
    const documented = Object.fromEntries(Object.entries(paths).map(([p, ops]) => [p, Object.keys(ops).sort()]));
    expect(documented).toEqual(await served());
  });
});
