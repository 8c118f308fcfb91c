import { usersChanged } from '../../db/changes';
import type { Db } from '../../db/client';
import { sql } from 'drizzle-orm';
import { col, cols } from '../../db/names';
import { userDayAiModels } from '../../db/schema';
import { NO_LINE_CHANGES, type DesktopRow, type IdeKey, type IdeRow, type IdeSums } from '../../ingest/rows';
import { writeRows } from '../../ingest/store';
import { localDateHour } from '../../local-time';
import type { Heartbeat } from './heartbeat';

// What heartbeats credit, reckoned in memory (imports, and today's figures of the status bar; the
// heartbeat statement reckons the same in SQL, lib/wakatime/sending/heartbeat-store.ts): a stretch of time
// cut into the local date-hours of a timezone, and the changes of credit summed per bucket, then
// written as time added or subtracted.

/** Local hours never change inside a quarter of a UTC hour (every timezone's offset is a multiple of 15 minutes). */
export const QUARTER_MS = 15 * 60_000;

interface Piece {
  date: string;
  hour: number;
  millis: number;
}

/** The last quarter hour read into a local date and hour (a dump's heartbeats come in runs within one). */
let lastQuarter: { zone: string; quarter: number; local: { date: string; hour: number } } | null = null;

/** The local date and hour of a quarter of a UTC hour (the same all through it in every timezone). */
function quarterLocal(zone: string, quarter: number): { date: string; hour: number } {
  if (lastQuarter?.quarter !== quarter || lastQuarter.zone !== zone) {
    lastQuarter = { zone, quarter, local: localDateHour(zone, new Date(quarter * QUARTER_MS)) };
  }
  return lastQuarter.local;
}

/** [start, end) cut into the local date-hours of `zone`. */
export function hoursOf(start: number, end: number, zone: string): Piece[] {
  const pieces: Piece[] = [];
  for (let t = start; t < end; ) {
    const quarter = Math.floor(t / QUARTER_MS);
    const next = Math.min(end, (quarter + 1) * QUARTER_MS);
    const { date, hour } = quarterLocal(zone, quarter);
    const last = pieces.at(-1);
    if (last && last.date === date && last.hour === hour) last.millis += next - t;
    else pieces.push({ date, hour, millis: next - t });
    t = next;
  }
  return pieces;
}

/** What a heartbeat's credit goes to: desktop time for `type: app`, editor time otherwise. */
type Credited = Pick<Heartbeat, 'language' | 'project' | 'editor' | 'os' | 'app' | 'category' | 'machine' | 'agent'> & { type: string };

/**
 * An IDE credit as stored (imported_days): its bucket key and millis, then the dimensions of
 * migration 0017, then (only when it has any) the line changes and AI report of its heartbeats
 * (REPORT_SUMS, decision 0037). Credits stored before it end at millis: they read as coding,
 * nothing else known.
 */
export type IdeCredit = [date: string, hour: number, language: string, project: string, editor: string, millis: number, category?: string, machine?: string, os?: string, agent?: string, report?: number[]];

/** What a credit's report sums, in order. */
const REPORT_SUMS = ['aiAdditions', 'aiDeletions', 'humanAdditions', 'humanDeletions', 'aiSessions', 'aiInputTokens', 'aiOutputTokens', 'aiPromptEvents', 'aiPromptLengthSum'] as const satisfies readonly (keyof IdeSums)[];

/** A model's figures of a date, as stored with credits: its AI lines (additions plus deletions) and tokens. */
export type ModelCredit = [date: string, model: string, lines: number, inputTokens: number, outputTokens: number];

/** Credits as stored (imported_days, lib/wakatime/importing/day-importer.ts): bucket keys with their millis. */
export interface Credits {
  ide: IdeCredit[];
  desktop: [date: string, hour: number, platform: string, app: string, millis: number][];
  /** Each AI model's figures per date (user_day_ai_models); absent: none. */
  models?: ModelCredit[];
}

/** What one heartbeat reports besides its time (its line changes and AI report), credited to its own hour. */
export type HeartbeatReport = Pick<Heartbeat, 'aiLines' | 'humanLines' | 'aiInputTokens' | 'aiOutputTokens' | 'aiPromptLength' | 'aiModel'> & { newSession: boolean };

/** Whether a heartbeat reports anything besides its time. */
export const reports = (h: Heartbeat): boolean => !!(h.aiLines || h.humanLines || h.aiSession || h.aiInputTokens || h.aiOutputTokens || h.aiPromptLength);

/** Credits with their projects mapped through the owner's renames (lib/projects/aliases.ts), summed again per bucket. */
export function aliasedCredits(credits: Credits, aliases: Record<string, string>): Credits {
  if (!credits.ide.some((c) => Object.hasOwn(aliases, c[3]))) return credits;
  const deltas = new Deltas();
  deltas.addCredits({ ide: credits.ide.map(([d, h, l, p, ...rest]): IdeCredit => [d, h, l, Object.hasOwn(aliases, p) ? aliases[p] : p, ...rest]), desktop: credits.desktop, models: credits.models }, 1);
  return deltas.credits();
}

/** Sums of credit changes per bucket, for the write statement (which adds them to what is stored). */
export class Deltas {
  private readonly ide = new Map<string, IdeRow>();
  private readonly desktop = new Map<string, DesktopRow>();
  private readonly models = new Map<string, ModelCredit>();

  /** Adds (or with sign -1 subtracts) the credit of [start, end) in `zone`'s hours. */
  add(row: Credited, start: number, end: number, zone: string, sign: 1 | -1): void {
    for (const p of hoursOf(start, end, zone)) {
      if (row.type === 'app') this.addDesktop(p.date, p.hour, row.os, row.app, sign * p.millis);
      else this.addIde(p.date, p.hour, row, sign * p.millis);
    }
  }

