import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every route file answers every method: its own handlers, and a 405 problem with Allow for the
// rest (lib/http/methods.ts); Next's own 405 says nothing of what is allowed.
const routeFiles = (fs.readdirSync('app', { recursive: true }) as string[]).filter((f) => f.endsWith(`${path.sep}route.ts`) || f === 'route.ts');

// A route Next caches (one with `revalidate`) takes GET alone, which is all proxy.ts sends it.
describe('route files', () => {
  it('are found', () => expect(routeFiles.length).toBeGreaterThan(20));

  it.each(routeFiles)('%s exports a handler for every method', async (file) => {
    const mod = await import(/* @vite-ignore */ path.resolve('app', file));
    const methods = mod.revalidate === undefined ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] : ['GET'];
    for (const method of methods) expect([file, method, typeof mod[method]]).toEqual([file, method, 'function']);
  });
});

// openapi.json describes every API route file and every method it takes (as its OPTIONS answer
// lists them), and nothing that no route file serves.
describe('openapi.json', () => {
  // Each API root and the server its paths name in the document.
  const roots = [
    { dir: path.join('app', 'main', 'api', 'v1'), server: '/main/api/v1' },
    { dir: path.join('app', 'api', 'wakatime', 'v1'), server: '/api/wakatime/v1' },
  ];
  // Operators' routes at the site root, where their tools look.
  const atRoot = [path.join('app', 'metrics', 'route.ts')];
  // Wakapi's badge URLs, one catch-all route file each, documented as each form of path they take.
  const wakapiBadges = [
    { file: path.join('app', 'api', 'badge', '[user]', '[[...rest]]', 'route.ts'), base: '/badge/{user}' },
    { file: path.join('app', 'api', 'compat', 'shields', 'v1', '[user]', '[[...rest]]', 'route.ts'), base: '/compat/shields/v1/{user}' },
  ];
  const apiFiles = routeFiles
    .map((f) => path.join('app', f))
    .flatMap((file) => [
      ...roots.filter((r) => file.startsWith(r.dir + path.sep) && !file.includes('[...')).map((root) => ({ file, root })),
      ...(atRoot.includes(file) ? [{ file, root: { dir: 'app', server: '/' } }] : []),
    ]);
  const openApiPath = (file: string, dir: string) =>
    `/${path.relative(dir, path.dirname(file)).split(path.sep).join('/')}`.replace(/\[([^\]]+)\]/g, '{$1}').replace(/\/$/, '');

  async function served(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const { file, root } of apiFiles) {
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      const route = openApiPath(file, root.dir);
      const answer: Response = await mod.OPTIONS(new Request(`http://localhost${root.server}${route}`, { method: 'OPTIONS' }));
      const allow = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim().toLowerCase());
      out[`${root.server} ${route}`] = allow.filter((m) => m !== 'head' && m !== 'options').sort();
    }
    for (const { file, base } of wakapiBadges) {
      const mod = await import(/* @vite-ignore */ path.resolve(file));
      const answer: Response = await mod.OPTIONS(new Request('http://localhost/api/badge/someone', { method: 'OPTIONS' }));
      const allow = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim().toLowerCase());
      for (const form of ['', '/{interval}', '/{interval}/{filter}']) out[`/api ${base}${form}`] = allow.filter((m) => m !== 'head' && m !== 'options').sort();
    }
    return out;
  }

  it('lists exactly the routes and methods the route files serve, each under its server', async () => {
    const { openApiDocument } = await import('@/lib/openapi');
    const doc = openApiDocument() as { servers: { url: string }[]; paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }> };
    const documented = Object.fromEntries(
      Object.entries(doc.paths).map(([p, { servers, ...ops }]) => [`${(servers ?? doc.servers)[0].url} ${p}`, Object.keys(ops).sort()]),
    );
    expect(documented).toEqual(await served());
  });
});
