import type { MetadataRoute } from 'next';
import { PROFILES_TAG } from '@/lib/cache/tags';
import { getDb } from '@/lib/db/client';
import { configuredOrigin } from '@/lib/http/origin';
import { sitemapEntries } from '@/lib/web/public/crawl';
import { prerenderingWithoutDatabase, tagRender } from '@/lib/web/public/pages';
import { reference, routePath } from './docs/reference';

// /sitemap.xml: the public pages, each route's page of the API reference, and public profiles (lib/web/public/crawl.ts). Served from the cache
// until a profile is made public or private, renamed or deleted (tag `profiles`).
export const revalidate = 3600;

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const docs = reference().routes.map((r) => routePath(r.anchor));
  if (prerenderingWithoutDatabase()) return sitemapEntries(null, configuredOrigin(), docs);
  await tagRender(PROFILES_TAG);
  return sitemapEntries(await getDb(), configuredOrigin(), docs);
}
