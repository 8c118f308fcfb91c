import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DesktopEvent, EditorEvent } from './buckets';

// What a caller says about an event, checked and made into the event the queue records. The
// service's own rules (lengths, no control characters) are checked here, where the event enters,
// so that a batch is never refused for one bad field.

/** How far back an event may be dated (the service keeps no later record of earlier hours). */
export const OLDEST_MS = 14 * 86_400_000;
/** How far ahead of this machine's clock an event may be dated. */
export const AHEAD_MS = 3_600_000;

export class EventError extends Error {}

const controls = /[\u0000-\u001f\u007f]/;

function text(field: string, value: string | undefined, max: number, fallback: string): string {
  const v = (value ?? '').trim();
  if (v.length > max) throw new EventError(`${field} must be at most ${max} characters`);
  if (controls.test(v) || !v.isWellFormed()) throw new EventError(`${field} must not contain control characters or unpaired surrogates`);
  return v || fallback;
}

/** Epoch seconds (a plugin's `--time`) to epoch ms, checked; now when absent. */
export function eventTime(seconds: number | undefined, now = Date.now()): number {
  if (seconds === undefined) return now;
  if (!Number.isFinite(seconds)) throw new EventError('time must be a number of seconds since the epoch');
  const at = Math.round(seconds * 1000);
  if (at < now - OLDEST_MS || at > now + AHEAD_MS) throw new EventError('time must be within the last 14 days and at most one hour ahead');
  return at;
}

const extensions: Record<string, string> = {
  ts: 'TypeScript', tsx: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript', js: 'JavaScript', jsx: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript',
  py: 'Python', rs: 'Rust', go: 'Go', java: 'Java', kt: 'Kotlin', c: 'C', h: 'C', cc: 'C++', cpp: 'C++', hpp: 'C++', cs: 'C#', rb: 'Ruby',
  php: 'PHP', swift: 'Swift', lua: 'Lua', sh: 'Bash', zsh: 'Zsh', sql: 'SQL', md: 'Markdown', json: 'JSON', yaml: 'YAML', yml: 'YAML',
  toml: 'TOML', html: 'HTML', css: 'CSS', scss: 'SCSS', vue: 'Vue', svelte: 'Svelte', ex: 'Elixir', exs: 'Elixir', erl: 'Erlang',
  hs: 'Haskell', ml: 'OCaml', scala: 'Scala', clj: 'Clojure', dart: 'Dart', zig: 'Zig', nim: 'Nim', r: 'R', jl: 'Julia', vim: 'Vim script',
};

/** A language named after a file's extension, when the editor did not name one. */
export function languageOf(entity: string | undefined): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(entity ?? '')?.[1]?.toLowerCase();
  return ext ? extensions[ext] : undefined;
}

/**
 * The project of a file the editor did not name one for: the name of the folder holding the
 * nearest `.git` above it (a folder, or a file in worktrees and submodules), as WakaTime's command
 * line does; none outside a repository.
 */
export function projectOf(entity: string | undefined): string | undefined {
  if (!entity) return undefined;
  for (let dir = path.dirname(path.resolve(entity)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return path.basename(dir) || undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export interface HeartbeatInput {
  /** The file: its extension names the language and its repository the project when none is given; it is never stored. */
  entity?: string;
  language?: string;
  /** The project; when absent, found from the entity (`projectOf`). */
  project?: string;
  editor?: string;
  /** Epoch seconds; now when absent. */
  time?: number;
  /** WakaTime's category; `coding` when absent. */
  category?: string;
  /** The AI agent whose event this is (`Claude`, `Cursor`); none when absent. */
  agent?: string;
  /** Net lines an AI agent, and the person, changed with this event. */
  aiLines?: number;
  humanLines?: number;
  /** This machine's name; the hostname when absent. */
  machine?: string;
}

/** WakaTime's categories, as the service takes them. */
export const CATEGORIES = [
  'coding', 'ai coding', 'building', 'code reviewing', 'debugging', 'designing', 'writing docs', 'writing tests', 'manual testing', 'browsing',
  'meeting', 'planning', 'researching', 'learning', 'communicating', 'indexing', 'running tests', 'supporting', 'advising', 'notes', 'translating',
];

function category(value: string | undefined): string {
  const v = (value ?? 'coding').trim().toLowerCase();
  if (!CATEGORIES.includes(v)) throw new EventError(`category must be one of ${CATEGORIES.join(', ')}`);
  return v;
}

function lineChanges(field: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || Math.abs(value) > 10_000_000) throw new EventError(`${field} must be a whole number from -10000000 to 10000000`);
  return value;
}

export function editorEvent(input: HeartbeatInput, now = Date.now()): EditorEvent {
  const event: EditorEvent = {
    kind: 'editor',
    at: eventTime(input.time, now),
    language: text('language', input.language ?? languageOf(input.entity), 64, 'Other'),
    project: text('project', input.project, 200, ''),
    editor: text('editor', input.editor, 64, 'unknown'),
  };
  const cat = category(input.category);
  if (cat !== 'coding') event.category = cat;
  const machine = text('machine', input.machine ?? os.hostname(), 64, '');
  if (machine) event.machine = machine;
  const agent = text('agent', input.agent, 64, '');
  if (agent) event.agent = agent;
  const [ai, human] = [lineChanges('ai lines', input.aiLines), lineChanges('human lines', input.humanLines)];
  if (ai) event.aiLines = ai;
  if (human) event.humanLines = human;
  return event;
}

export function desktopEvent(input: { app: string; platform?: string; time?: number }, now = Date.now()): DesktopEvent {
  return {
    kind: 'desktop',
    at: eventTime(input.time, now),
    app: text('app', input.app, 200, ''),
    platform: text('platform', input.platform ?? process.platform, 64, 'unknown'),
  };
}
