import { getDb } from '../../db/client';
import { editorNames } from '../../editors';
import { json } from '../../http/body';
import { corsHeaders } from '../../http/public';
import { languagesOnLeaderboard } from '../../stats/leaderboard/pages';
import { publicWakatime } from '../api-key';

// What WakaTime's meta routes answer (GET /meta, /editors, /program_languages), from what Codetally
// knows, public and without a key: the editors it names (lib/editors.ts) and the languages on the
// public leaderboard (of listed users who share languages). No list of the service's addresses is
// kept: `ips` is empty.

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9+#]+/g, '-').replace(/^-|-$/g, '');

const listed = (names: string[]) => ({
  data: names.map((name) => ({ id: slug(name), name, color: null, is_verified: true })),
  total: names.length,
  total_pages: 1,
});

const answer = (body: () => Promise<unknown>) => () =>
  publicWakatime(async () => json(await body(), { headers: { 'cache-control': 'public, max-age=300, s-maxage=300', ...corsHeaders } }));

/** GET /meta. */
export const metaGet = answer(async () => ({ data: { ips: { api: [], website: [], worker: [] } } }));

/** GET /editors: every editor Codetally names. */
export const editorsGet = answer(async () => listed(editorNames()));

/** GET /program_languages: the languages on the public leaderboard. */
export const languagesGet = answer(async () => listed(await languagesOnLeaderboard(await getDb())));
