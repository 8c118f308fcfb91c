import { z } from 'zod';
import { checkedText, nameProblem, textProblem, type TextProblem } from '../../text';
import { heartbeatTypes } from './heartbeat';

// A heartbeat as WakaTime's clients send it: the zod schema (which names what is wrong, and is the
// schema of openapi.json) and the quick path that takes a plainly valid heartbeat without it.
// Besides wakatime-cli's fields: `time` as a numeric string (WakaTime's browser extension),
// `plugin` naming the editor (the browser extension, vscode.dev's extension) and
// `alternate_project`, the project when `project` is absent (vscode.dev's extension).

const name = (field: string, max: number) =>
  checkedText(z.string({ error: `${field} must be a string` }).trim().max(max, { error: `${field} must be at most ${max} characters` }), field, nameProblem);

/** Epoch seconds as a JSON number, or as a string holding a plain decimal (`"1717000000.123"`). */
const NUMERIC_TEXT = /^\d{1,12}(\.\d{1,9})?$/;

/** A heartbeat's `time` as a number, whichever way it came; null when it is neither. */
export function epochSeconds(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : null;
}

const timeRule = 'time must be a number (epoch seconds), or a string holding one';

/** The most lines one heartbeat may say were changed, either way. */
export const MAX_LINE_CHANGES = 1_000_000;

const lineChanges = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(-MAX_LINE_CHANGES, { error: `${field} must be at least -${MAX_LINE_CHANGES}` })
    .max(MAX_LINE_CHANGES, { error: `${field} must be at most ${MAX_LINE_CHANGES}` })
    .nullish()
    .meta({ description: `Net lines ${field.startsWith('ai') ? 'an AI agent' : 'the person'} changed with this heartbeat (negative: more deleted), as wakatime-cli sends them; summed per hour over all history.` });

/** The most tokens one heartbeat may report, either way (wakatime-cli sends those used since its previous heartbeat). */
const MAX_AI_TOKENS = 100_000_000;
/** The longest prompt one heartbeat may report, in characters. */
const MAX_PROMPT_LENGTH = 10_000_000;
/** The longest AI session id kept (as a digest). */
const MAX_AI_SESSION = 255;

const aiCount = (field: string, max: number, description: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(0, { error: `${field} must be at least 0` })
    .max(max, { error: `${field} must be at most ${max}` })
    .nullish()
    .meta({ description });

/** One heartbeat as WakaTime's clients send it. Fields not named here are ignored; none is stored unless named. */
export const heartbeatSchema = z
  .object({
    entity: checkedText(z.string({ error: 'entity must be a string' }).min(1, { error: 'entity must not be empty' }).max(4096), 'entity', textProblem),
    type: z.enum(heartbeatTypes, { error: `type must be one of ${heartbeatTypes.join(', ')}` }).default('file'),
    time: z
      .union([z.number(), z.string().regex(NUMERIC_TEXT, { error: timeRule })], { error: timeRule })
      .transform((v) => epochSeconds(v)!)
      .meta({ description: 'Epoch seconds: a number, or a string holding one (`"1717000000.123"`).' }),
    category: name('category', 64).nullish(),
    project: name('project', 255).nullish(),
    language: name('language', 64).nullish(),
    alternate_project: name('alternate_project', 255).nullish().meta({ description: 'The project when `project` is absent or empty.' }),
    user_agent: z.string().max(512).nullish(),
    plugin: z.string().max(512).nullish().meta({ description: 'The editor and plugin, when `user_agent` is absent: `vscode/1.95.0 vscode-wakatime/25.0.0`.' }),
    hostname: z.unknown().optional().meta({ description: "The machine's name, when the request has no `X-Machine-Name`; one that is not a short plain name (at most 64 characters) is left out." }),
    ai_line_changes: lineChanges('ai_line_changes'),
    human_line_changes: lineChanges('human_line_changes'),
    ai_session: z
      .string({ error: 'ai_session must be a string' })
      .max(MAX_AI_SESSION, { error: `ai_session must be at most ${MAX_AI_SESSION} characters` })
      .nullish()
      .meta({ description: "The AI agent's session id, as wakatime-cli sends it: each session counts once per user (`ai_sessions`), in the hour of the first heartbeat naming it; kept only as a digest." }),
    ai_input_tokens: aiCount('ai_input_tokens', MAX_AI_TOKENS, 'Tokens the AI agent read since its previous heartbeat, as wakatime-cli sends them; summed per hour.'),
    ai_output_tokens: aiCount('ai_output_tokens', MAX_AI_TOKENS, 'Tokens the AI agent wrote since its previous heartbeat; summed per hour.'),
    ai_prompt_length: aiCount('ai_prompt_length', MAX_PROMPT_LENGTH, "The length in characters of the person's prompt this heartbeat carries (never the prompt): counted (`ai_prompt_events_total`) and summed per hour."),
    branch: z.unknown().optional(),
    lines: z.unknown().optional(),
    lineno: z.unknown().optional(),
    cursorpos: z.unknown().optional(),
    is_write: z.unknown().optional().meta({ description: 'true for a save; kept and answered by GET heartbeats?date= (anything but true is false).' }),
    dependencies: z.unknown().optional(),
  })
  .meta({
    id: 'WakaTimeHeartbeat',
    examples: [{ entity: '/home/ada/codetally/app/page.tsx', type: 'file', time: 1736933400.25, category: 'coding', project: 'codetally', language: 'TypeScript', is_write: true }],
  });

type HeartbeatInput = z.output<typeof heartbeatSchema>;

const heartbeatTypeSet = new Set<unknown>(heartbeatTypes);
const absent = (v: unknown): v is null | undefined => v === undefined || v === null;
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : (v as null | undefined));

