import { Card } from '../../../components/card';
import { VisitorInput } from '../../visitor-origin';
import { setProjectBadgeAction } from '../badge-action';
import { getDb } from '@/lib/db/client';
import { isPublicProjectBadge } from '@/lib/badges/wakapi-projects';
import type { SessionUser } from '@/lib/auth/session';
import { siteAddress } from '@/lib/web/account/session';

// The project page's "Public badge" card: the per-project setting behind Wakapi's project badge
// URLs (lib/badges/wakapi-projects.ts), off until the owner turns it on, with the URL to paste.

export async function ProjectBadgeCard({ user, name }: { user: SessionUser; name: string }) {
  const [shown, site] = await Promise.all([isPublicProjectBadge(await getDb(), user.id, name), siteAddress()]);
  const url = `${site.origin}/api/badge/${encodeURIComponent(user.handle)}/interval:30_days/project:${encodeURIComponent(name)}`;
  return (
    <Card id="p-badge" title="Public badge">
      <p className="muted">
        A README badge of this project’s time, at the address Wakapi gives it, for badges that moved here with you. Only this project’s name and time are shown, and only while your
        profile is public.
      </p>
      {shown && (
        <p>
          <label htmlFor="p-badge-url">Badge URL</label>
          <VisitorInput id="p-badge-url" text={url} site={site} />
        </p>
      )}
      <form action={setProjectBadgeAction}>
        <input type="hidden" name="name" value={name} />
        <input type="hidden" name="public" value={shown ? 'false' : 'true'} />
        <button type="submit" className="secondary">
          {shown ? 'Make this project’s badge private' : 'Make this project’s badge public'}
        </button>
      </form>
    </Card>
  );
}
