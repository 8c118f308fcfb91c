import type { MetadataRoute } from 'next';
import { configuredOrigin } from '@/lib/http/origin';
import { robotsRules } from '@/lib/web/public/crawl';

// /robots.txt: public pages may be crawled, the dashboard and the APIs not (lib/web/public/crawl.ts).
export default function robots(): MetadataRoute.Robots {
  return robotsRules(configuredOrigin());
}
