import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { CONTENT_FIELDS, knownCategory } from '../../activity';
import { rows, type Db } from '../../db/client';
import { heartbeats, serverSecrets } from '../../db/schema';
import { perDatabase } from '../../db/services';
import { nameProblem, textProblem, textRule } from '../../text';
import { DistinctHeartbeats } from './distinct-heartbeats';
import type { DumpOrigins } from '../importing/dump-origins';
import { AHEAD_LIMIT_MS, EARLIEST_HEARTBEAT_MS, type Heartbeat, type ItemResult, type SeenAgent } from './heartbeat';
import { heartbeatSchema, quickHeartbeat, TextChecks } from './heartbeat-input';
import { parseUserAgent, type Origin } from './user-agent';

// Checking heartbeats and reducing each to what is stored (lib/wakatime/sending/heartbeat.ts): no content
// field, a time within the accepted ones, the entity as a keyed digest, the editor and system read
// from the User-Agent (the heartbeat's `user_agent`, else its `plugin`, else the request's),
// WakaTime's category (an unknown one is coding), absent names given their defaults, and
// WakaTime's placeholders (`<<LAST_PROJECT>>`, `<<LAST_LANGUAGE>>`, `<<LAST_BRANCH>>`) replaced by
// the user's previous heartbeat's value, never kept as names.

/** The key of the entity digests (server_secrets), read once per database. */
export function digestKey(db: Db): Promise<string> {
  const read = async () => {
    const [row] = await rows<{ value: string }>(db, sql`SELECT ${serverSecrets.value} AS value FROM ${serverSecrets} WHERE ${serverSecrets.name} = 'entity_digest'`);
    if (!row) throw new Error('the entity digest key is missing: run the migrations');
    return row.value;
  };
  return perDatabase(db, 'entityDigestKey', read) ?? read();
}

/** 52 bits of an HMAC of the type and entity: tells duplicates apart without storing the entity. */
function entityDigest(key: string, type: string, entity: string): number {
  return parseInt(createHmac('sha256', key).update(`${type}\u0000${entity}`).digest('hex').slice(0, 13), 16);
}

/** What is wrong with an application's name (the entity of an app heartbeat), if anything. */
function appNameProblem(name: string): string | null {
  if (name.length > 255) return 'must be at most 255 characters';
  const problem = nameProblem(name);
  return problem && textRule(problem);
}

/** What checking heartbeats needs: the digest key, the times a heartbeat may have, and the request's User-Agent. */
export interface CheckContext {
  key: string;
  /** Epoch ms: the earliest and latest time accepted. */
  earliest: number;
  latest: number;
  tooOld: string;
  /** For heartbeats without a user_agent of their own. */
  userAgent: string | null;
  /** The request's X-Machine-Name, as kept (machineName); undefined: each heartbeat's `hostname`. */
  machine?: string;
  /** Digests already made, by type, then entity (a dump names the same files again and again). */
  digests: Map<string, Map<string, number>>;
  /** What the entries of `digests` cost (see DIGESTS_MAX_COST). */
  digestCost?: number;
  /** User-Agents already read (a request's heartbeats share one or two). */
  origins: Map<string | null, Origin>;
  /** The text rules, remembering the strings that passed them (none when absent). */
  checks?: TextChecks;
  /** An import's: what its dump says of the origin of heartbeats without a `user_agent`. */
  dump?: DumpOrigins;
}

/** The longest User-Agent recorded (a heartbeat's `user_agent` may be no longer). */
const MAX_USER_AGENT = 512;

/** The editor and system of a User-Agent, remembered in `ctx`. */
function originOf(ctx: CheckContext, userAgent: string | null): Origin {
  let origin = ctx.origins.get(userAgent);
  if (!origin) {
    origin = parseUserAgent(userAgent);
    if (ctx.origins.size < 1000) ctx.origins.set(userAgent, origin);
  }
  return origin;
}

/**
 * The most entity digests one context remembers, counted as each entity's characters plus
 * DIGEST_ENTRY_COST (what a map entry, its number and a short string's header take): an import's
 * context lasts the whole dump, whose entities (up to 4 KiB each, or millions of short ones) could
 * otherwise fill hundreds of megabytes.
 */
const DIGESTS_MAX_COST = 4_000_000;
const DIGEST_ENTRY_COST = 64;

