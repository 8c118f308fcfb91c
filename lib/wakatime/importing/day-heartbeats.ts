import { reports, type Deltas, type HeartbeatReport } from '../sending/credits';
import { GAP_MS, type Heartbeat } from '../sending/heartbeat';

// The heartbeats of one UTC day an import holds until it can credit the day
// (lib/wakatime/importing/day-importer.ts), kept in columns: the time and the entity's digest as numbers, and
// what the time is credited to as one object shared by every heartbeat of the day that names the
// same things: a small fraction of the memory of heartbeat objects, so that even the largest day
// taken (MAX_DAY_HEARTBEATS, naming at most MAX_DAY_NAMES different combinations) stays small
// (docs/scaling.md).

/** What a heartbeat's time is credited to (Deltas.add). */
type Credited = Pick<Heartbeat, 'type' | 'language' | 'project' | 'editor' | 'os' | 'app' | 'category' | 'machine' | 'agent'>;

const sameCredited = (a: Credited, h: Heartbeat) =>
  a.type === h.type &&
  a.language === h.language &&
  a.project === h.project &&
  a.editor === h.editor &&
  a.os === h.os &&
  a.app === h.app &&
  a.category === h.category &&
  a.machine === h.machine &&
  a.agent === h.agent;

export class DayHeartbeats {
  private at = new Float64Array(256);
  private digest = new Float64Array(256);
  private credited: Credited[] = [];
  /** Heartbeats held, repeats included. */
  size = 0;
  /** The earliest time held. */
  earliest = Infinity;
  /** Whether each heartbeat came later than all before it (as WakaTime writes a day): nothing to sort. */
  private inOrder = true;
  /** The one object for each combination the day's heartbeats are credited to. */
  private readonly names = new Map<string, Credited>();
  /** What the few heartbeats that report more than their time report (line changes, AI report), by place, with their AI session. */
  private readonly reports = new Map<number, HeartbeatReport & { session?: number }>();

  add(h: Heartbeat): void {
    if (this.size === this.at.length) {
      this.at = grown(this.at);
      this.digest = grown(this.digest);
    }
    this.at[this.size] = h.at;
    this.digest[this.size] = h.digest;
    // A dump's heartbeats come in runs that name the same things: most are the last one's.
    let credited = this.credited.at(-1);
    if (!credited || !sameCredited(credited, h)) {
      const key = [h.type, h.language, h.project, h.editor, h.os, h.app, h.category, h.machine, h.agent].join('\u0000');
      credited = this.names.get(key);
      if (!credited) {
        const { type, language, project, editor, os, app, category, machine, agent } = h;
        this.names.set(key, (credited = { type, language, project, editor, os, app, category, machine, agent }));
      }
    }
    this.credited.push(credited);
    if (reports(h)) {
      const { aiLines, humanLines, aiInputTokens, aiOutputTokens, aiPromptLength, aiModel, aiSession } = h;
      this.reports.set(this.size, { aiLines, humanLines, aiInputTokens, aiOutputTokens, aiPromptLength, aiModel, session: aiSession, newSession: false });
    }
    if (this.size > 0 && h.at <= this.at[this.size - 1]) this.inOrder = false;
    this.size++;
    if (h.at < this.earliest) this.earliest = h.at;
  }

  /** How many different combinations (type, language, project, editor, operating system, application, category, machine, agent) the day names. */
  get named(): number {
    return this.names.size;
  }

  /**
   * Credits the day by WakaTime's rule into `deltas`: in time order, each gap of at most 15
   * minutes to the next heartbeat (after the last, `firstNext`) goes to the earlier one. The same
   * time, type and entity are one heartbeat, the last one sent (as DistinctHeartbeats holds
   * them). What a heartbeat reports besides its time goes to its own hour (Deltas.addReport); an
   * AI session counts once a day, with its first heartbeat of the day. Returns how many distinct
   * heartbeats the day has.
   */
  credit(firstNext: number, zone: string, deltas: Deltas): number {
    const { at, digest, credited } = this;
    const order = new Uint32Array(this.size);
    for (let i = 0; i < order.length; i++) order[i] = i;
    // Ties in time go by type and digest, as the heartbeat path orders them; the same heartbeat
    // sent again sorts after itself, so the last of a run is the one kept.
    if (!this.inOrder) order.sort((a, b) => at[a] - at[b] || compareText(credited[a].type, credited[b].type) || digest[a] - digest[b] || a - b);
    let distinct = 0;
    let held = -1;
    const sessions = new Set<number>();
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const j = k + 1 < order.length ? order[k + 1] : -1;
      if (j >= 0 && at[j] === at[i] && digest[j] === digest[i] && credited[j].type === credited[i].type) continue;
      distinct++;
      const report = this.reports.get(i);
      if (report) {
        const newSession = report.session !== undefined && report.session !== 0 && !sessions.has(report.session);
        if (newSession) sessions.add(report.session!);
        deltas.addReport(credited[i], at[i], zone, { ...report, newSession });
      }
      if (held >= 0) credit(held, at[i]);
      held = i;
    }
    if (held >= 0) credit(held, firstNext);
    return distinct;

    function credit(i: number, next: number): void {
      if (next - at[i] <= GAP_MS && next > at[i]) deltas.add(credited[i], at[i], next, zone, 1);
    }
  }
}

const compareText = (a: string, b: string) => (a === b ? 0 : a.localeCompare(b));

function grown(column: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(column.length * 2);
  bigger.set(column);
  return bigger;
}
