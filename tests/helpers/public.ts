import { GET as hitmaps } from '../../app/main/api/v1/get/public/hitmaps/route';
import { GET as language } from '../../app/main/api/v1/get/public/language/route';
import { GET as time } from '../../app/main/api/v1/get/public/time/route';
import { GET as weekly } from '../../app/main/api/v1/get/public/weekly/route';

import { expectDocumented } from './contract';

const routes = { time, language, hitmaps, weekly };

/** GET a public chart route as a browser or a CDN would. */
export async function getChart(chart: keyof typeof routes, query = '', headers: Record<string, string> = {}): Promise<Response> {
  const url = `http://localhost/main/api/v1/get/public/${chart}?${query}`;
  return expectDocumented('GET', url, await routes[chart](new Request(url, { headers })));
}
