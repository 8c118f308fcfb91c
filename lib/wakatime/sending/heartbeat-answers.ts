import { heartbeatKey, type ItemResult } from './heartbeat';

// What the heartbeat routes answer for each heartbeat of a request, in WakaTime's shapes.

/** The HTTP status of a heartbeat's answer. */
export const answerStatus = (result: ItemResult): 201 | 400 => (typeof result === 'string' ? 400 : 201);

/** A heartbeat's answer: WakaTime's `{"data": ...}` without the entity, or `{"error": ...}`. */
export function heartbeatAnswer(result: ItemResult): { data: Record<string, unknown> } | { error: string } {
  if (typeof result === 'string') return { error: result };
  const { at, type, category, language, project } = result;
  return { data: { id: heartbeatKey(result), type, time: at / 1000, category, language, project: project || null } };
}

/** A bulk's answer: `{"responses": [[answer, status], ...]}`, one per heartbeat, in order. */
export function bulkAnswer(results: readonly ItemResult[]): { responses: [ReturnType<typeof heartbeatAnswer>, 201 | 400][] } {
  return { responses: results.map((r) => [heartbeatAnswer(r), answerStatus(r)]) };
}
