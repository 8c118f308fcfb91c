import { describe, expect, it, vi } from 'vitest';
import { openApiDocument } from '@/lib/openapi';

describe('openapi.json', () => {
  it('is built from its own registry: another copy of the schema modules registering the same ids changes nothing', async () => {
    const before = JSON.stringify(openApiDocument());
    // What the production build does after rendering pages that bundle their own copy of the
    // account and badge schemas: each copy registers its schemas, under the same ids, in zod's
    // process-wide registry.
    // Here a second copy of the account schemas alone, as the dashboard's bundle holds one.
    vi.resetModules();
    await import('@/lib/accounts/schemas');
    expect(JSON.stringify(openApiDocument())).toBe(before);
    const { openApiDocument: fromTheCopy } = await import('@/lib/openapi');
    expect(JSON.stringify(fromTheCopy())).toBe(before);
  });

  it('names every schema it refers to', () => {
    const doc = openApiDocument() as { components: { schemas: Record<string, unknown> } };
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(20);
    for (const id of refs) expect(doc.components.schemas).toHaveProperty(id);
    expect(doc.components.schemas).not.toHaveProperty('__shared');
  });
});