/**
 * The text rules of lib/text.ts for the strings of heartbeats, remembering up to `limit` strings
 * of each rule that passed it: a request's heartbeats name the same files, projects and languages
 * again and again. A string is remembered only once its rule found nothing wrong with it.
 */
export class TextChecks {
  private readonly texts = new Set<string>();
  private readonly names = new Set<string>();

  constructor(private readonly limit = 10_000) {}

  /** Whether textProblem finds nothing wrong with `value`. */
  text(value: string): boolean {
    return this.passes(this.texts, textProblem, value);
  }

  /** Whether nameProblem finds nothing wrong with `value`. */
  name(value: string): boolean {
    return this.passes(this.names, nameProblem, value);
  }

  private passes(passed: Set<string>, rule: (value: string) => TextProblem | null, value: string): boolean {
    if (passed.has(value)) return true;
    if (rule(value) !== null) return false;
    if (passed.size < this.limit) passed.add(value);
    return true;
  }
}

/** Text checks that remember nothing. */
const unremembered = new TextChecks(0);

/** A name field that is absent, or a string whose trimmed value the schema takes as it is. */
const plainName = (v: unknown, max: number, checks: TextChecks) => absent(v) || (typeof v === 'string' && v.length <= max && checks.name(v));

/** A User-Agent field (`user_agent`, `plugin`) that is absent, or a string the schema takes. */
const plainAgent = (v: unknown) => absent(v) || (typeof v === 'string' && v.length <= 512);

/**
 * The schema's output for a heartbeat that is plainly valid, without the schema (a large share of
 * an import's checking time: docs/scaling.md); anything else, valid or not, is null and goes to the
 * schema, which names what is wrong. tests/unit/fast-path.test.ts checks it never differs from the
 * schema.
 */
const plainLines = (v: unknown) => absent(v) || (Number.isInteger(v) && Math.abs(v as number) <= MAX_LINE_CHANGES);
const plainCount = (v: unknown, max: number) => absent(v) || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max);
const plainSession = (v: unknown) => absent(v) || (typeof v === 'string' && v.length <= MAX_AI_SESSION);

export function quickHeartbeat(item: Record<string, unknown>, checks = unremembered): HeartbeatInput | null {
  const { entity, type, category, project, alternate_project: alternate, language, user_agent: userAgent, plugin, ai_line_changes: ai, human_line_changes: human } = item;
  if (typeof entity !== 'string' || entity.length === 0 || entity.length > 4096 || !checks.text(entity)) return null;
  if (type !== undefined && !heartbeatTypeSet.has(type)) return null;
  const time = epochSeconds(item.time);
  if (time === null) return null;
  if (!plainName(category, 64, checks) || !plainName(project, 255, checks) || !plainName(alternate, 255, checks) || !plainName(language, 64, checks)) return null;
  if (!plainAgent(userAgent) || !plainAgent(plugin) || !plainLines(ai) || !plainLines(human)) return null;
  const { ai_session: session, ai_input_tokens: input, ai_output_tokens: output, ai_prompt_length: prompt } = item;
  if (!plainSession(session) || !plainCount(input, MAX_AI_TOKENS) || !plainCount(output, MAX_AI_TOKENS) || !plainCount(prompt, MAX_PROMPT_LENGTH)) return null;
  return {
    entity,
    type: (type ?? 'file') as HeartbeatInput['type'],
    time,
    category: trimmed(category),
    project: trimmed(project),
    alternate_project: trimmed(alternate),
    language: trimmed(language),
    user_agent: userAgent as string | null | undefined,
    plugin: plugin as string | null | undefined,
    hostname: item.hostname,
    ai_line_changes: ai as number | null | undefined,
    human_line_changes: human as number | null | undefined,
    ai_session: session as string | null | undefined,
    ai_input_tokens: input as number | null | undefined,
    ai_output_tokens: output as number | null | undefined,
    ai_prompt_length: prompt as number | null | undefined,
  };
}