/** The digest of a heartbeat's entity, remembered in `ctx`. */
function digestOf(ctx: CheckContext, type: string, entity: string): number {
  let ofType = ctx.digests.get(type);
  if (!ofType) ctx.digests.set(type, (ofType = new Map()));
  let digest = ofType.get(entity);
  if (digest === undefined) {
    const cost = entity.length + DIGEST_ENTRY_COST;
    ctx.digestCost = (ctx.digestCost ?? 0) + cost;
    if (ctx.digestCost > DIGESTS_MAX_COST) {
      for (const remembered of ctx.digests.values()) remembered.clear();
      ctx.digestCost = cost;
    }
    ofType.set(entity, (digest = entityDigest(ctx.key, type, entity)));
  }
  return digest;
}

/**
 * The times the heartbeat routes accept: from 2000-01-01 (older than 14 days arrives late and is
 * kept apart: lib/wakatime/sending/heartbeat-store.ts) up to an hour ahead.
 */
export function liveTimes(now = Date.now()): Pick<CheckContext, 'earliest' | 'latest' | 'tooOld'> {
  return { earliest: EARLIEST_HEARTBEAT_MS, latest: now + AHEAD_LIMIT_MS, tooOld: 'time must be from 2000-01-01 and at most one hour ahead' };
}

/** The fields the schema names: none is a content field in any case (tests/unit/fast-path.test.ts). */
const schemaFields: ReadonlySet<string> = new Set(Object.keys(heartbeatSchema.shape));

/** The first field that would carry content (CONTENT_FIELDS, in any case), if any. */
function contentField(item: object): string | undefined {
  for (const field of Object.keys(item)) {
    if (!schemaFields.has(field) && CONTENT_FIELDS.has(field.toLowerCase())) return field;
  }
  return undefined;
}

/** One heartbeat checked and reduced to what is stored, or what is wrong with it. */
export function checkHeartbeat(item: unknown, ctx: CheckContext): Heartbeat | string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'a heartbeat must be a JSON object';
  const content = contentField(item);
  if (content !== undefined) return `${content}: file bodies, diffs and clipboard data are never accepted`;
  let h = quickHeartbeat(item as Record<string, unknown>, ctx.checks);
  if (!h) {
    const parsed = heartbeatSchema.safeParse(item);
    if (!parsed.success) return parsed.error.issues.map((i) => i.message).join('; ');
    h = parsed.data;
  }
  const at = Math.round(h.time * 1000);
  if (!(at >= ctx.earliest && at <= ctx.latest)) return ctx.tooOld;
  const origin = (!h.user_agent && !h.plugin && ctx.dump?.of(item as Record<string, unknown>)) || originOf(ctx, h.user_agent || h.plugin || ctx.userAgent);
  const category = knownCategory(h.category);
  // An AI agent's heartbeat is coding time in its category, whatever its type: an app heartbeat of
  // one is kept as a file heartbeat (its entity, the agent's session, only as a digest).
  const type = h.type === 'app' && (category === 'ai coding' || origin.agent !== '') ? 'file' : h.type;
  // For `type: app` the entity is the application's name, stored as desktop time's app.
  const appName = type === 'app' ? h.entity.trim() : '';
  const appProblem = type === 'app' ? appNameProblem(appName) : null;
  if (appProblem) return `entity of an app heartbeat is the application's name, which ${appProblem}`;
  return {
    at,
    type,
    digest: digestOf(ctx, type, h.entity),
    category,
    language: (h.language !== LAST_LANGUAGE && h.language) || 'Other',
    project: (h.project !== LAST_PROJECT && h.project) || (h.alternate_project !== LAST_PROJECT && h.alternate_project) || '',
    editor: origin.editor,
    os: origin.os || 'Unknown',
    app: appName || (type === 'app' ? 'Unknown' : ''),
    // A dump's heartbeat names its machine by id (lib/wakatime/importing/dump-origins.ts).
    machine: ctx.machine ?? (machineName(h.hostname) || (ctx.dump?.machineOf(item as Record<string, unknown>) ?? '')),
    agent: origin.agent,
    aiLines: h.ai_line_changes ?? 0,
    humanLines: h.human_line_changes ?? 0,
    isWrite: (item as Record<string, unknown>).is_write === true,
    ...aiReport(ctx, h, origin),
  };
}

/**
 * What an AI agent reported with a heartbeat (decision 0037), only what it did report: the
 * session as a keyed digest of its id (never the id), tokens, the prompt's length and the model
 * its User-Agent names.
 */
