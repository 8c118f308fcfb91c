import type { Db } from '../db/client';
import { invalidQuery } from '../http/problem';
import { parseQuery } from '../http/query';
import { wakaLeader } from '../wakatime/reading/leaders';
import { memberBoard, myBoards } from './boards';
import { boardEntries, rangeDates, sharedLanguages } from './entries';
import { boardQuerySchema, type BoardQuery } from './schemas';

// What the routes answer of a board: ours (GET /leaderboards/{id}) and WakaTime's shapes.

export const parseBoardQuery = (params: URLSearchParams): BoardQuery => parseQuery(boardQuerySchema, params);

/** GET /leaderboards/{id}: the ranking of a board I am on (404 otherwise). */
export async function readBoard(db: Db, userId: string, boardId: string, q: BoardQuery) {
  const board = await memberBoard(db, userId, boardId);
  const ranked = await boardEntries(db, board.id, q.range, q.language);
  return {
    id: board.id,
    name: board.name,
    range: ranked.range,
    from: ranked.from,
    to: ranked.to,
    language: ranked.language,
    role: board.role,
    members_count: board.members_count,
    entries: ranked.entries.map(({ rank, handle, display_name, seconds }) => ({ rank, handle, display_name, seconds })),
  };
}

const timeRanges = { '7d': 'last_7_days', '30d': 'last_30_days' } as const;
const rangeTexts = { '7d': 'Last 7 Days', '30d': 'Last 30 Days' } as const;

/** GET users/current/leaderboards: my boards in WakaTime's shape (one page). */
export async function wakaBoardList(db: Db, userId: string) {
  const boards = await myBoards(db, userId);
  return {
    data: boards.map((b) => ({
      id: b.id,
      name: b.name,
      members_count: b.members_count,
      members_with_timezones_count: b.members_count,
      time_range: timeRanges['7d'],
      can_edit: b.role === 'owner',
      can_delete: b.role === 'owner',
      has_available_seat: true,
      created_at: b.created_at,
      modified_at: b.modified_at,
    })),
    total: boards.length,
    total_pages: 1,
  };
}

/**
 * GET users/current/leaderboards/{id}: the same ranking in WakaTime's shape, one page with every
 * member with time; `range` (7d, 30d, or WakaTime's last_7_days, last_30_days) and `language`.
 */
export async function wakaBoard(db: Db, userId: string, boardId: string, params: URLSearchParams) {
  const named = params.get('range');
  const aliased = new URLSearchParams(params);
  if (named) {
    const short = Object.entries(timeRanges).find(([, long]) => long === named)?.[0];
    if (short) aliased.set('range', short);
    else if (!(named in timeRanges)) throw invalidQuery('range', 'must be 7d, 30d, last_7_days or last_30_days');
  }
  const q = parseBoardQuery(aliased); // `page` is not read: one page holds every member with time
  const board = await memberBoard(db, userId, boardId);
  const range = q.range;
  const days = Number(range.slice(0, -1));
  // The ranking and the members' languages are independent reads: asked at once.
  const [ranked, languages] = await Promise.all([boardEntries(db, board.id, range, q.language), sharedLanguages(db, board.id, rangeDates(range))]);
  // A member's id reads their badges and charts: it is given only where their profile is public
  // anyway; otherwise the handle stands in its place, as WakaTime's boards name users.
  const data = ranked.entries.map((e) =>
    wakaLeader({ ...e, languages: (languages.get(e.user_id) ?? []).slice(0, 10), user: { id: e.profile_public ? e.user_id : e.handle, handle: e.handle, display_name: e.display_name } }, days),
  );
  const mine = data.find((_, i) => ranked.entries[i].user_id === userId);
  return {
    data,
    current_user: mine ? { ...mine, page: 1 } : null,
    language: ranked.language,
    range: { start_date: ranked.from, end_date: ranked.to, start_text: ranked.from, end_text: 'Today', name: timeRanges[range], text: rangeTexts[range] },
    page: 1,
    total_pages: 1,
    timeout: 15,
    writes_only: false,
    modified_at: board.modified_at,
  };
}
