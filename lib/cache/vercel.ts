import { revalidateTag } from 'next/cache';
import type { UserChanges } from '../db/types';

// On Vercel, pages and routes live in Vercel's own cache, which every instance shares
// (next.config.ts sets no cache handler there). A change this instance makes expires the entries
// tagged with what changed (lib/cache/tags.ts) at once, from inside the request that made it: the
// next visit renders anew. What changes with time alone (the date, the site-wide figures, the
// leaderboard) follows each page's `revalidate`.

export function expireTagsOnChange(changes: UserChanges): void {
  changes.subscribe((subject) => {
    if (subject === null) return;
    try {
      revalidateTag(subject, { expire: 0 });
    } catch {
      // Not inside a request: received from another instance, which expired it in its own request.
    }
  });
}