function aiReport(ctx: CheckContext, h: { ai_session?: string | null; ai_input_tokens?: number | null; ai_output_tokens?: number | null; ai_prompt_length?: number | null }, origin: Origin): Partial<Heartbeat> {
  const session = h.ai_session?.trim();
  const report: Partial<Heartbeat> = {};
  if (session) report.aiSession = digestOf(ctx, AI_SESSION, session);
  if (h.ai_input_tokens) report.aiInputTokens = h.ai_input_tokens;
  if (h.ai_output_tokens) report.aiOutputTokens = h.ai_output_tokens;
  if (h.ai_prompt_length) report.aiPromptLength = h.ai_prompt_length;
  if (origin.model) report.aiModel = origin.model;
  return report;
}

/** The type an AI session's digest is made under: never one of a heartbeat's types, so never an entity's digest. */
const AI_SESSION = '\u0000ai_session';

/** A machine's name as it is kept: a plain name of at most 64 characters, trimmed; anything else is no name (''). */
export function machineName(value: unknown): string {
  if (typeof value !== 'string') return '';
  const name = value.trim();
  return name.length > 0 && name.length <= 64 && nameProblem(name) === null ? name : '';
}

/** WakaTime's placeholders: the value of the user's previous heartbeat (`<<LAST_BRANCH>>` too, but no branch is kept). */
const LAST_PROJECT = '<<LAST_PROJECT>>';
const LAST_LANGUAGE = '<<LAST_LANGUAGE>>';

/** Which of a heartbeat's names are placeholders, read from the item as sent (checkHeartbeat gave them their defaults). */
function placeholders(item: unknown): { project: boolean; language: boolean } | null {
  const { project, alternate_project: alternate, language } = item as Record<string, unknown>;
  const p = project === LAST_PROJECT || (!project && alternate === LAST_PROJECT);
  const l = language === LAST_LANGUAGE;
  return p || l ? { project: p, language: l } : null;
}

/** The project and language of the user's latest stored heartbeat at or before `at` (none: null). */
async function previousStored(db: Db, userId: string, at: number): Promise<Pick<Heartbeat, 'project' | 'language'> | null> {
  const h = heartbeats;
  const [row] = await rows<Pick<Heartbeat, 'project' | 'language'>>(
    db,
    sql`SELECT ${h.project} AS project, ${h.language} AS language FROM ${h}
        WHERE ${h.userId} = ${userId}::uuid AND ${h.at} <= ${at} ORDER BY ${h.at} DESC LIMIT 1`,
  );
  return row ?? null;
}

/**
 * Validates heartbeats one by one. Returns the valid ones (duplicates within the request once)
 * and an answer per item, in order. `userAgent` is the request's, for heartbeats without their own.
 * A placeholder takes the value of the previous valid heartbeat of the request, or for the first
 * one, of the user's latest stored heartbeat (read only then).
 */
export async function readHeartbeats(
  db: Db,
  user: { id: string },
  items: readonly unknown[],
  sender: { userAgent: string | null; machine?: string | null },
  now = Date.now(),
): Promise<{ valid: Heartbeat[]; results: ItemResult[]; agents: SeenAgent[] }> {
  const machine = sender.machine ? machineName(sender.machine) || undefined : undefined;
  const ctx: CheckContext = { key: await digestKey(db), userAgent: sender.userAgent, machine, ...liveTimes(now), digests: new Map(), origins: new Map(), checks: new TextChecks() };
  const valid = new DistinctHeartbeats();
  const results: ItemResult[] = [];
  let previous: Pick<Heartbeat, 'project' | 'language'> | null | undefined;
  for (const item of items) {
    const heartbeat = checkHeartbeat(item, ctx);
    if (typeof heartbeat !== 'string') {
      const wanted = placeholders(item);
      if (wanted) {
        if (previous === undefined) previous = await previousStored(db, user.id, heartbeat.at);
        if (previous && wanted.project) heartbeat.project = previous.project;
        if (previous && wanted.language) heartbeat.language = previous.language;
      }
      previous = heartbeat;
      valid.add(heartbeat);
    }
    results.push(heartbeat);
  }
  // The User-Agents the valid heartbeats were read with (GET /users/current/user_agents lists
  // them), those that are text PostgreSQL stores and of a User-Agent's length only.
  const agents =
    valid.list.length === 0
      ? []
      : [...ctx.origins]
          .filter((e): e is [string, Origin] => !!e[0] && e[0].length <= MAX_USER_AGENT && textProblem(e[0]) === null)
          .slice(0, 10)
          .map(([value, o]) => ({ value, editor: o.editor, os: o.os }));
  return { valid: valid.list, results, agents };
}
