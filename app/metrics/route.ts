// GET /metrics — this process's metrics in Prometheus's text format, for operators (docs/deploy.md,
// "Operations"); only with METRICS_TOKEN set, to a caller presenting it
import { withMetricsToken } from '@/lib/auth/metrics';
import { route } from '@/lib/http/methods';
import { scrapeResponse } from '@/lib/metrics/scrape';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: withMetricsToken(scrapeResponse) }, { pattern: '/metrics' });
