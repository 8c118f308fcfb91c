import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { heartbeats } from '../../db/schema';
import { agentOf, editorLabel } from '../../editors';
import { LATE_LIMIT_MS } from './heartbeat';
import { machineNames, userAgentList } from '../reading/machines';
import { parseUserAgent } from './user-agent';

// "Is my editor sending?" (the dashboard's Settings, Sending; WakaTime's and Hackatime's plugin
// status pages): each editor, AI agent and machine that sent heartbeats, with its version, system
// and last heartbeat, from what is stored anyway. The heartbeats of the last 14 days (their key
// begins with the user and the time, so the read is that range of the user's rows) tell editor,
// agent, system and machine to the second; the recorded User-Agents (the newest 50, pruned as
// they are recorded) add the plugin's version, and name what sent before those 14 days; the
// buckets name every machine ever seen (capped, as GET machine_names). Nothing here is stored.

/** How long without a heartbeat before a sender is called quiet. */
export const QUIET_MS = 86_400_000;
/** The most senders listed: one a (editor, agent, system, machine) seen in the 14 days, then the User-Agents'. */
export const MAX_SENDERS = 100;

export interface Sender {
  /** As the rest of the dashboard names it: an agent's or a browser's plugin says what it is; an agent in an editor says both. */
  name: string;
  /** The plugin's version (wakatime-cli's when the plugin gives none); null unknown. */
  version: string | null;
  os: string;
  /** '' unknown (the heartbeat named none, or it is older than the heartbeats kept). */
  machine: string;
  /** The last heartbeat, ISO 8601. */
  last: string;
  quiet: boolean;
}

export interface Machine {
  name: string;
  last: string;
  quiet: boolean;
}

/** A sender's name: "Claude Code (AI agent)", "Claude Code (AI agent) in VS Code", "Neovim", "Unknown editor". */
export function senderName(editor: string, aiAgent: string): string {
  const agent = agentOf(aiAgent, editor);
  const shown = editor ? editorLabel(editor) : 'Unknown editor';
  return agent && agent !== editor ? `${editorLabel(agent)} in ${shown}` : shown;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago": how long before `now` a time was. */
export function sinceText(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ] as const) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}

const iso = (v: string | Date | number) => new Date(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v).toISOString();

/** The owner's senders, the most recently heard first, and their machines, as of `now` (the quiet mark's clock, returned). */
export async function sendersOf(db: Db, userId: string, now = Date.now()): Promise<{ now: number; senders: Sender[]; machines: Machine[] }> {
  const h = heartbeats;
  const [recent, agents, machines] = await Promise.all([
    rows<{ editor: string; os: string; machine: string; ai_agent: string; last: string | number }>(
      db,
      sql`SELECT ${h.editor} AS editor, ${h.os} AS os, coalesce(${h.machine}, '') AS machine, coalesce(${h.aiAgent}, '') AS ai_agent, max(${h.at}) AS last
          FROM ${h} WHERE ${h.userId} = ${userId}::uuid AND ${h.at} >= ${now - LATE_LIMIT_MS}
          GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC, 1, 2, 3, 4 LIMIT ${MAX_SENDERS}`,
    ),
    userAgentList(db, userId),
    machineNames(db, userId),
  ]);
  // Each User-Agent under the sender it names (editor, agent, system): the newest gives the version.
  const known = agents.data.map((a) => ({ ...a, name: senderName(a.editor ?? '', parseUserAgent(a.value).agent), os: a.os ?? '' }));
  const used = new Set<string>();
  const senders: Sender[] = recent.map((r) => {
    const name = senderName(r.editor, r.ai_agent);
    // A heartbeat whose User-Agent named no system is stored as 'Unknown' (./heartbeat-check.ts); its User-Agent's is ''.
    const os = r.os === 'Unknown' ? '' : r.os;
    const agent = known.find((a) => a.name === name && a.os === os);
    if (agent) used.add(agent.id);
    const last = iso(r.last);
    return { name, version: agent?.version ?? null, os, machine: r.machine, last, quiet: now - Date.parse(last) > QUIET_MS };
  });
  // What sent before the heartbeats kept: by its User-Agent alone (one row a sender and system).
  const listed = new Set(senders.map((s) => `${s.name}\u0000${s.os}`));
  for (const a of known) {
    const key = `${a.name}\u0000${a.os}`;
    if (used.has(a.id) || listed.has(key) || senders.length >= MAX_SENDERS) continue;
    listed.add(key);
    senders.push({ name: a.name, version: a.version, os: a.os, machine: '', last: a.last_seen_at, quiet: now - Date.parse(a.last_seen_at) > QUIET_MS });
  }
  // A machine's last heartbeat when the 14 days hold one (a bucket's write time is when its
  // heartbeats arrived, late ones too), else when its buckets were last written (the sync routes'
  // clients send no heartbeats); the most recently heard first.
  const heard = new Map<string, string>();
  for (const r of senders) if (r.machine && (heard.get(r.machine) ?? '') < r.last) heard.set(r.machine, r.last);
  const machineList = machines.data
    .map((m) => ({ name: m.name, last: heard.get(m.name) ?? m.last_seen_at }))
    .sort((a, b) => b.last.localeCompare(a.last) || a.name.localeCompare(b.name))
    .map((m) => ({ ...m, quiet: now - Date.parse(m.last) > QUIET_MS }));
  return { now, senders, machines: machineList };
}