  /**
   * Adds what a heartbeat at `at` (an IDE heartbeat's) reports besides its time to the bucket of
   * its own local hour, never spread over a gap, and its model's figures to its date.
   */
  addReport(row: Credited, at: number, zone: string, report: HeartbeatReport): void {
    if (row.type === 'app') return;
    const { date, hour } = quarterLocal(zone, Math.floor(at / QUARTER_MS));
    const ai = report.aiLines ?? 0;
    const human = report.humanLines ?? 0;
    const sums = [Math.max(ai, 0), Math.max(-ai, 0), Math.max(human, 0), Math.max(-human, 0), report.newSession ? 1 : 0,
      report.aiInputTokens ?? 0, report.aiOutputTokens ?? 0, report.aiPromptLength ? 1 : 0, report.aiPromptLength ?? 0];
    this.addIde(date, hour, row, 0, sums);
    if (report.aiModel) this.addModel([date, report.aiModel, Math.abs(ai), report.aiInputTokens ?? 0, report.aiOutputTokens ?? 0], 1);
  }

  addCredits(credits: Credits, sign: 1 | -1): void {
    for (const [date, hour, language, project, editor, millis, category = 'coding', machine = '', os = '', agent = '', report] of credits.ide) {
      this.addIde(date, hour, { language, project, editor, category, machine, os, agent }, sign * millis, report?.map((n) => sign * n));
    }
    for (const [date, hour, platform, app, millis] of credits.desktop) this.addDesktop(date, hour, platform, app, sign * millis);
    for (const model of credits.models ?? []) this.addModel(model, sign);
  }

  credits(): Credits {
    const models = [...this.models.values()].filter(([, , ...sums]) => sums.some((n) => n !== 0));
    return {
      ide: [...this.ide.values()].filter(changes).map((r): IdeCredit => {
        const report = REPORT_SUMS.map((k) => r[k] ?? 0);
        if (report.some((n) => n !== 0)) return [r.date, r.hour, r.language, r.project, r.editor, r.millis, r.category, r.machine, r.os, r.agent, report];
        return [r.date, r.hour, r.language, r.project, r.editor, r.millis, r.category, r.machine, r.os, r.agent];
      }),
      desktop: [...this.desktop.values()].filter((r) => r.millis !== 0).map((r) => [r.date, r.hour, r.platform, r.app, r.millis]),
      ...(models.length > 0 ? { models } : {}),
    };
  }

  private addIde(date: string, hour: number, k: IdeKey, millis: number, report?: number[]): void {
    const key = [date, hour, k.language, k.project, k.editor, k.category, k.machine, k.os, k.agent].join('\u0000');
    let found = this.ide.get(key);
    if (found) found.millis += millis;
    else {
      const { language, project, editor, category, machine, os, agent } = k;
      this.ide.set(key, (found = { date, hour, language, project, editor, category, machine, os, agent, millis, lines: 0, ...NO_LINE_CHANGES }));
    }
    if (report) REPORT_SUMS.forEach((name, i) => (found[name] = (found[name] ?? 0) + (report[i] ?? 0)));
  }

  private addModel([date, model, lines, input, output]: ModelCredit, sign: 1 | -1): void {
    const key = `${date}\u0000${model}`;
    const found = this.models.get(key);
    if (found) {
      found[2] += sign * lines;
      found[3] += sign * input;
      found[4] += sign * output;
    } else this.models.set(key, [date, model, sign * lines, sign * input, sign * output]);
  }

  private addDesktop(date: string, hour: number, platform: string, app: string, millis: number): void {
    const key = `${date}\u0000${hour}\u0000${platform}\u0000${app}`;
    const found = this.desktop.get(key);
    if (found) found.millis += millis;
    else this.desktop.set(key, { date, hour, platform, app, millis });
  }

  /** Writes the net changes (time added and subtracted); returns whether any changed. */
  async write(tx: Db, userId: string): Promise<boolean> {
    let changed = false;
    for (const [kind, rows] of [['ide', [...this.ide.values()].filter(changes)], ['desktop', [...this.desktop.values()].filter((r) => r.millis !== 0)]] as const) {
      if (rows.length > 0) await writeRows(tx, kind, userId, rows as IdeRow[] | DesktopRow[]);
      changed ||= rows.length > 0;
    }
    const models = this.credits().models ?? [];
    if (models.length > 0) {
      const m = userDayAiModels;
      await tx.execute(sql`
        INSERT INTO ${m} (${cols(m.userId, m.date, m.model, m.lines, m.inputTokens, m.outputTokens)})
        SELECT ${userId}::uuid, (e->>0)::date, e->>1, (e->>2)::bigint, (e->>3)::bigint, (e->>4)::bigint
        FROM jsonb_array_elements(${JSON.stringify(models)}::text::jsonb) AS e ORDER BY 2, 3
        ON CONFLICT (${cols(m.userId, m.date, m.model)}) DO UPDATE
          SET ${col(m.lines)} = ${m.lines} + excluded.${col(m.lines)}, ${col(m.inputTokens)} = ${m.inputTokens} + excluded.${col(m.inputTokens)},
              ${col(m.outputTokens)} = ${m.outputTokens} + excluded.${col(m.outputTokens)}`);
      changed = true;
    }
    return changed;
  }
}

/** Whether a bucket's row changes anything: time, or what its heartbeats reported. */
const changes = (r: IdeRow) => r.millis !== 0 || REPORT_SUMS.some((k) => (r[k] ?? 0) !== 0);

/** Tells readers a user's figures changed; a failure is logged, never the writer's. */
export async function announce(db: Db, userId: string): Promise<void> {
  await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
}
