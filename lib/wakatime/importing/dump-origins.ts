import { createReadStream } from 'node:fs';
import { canonicalEditor } from '../../editors';
import { nameProblem } from '../../text';
import { DumpError, DumpReader } from './dump';
import { machineName } from '../sending/heartbeat-check';
import { parseUserAgent, type Origin } from '../sending/user-agent';

// The editor and operating system of an imported heartbeat, from what the dump carries: the
// heartbeat's own `user_agent`, or its `user_agent_id` looked up in the dump's "user_agents" list
// (`{id, value, editor, os}`: the User-Agent read by the same parser as the heartbeat routes', the
// dump's own editor and os where the parser finds none), or an older dump's `editor` and
// `operating_system` on the heartbeat itself. Editors go by their canonical names (lib/editors.ts).
// WakaTime's exports hold no such list: with the user's WakaTime key, the import reads it from
// WakaTime (lib/wakatime/importing/user-agents-fetch.ts) and its entries are added after the dump's own, so
// an id the dump lists keeps the dump's entry.
//
// A heartbeat's machine, the same way: its `machine_name_id` looked up in the dump's own
// "machine_names" list (`{id, name, value}`), else in the one read from WakaTime with the key
// (GET users/current/machine_names): without either, a dump's machines are Unknown.
//
// The lists may come after "days" in the file, and heartbeats are credited as they are read, so they
// are read first, in a pass of its own over the spooled file (`readDumpOrigins`) that skips the
// days (strings are stepped over, nothing is parsed but the list) and stops as soon as the list
// have ended. What it keeps is bounded: MAX_DUMP_USER_AGENTS entries of a few short strings each, in each list.

/** The most User-Agents of one dump remembered (a user has tens; entries past it are ignored). */
export const MAX_DUMP_USER_AGENTS = 10_000;
const MAX_ID = 128;

/** A name a dump gives (an editor or system), when it is one that may be stored and shown. */
function dumpName(value: unknown): string {
  if (typeof value !== 'string') return '';
  const name = value.trim();
  return name.length <= 64 && nameProblem(name) === null ? name : '';
}

/** The User-Agents a dump lists, by id, each read into an editor and operating system; and its machines' names, by id. */
export class DumpOrigins {
  private readonly byId = new Map<string, Origin>();
  private readonly machines = new Map<string, string>();

  get size(): number {
    return this.byId.size;
  }

  /** One entry of the dump's "user_agents" (anything JSON: what is not an entry is ignored). */
  add(entry: unknown): void {
    if (typeof entry !== 'object' || entry === null || this.byId.size >= MAX_DUMP_USER_AGENTS) return;
    const { id, value, editor, os } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID || this.byId.has(id)) return;
    const parsed = parseUserAgent(typeof value === 'string' ? value : null);
    this.byId.set(id, { editor: parsed.editor || canonicalEditor(dumpName(editor)), os: parsed.os || dumpName(os), agent: parsed.agent, model: parsed.model });
  }

  /** One entry of the dump's "machine_names" or WakaTime's (`{id, name}`, the name else `value`): what is not one is ignored. */
  addMachine(entry: unknown): void {
    if (typeof entry !== 'object' || entry === null || this.machines.size >= MAX_DUMP_USER_AGENTS) return;
    const { id, name, value } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID || this.machines.has(id)) return;
    // Kept as a heartbeat's X-Machine-Name or hostname is (machineName): a plain name, else none.
    const kept = machineName(name) || machineName(value);
    if (kept) this.machines.set(id, kept);
  }

  /** The machine a dump's heartbeat names by `machine_name_id`; '' when it names none listed. */
  machineOf(item: Record<string, unknown>): string {
    const { machine_name_id: id } = item;
    return (typeof id === 'string' && this.machines.get(id)) || '';
  }

  /**
   * The origin of a dump's heartbeat that has no `user_agent` of its own, from its
   * `user_agent_id` or its own `editor` and `operating_system`; undefined when it carries none.
   */
  of(item: Record<string, unknown>): Origin | undefined {
    const { user_agent_id: id } = item;
    const listed = typeof id === 'string' ? this.byId.get(id) : undefined;
    const editor = canonicalEditor(dumpName(item.editor)) || listed?.editor || '';
    const os = dumpName(item.operating_system) || listed?.os || '';
    return editor || os ? { editor, os, agent: listed?.agent ?? '', ...(listed?.model ? { model: listed.model } : {}) } : undefined;
  }
}

/**
 * Reads the "user_agents" list of a spooled dump, wherever it is in the file. `turn` waits for the
 * reading slot and resolves to what gives it back (lib/wakatime/importing/import-queue.ts); `stopping` ends
 * the pass early (the import then stops at its first chunk). A dump that cannot be read yields
 * what was read before: the pass that imports it says what is wrong.
 */
export async function readDumpOrigins(file: string, turn: () => Promise<() => void>, stopping: () => boolean): Promise<DumpOrigins> {
  const origins = new DumpOrigins();
  const reader = new DumpReader({ heartbeats: false, onUserAgent: (entry) => origins.add(entry), onMachineName: (entry) => origins.addMachine(entry) });
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (stopping()) break;
      const giveBack = await turn();
      try {
        reader.push(chunk);
      } finally {
        giveBack();
      }
      if (reader.originsRead) break;
    }
  } catch (err) {
    if (!(err instanceof DumpError)) throw err;
  } finally {
    stream.destroy();
  }
  return origins;
}
