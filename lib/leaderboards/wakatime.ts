import { json } from '../http/body';
import type { WakaContext } from '../wakatime/api-key';
import { wakaBoard, wakaBoardList } from './read';

// The WakaTime-compatible private leaderboard routes (users/current/leaderboards[/{id}]).

const own = (body: unknown) => json(body, { headers: { 'cache-control': 'private, no-store' } });

export async function wakaBoardsHandler({ db, user }: WakaContext): Promise<Response> {
  return own(await wakaBoardList(db, user.id));
}

export async function wakaBoardHandler({ db, user, request, params }: WakaContext): Promise<Response> {
  return own(await wakaBoard(db, user.id, params.id ?? '', new URL(request.url).searchParams));
}
