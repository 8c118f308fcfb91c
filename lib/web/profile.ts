import { notFound } from 'next/navigation';
import { ApiError } from '../http/problem';
import { publicChartData } from '../stats/public';
import { decodedSegment } from '../http/url';

// A public profile's figures: the same gated, cached answers as the public chart routes.
// A private or unknown handle is a 404 page, as it is a 404 answer on the API.

/** The profile of the `[handle]` path segment as it arrived (percent-encoded or not). */
export async function profileData(segment: string) {
  const handle = decodedSegment(segment);
  if (handle === null) notFound();
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
