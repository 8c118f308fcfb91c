// GET /u/{handle}/year/{year}/card.png — the share image of a public year (1200 x 630 PNG); 404 as an unknown user otherwise
import { ImageResponse } from 'next/og';
import { getDb } from '@/lib/db/client';
import { cacheControl } from '@/lib/http/public';
import { route } from '@/lib/http/methods';
import { errorResponse } from '@/lib/http/problem';
import { decodedSegment } from '@/lib/http/url';
import { notPublic } from '@/lib/sharing/gate';
import { cardFonts } from '@/lib/web/public/social-card';
import { yearCardImage } from '@/lib/web/public/year-card';
import { YearCardImage } from '../year-card';

export const dynamic = 'force-dynamic';

const size = { width: 1200, height: 630 };

const get = async (_request: Request, ctx: { params: Promise<{ handle: string; year: string }> }): Promise<Response> => {
  try {
    const { handle: segment, year } = await ctx.params;
    const handle = decodedSegment(segment);
    if (handle === null) throw notPublic();
    const png = await yearCardImage(await getDb(), handle, year, async (card) => new ImageResponse(<YearCardImage card={card} />, { ...size, fonts: await cardFonts() }).arrayBuffer());
    // As a user's public charts: a shared cache keeps it a minute, so a profile made private soon stops showing it.
    return new Response(png, {
      headers: { 'content-type': 'image/png', 'cache-control': cacheControl({ maxAge: 0, sMaxAge: 60, staleWhileRevalidate: 60 }) },
    });
  } catch (err) {
    return errorResponse(err);
  }
};

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/u/[handle]/year/[year]/card.png' });
