import { describe, expect, it } from 'vitest';
import { GET as health } from '@/app/main/api/v1/health/route';
import { GET as openapi } from '@/app/main/api/v1/openapi.json/route';

describe('operations', () => {
  it('GET /health answers ok after a database round trip', async () => {
    const res = await health();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('GET /openapi.json describes every write route with schemas that resolve', async () => {
    const doc = await (await openapi()).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/sync/activities', '/sync/activities/desktop', '/activities', '/activities/desktop', '/admin/users', '/health', '/get/list/plans', '/get/public/time', '/get/public/language', '/get/public/hitmaps', '/get/public/weekly', '/leaderboard/api/get/public', '/badges', '/badges/{id}', '/badges/{id}/refresh', '/public/{site}/svg/{userUUID}', '/public/{site}/shields/{userUUID}']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    const ide = doc.components.schemas.IdeBucket;
    expect(ide.required).toEqual(['language', 'time']);
    expect(ide.properties.time).toMatchObject({ exclusiveMinimum: 0, maximum: 3600 });
    expect(doc.components.schemas.DesktopBucket.required.sort()).toEqual(['date', 'filename', 'hour', 'path', 'platform', 'program_name', 'time']);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(5);
    for (const name of refs) expect(doc.components.schemas[name], name).toBeDefined();
    const sync = doc.paths['/sync/activities'].post;
    expect(Object.keys(sync.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '409', '413', '415', '422', '429', '503']));
  });
});
