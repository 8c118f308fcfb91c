import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { relayQueue, relays } from '../../db/schema';
import { heartbeatKey, type ItemResult } from '../sending/heartbeat';
import { hasRelays } from './relays';
import { ORIGIN_HEADER } from './remote';
import { wake } from './wake';

// Queuing what a heartbeat request's user relays: each heartbeat Codetally accepted, once per relay
// of the user, in one statement, after the heartbeats were stored. Nothing is queued for a request
// that came from a relay (it carries X-Origin-Instance: the loop guard between two installs), for
// a heartbeat older than 180 days (late AI-sync history), or for an import (which never passes
// here). A user without relays costs one look in memory (hasRelays). What is queued is the
// heartbeat as the client sent it, its entity included: Codetally keeps only a digest of it, and
// the relay is its owner's choice to send it on to the service they named. A failure to queue is
// logged, never answered: the heartbeats are stored.

/** Heartbeats older than this are not relayed. */
const RELAY_MAX_AGE_MS = 180 * 86_400_000;

/** The fields of a heartbeat forwarded as sent (WakaTime's, wakatime-cli's AI fields included); any other is left out. */
const FORWARDED = [
  'entity', 'type', 'category', 'time', 'project', 'project_root_count', 'branch', 'language', 'dependencies', 'lines', 'lineno',
  'cursorpos', 'is_write', 'alternate_project', 'user_agent', 'plugin', 'ai_line_changes', 'human_line_changes', 'ai_session',
  'ai_input_tokens', 'ai_output_tokens', 'ai_prompt_length',
] as const;

/** The longest list or object a forwarded heartbeat carries, as JSON. */
const MAX_NESTED_CHARS = 4096;

/** WakaTime's placeholders, sent on as the name they stood for here (the other service may have seen another previous heartbeat). */
const PLACEHOLDERS: Record<string, 'project' | 'language'> = { '<<LAST_PROJECT>>': 'project', '<<LAST_LANGUAGE>>': 'language' };

/** Whether a value holds a string PostgreSQL's jsonb refuses (NUL, an unpaired surrogate), at any depth. */
function unstorable(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed() || value.includes('\u0000');
  if (Array.isArray(value)) return value.some(unstorable);
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([k, v]) => unstorable(k) || unstorable(v));
  return false;
}

/**
 * The heartbeat as forwarded: the fields named above, placeholders replaced by what they stood for.
 * A field holding a string jsonb refuses is left out: it would refuse the whole batch.
 */
function forwarded(item: Record<string, unknown>, accepted: Exclude<ItemResult, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of FORWARDED) {
    const value = item[field];
    if (value === undefined || unstorable(value)) continue;
    // A list or object (dependencies) is forwarded only when short: nothing of it is checked here.
    if (typeof value === 'object' && value !== null && JSON.stringify(value).length > MAX_NESTED_CHARS) continue;
    const stoodFor = typeof value === 'string' ? PLACEHOLDERS[value] : undefined;
    out[field] = stoodFor ? accepted[stoodFor] || null : value;
  }
  return out;
}

/** A heartbeat to relay, and the machine it was sent from (sent on as X-Machine-Name). */
interface Relayable {
  heartbeat: Record<string, unknown>;
  machine: string | null;
}

/**
 * The request's heartbeats to relay: accepted, not from a relay, not older than RELAY_MAX_AGE_MS,
 * each once, with the machine each was counted on (X-Machine-Name, else its `hostname`).
 */
function relayable(request: Request, items: readonly unknown[], results: readonly ItemResult[], now = Date.now()): Relayable[] {
  if (request.headers.has(ORIGIN_HEADER)) return [];
  const seen = new Set<string>();
  const out: Relayable[] = [];
  results.forEach((result, i) => {
    if (typeof result === 'string' || result.at < now - RELAY_MAX_AGE_MS) return;
    const key = heartbeatKey(result);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ heartbeat: forwarded(items[i] as Record<string, unknown>, result), machine: result.machine || null });
  });
  return out;
}

/**
 * Queues a request's heartbeats for each relay of the user (one statement, the batch as one JSON
 * parameter). Never throws: a failure is logged.
 */
export async function queueRelayed(db: Db, userId: string, request: Request, items: readonly unknown[], results: readonly ItemResult[]): Promise<void> {
  try {
    if (!(await hasRelays(db, userId))) return;
    const batch = relayable(request, items, results);
    if (batch.length === 0) return;
    const userAgent = request.headers.get('user-agent')?.slice(0, 512) ?? null;
    const queued = await rows<{ n: number }>(
      db,
      sql`WITH q AS (
            INSERT INTO ${relayQueue} (relay_id, heartbeat, user_agent, machine)
            SELECT r.id, h.value->'heartbeat', ${userAgent}, h.value->>'machine'
            FROM ${relays} r CROSS JOIN jsonb_array_elements(${JSON.stringify(batch)}::jsonb) WITH ORDINALITY h
            WHERE r.user_id = ${userId}::uuid
            ORDER BY r.id, h.ordinality
            RETURNING 1)
          SELECT count(*)::int AS n FROM q`,
    );
    if ((queued[0]?.n ?? 0) > 0) wake();
  } catch (err) {
    console.error('[codetally] queuing heartbeats for a relay failed:', (err as Error)?.message);
  }
}
