import { GET as hitmaps } from '../../app/main/api/v1/get/public/hitmaps/route';
import { GET as language } from '../../app/main/api/v1/get/public/language/route';
import { GET as time } from '../../app/main/api/v1/get/public/time/route';
import { GET as weekly } from '../../app/main/api/v1/get/public/weekly/route';

const routes = { time, language, hitmaps, weekly };

/** GET a public chart route as a browser or a CDN would. */
export async function getChart(chart: keyof typeof routes, query = '', headers: Record<string, string> = {}): Promise<Response> {
  return routes[chart](new Request(`http://localhost/main/api/v1/get/public/${chart}?${query}`, { headers }));
}
