import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { ideActivity, userAgents } from '../../db/schema';
import { MAX_USER_AGENTS } from '../sending/user-agents';

// The owner's machines and User-Agents in WakaTime's shapes (GET users/current/machine_names and
// user_agents). A machine is known by its name in the buckets (ide_activity.machine, kept over all
// history): its id is made from the owner and the name, the same wherever it is given
// (machine_name_id in summaries, stats and heartbeats), so nothing per machine is stored beside
// the buckets. User-Agents are those recorded with heartbeats (user_agents), the newest
// MAX_USER_AGENTS of each user (../sending/user-agents.ts prunes the rest as it records). Both lists are
// the most recently seen first and capped, so that a client sending a new name with every
// heartbeat makes neither answer grow without bound.

/** A stable id of one of the owner's machines: a UUID made from the owner's id and the name. */
export function machineId(userId: string, name: string): string {
  const h = createHash('sha256').update(`machine\u0000${userId}\u0000${name}`).digest('hex');
  // Laid out as a UUID of version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const iso = (v: string | Date) => new Date(v).toISOString();

/** The most machines GET machine_names lists. */
export const MAX_MACHINE_NAMES = 100;

/** GET machine_names: the machines the owner has time on, the most recently seen first (MAX_MACHINE_NAMES of them). */
export async function machineNames(db: Db, userId: string) {
  const a = ideActivity;
  const found = await rows<{ name: string; first: string; last: string | Date }>(
    db,
    sql`SELECT ${a.machine} AS name, to_char(min(${a.date}), 'YYYY-MM-DD') AS first, max(${a.updatedAt}) AS last
        FROM ${a} WHERE ${a.userId} = ${userId}::uuid AND ${a.machine} <> '' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ${MAX_MACHINE_NAMES}`,
  );
  return {
    data: found.map((m) => ({ id: machineId(userId, m.name), name: m.name, value: m.name, last_seen_at: iso(m.last), created_at: `${m.first}T00:00:00Z` })),
  };
}

/** The plugin's version in a User-Agent (`vscode-wakatime/25.3.0` -> 25.3.0), else wakatime-cli's; null for none. */
function versionOf(value: string): string | null {
  return /[\w.]+-wakatime\/v?([\w.+-]+)/i.exec(value)?.[1] ?? /\bwakatime\/v?([\w.+-]+)/i.exec(value)?.[1] ?? null;
}

/** GET user_agents: the User-Agents the owner's heartbeats came with, the most recently seen first (the newest MAX_USER_AGENTS). */
export async function userAgentList(db: Db, userId: string) {
  const u = userAgents;
  const found = await rows<{ id: string; value: string; editor: string; os: string; created_at: string | Date; last_seen_at: string | Date }>(
    db,
    sql`SELECT ${u.id} AS id, ${u.value} AS value, ${u.editor} AS editor, ${u.os} AS os, ${u.createdAt} AS created_at, ${u.lastSeenAt} AS last_seen_at
        FROM ${u} WHERE ${u.userId} = ${userId}::uuid ORDER BY ${u.lastSeenAt} DESC, ${u.value} LIMIT ${MAX_USER_AGENTS}`,
  );
  return {
    data: found.map((a) => ({
      id: a.id,
      value: a.value,
      editor: a.editor || null,
      os: a.os || null,
      version: versionOf(a.value),
      is_browser_extension: /\b(chrome|firefox|edge|safari|brave|opera)-wakatime\//i.test(a.value),
      is_desktop_app: /\b(wakatime-desktop|desktop-wakatime|macos-wakatime|windows-wakatime|linux-wakatime)\//i.test(a.value),
      created_at: iso(a.created_at),
      last_seen_at: iso(a.last_seen_at),
    })),
  };
}
