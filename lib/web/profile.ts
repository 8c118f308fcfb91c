import { notFound } from 'next/navigation';
import { ApiError } from '../http/problem';
import { publicChartData } from '../stats/public';

// A public profile's figures: the same gated, cached answers as the public chart routes.
// A private or unknown handle is a 404 page, as it is a 404 answer on the API.

export async function profileData(handle: string) {
  try {
    const [time, language, hitmap, weekly] = await Promise.all([
      publicChartData('time', { user: handle, range: '30d' }),
      publicChartData('language', { user: handle, range: '30d' }),
      publicChartData('hitmaps', { user: handle, range: '365d' }),
      publicChartData('weekly', { user: handle, weeks: '12' }),
    ]);
    return { user: time.user!, time, language, hitmap, weekly };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) notFound();
    throw err;
  }
}
