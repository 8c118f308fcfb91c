import { notFound } from 'next/navigation';
import { COMMUNITY_TAG, dayTag, handleTag } from '../../cache/tags';
import { getDb } from '../../db/client';
import { ApiError } from '../../http/problem';
import { decodedSegment } from '../../http/url';
import { isHandle, isUuid } from '../../ids';
import { publicOwner } from '../../sharing/gate';
import { publicYear } from '../../stats/year';
import { tagRender } from './pages';

// The public year page (app/u/[handle]/year/[year]): publicYear's gated figures, with the tags
// that tell the page cache when they change: the owner's data and settings, their handle, their
// date (the current year grows) and the site-wide figures (the percentile). A private or unknown
// handle, or a year with nothing to show, is the 404 page, cached until the handle changes.

export async function yearPageData(handleSegment: string, yearSegment: string) {
  const handle = decodedSegment(handleSegment);
  if (handle === null) notFound();
  try {
    const db = await getDb();
    // Tagged before the year is read: a 404 for a year without time goes once the owner's data changes.
    const owner = await publicOwner(db, handle);
    await tagRender(owner.user.id, handleTag(handle), dayTag(owner.timezone), COMMUNITY_TAG);
    return await publicYear(db, handle, yearSegment);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
      if (isHandle(handle) || isUuid(handle)) await tagRender(handleTag(handle));
      notFound();
    }
    throw err;
  }
}
