import type { MetadataRoute } from 'next';
import { configuredOrigin } from '@/lib/http/origin';
import { robotsRules } from '@/lib/web/crawl';

// /robots.txt: public pages may be crawled, the dashboard and the APIs not (lib/web/crawl.ts).
export default function robots(): MetadataRoute.Robots {
  return robotsRules(configuredOrigin());
}
