import { usersChanged } from '../../db/changes';
import type { Db } from '../../db/client';
import { NO_LINE_CHANGES, type DesktopRow, type IdeKey, type IdeRow } from '../../ingest/rows';
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
 * migration 0017. Credits stored before it end at millis: they read as coding, nothing else known.
 */
export type IdeCredit = [date: string, hour: number, language: string, project: string, editor: string, millis: number, category?: string, machine?: string, os?: string, agent?: string];

/** Credits as stored (imported_days, lib/wakatime/importing/day-importer.ts): bucket keys with their millis. */
export interface Credits {
  ide: IdeCredit[];
  desktop: [date: string, hour: number, platform: string, app: string, millis: number][];
}

/** Credits with their projects mapped through the owner's renames (lib/projects/aliases.ts), summed again per bucket. */
export function aliasedCredits(credits: Credits, aliases: Record<string, string>): Credits {
  if (!credits.ide.some((c) => Object.hasOwn(aliases, c[3]))) return credits;
  const deltas = new Deltas();
  deltas.addCredits({ ide: credits.ide.map(([d, h, l, p, ...rest]): IdeCredit => [d, h, l, Object.hasOwn(aliases, p) ? aliases[p] : p, ...rest]), desktop: credits.desktop }, 1);
  return deltas.credits();
}

/** Sums of credit changes per bucket, for the write statement (which adds them to what is stored). */
export class Deltas {
  private readonly ide = new Map<string, IdeRow>();
  private readonly desktop = new Map<string, DesktopRow>();

  /** Adds (or with sign -1 subtracts) the credit of [start, end) in `zone`'s hours. */
  add(row: Credited, start: number, end: number, zone: string, sign: 1 | -1): void {
    for (const p of hoursOf(start, end, zone)) {
      if (row.type === 'app') this.addDesktop(p.date, p.hour, row.os, row.app, sign * p.millis);
      else this.addIde(p.date, p.hour, row, sign * p.millis);
    }
  }

  addCredits(credits: Credits, sign: 1 | -1): void {
    for (const [date, hour, language, project, editor, millis, category = 'coding', machine = '', os = '', agent = ''] of credits.ide) {
      this.addIde(date, hour, { language, project, editor, category, machine, os, agent }, sign * millis);
    }
    for (const [date, hour, platform, app, millis] of credits.desktop) this.addDesktop(date, hour, platform, app, sign * millis);
  }

  credits(): Credits {
    return {
      ide: [...this.ide.values()].filter((r) => r.millis !== 0).map((r) => [r.date, r.hour, r.language, r.project, r.editor, r.millis, r.category, r.machine, r.os, r.agent]),
      desktop: [...this.desktop.values()].filter((r) => r.millis !== 0).map((r) => [r.date, r.hour, r.platform, r.app, r.millis]),
    };
  }

  private addIde(date: string, hour: number, k: IdeKey, millis: number): void {
    const key = [date, hour, k.language, k.project, k.editor, k.category, k.machine, k.os, k.agent].join('\u0000');
    const found = this.ide.get(key);
    if (found) found.millis += millis;
    else {
      const { language, project, editor, category, machine, os, agent } = k;
      this.ide.set(key, { date, hour, language, project, editor, category, machine, os, agent, millis, lines: 0, ...NO_LINE_CHANGES });
    }
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
    for (const [kind, m] of [['ide', this.ide], ['desktop', this.desktop]] as const) {
      const rows = [...m.values()].filter((r) => r.millis !== 0);
      if (rows.length > 0) await writeRows(tx, kind, userId, rows as IdeRow[] | DesktopRow[]);
      changed ||= rows.length > 0;
    }
    return changed;
  }
}

/** Tells readers a user's figures changed; a failure is logged, never the writer's. */
export async function announce(db: Db, userId: string): Promise<void> {
  await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
}
