import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { credit, type Bucket, type ClientEvent, type Stream } from './buckets';
import { readJson, removeAll, removeLeftovers, writeDurably } from './files';
import type { Home } from './home';

// The queue on disk. Any number of processes record events at once: each event is a file of its
// own, written beside and renamed in, durable before `record` returns, so recording needs no lock.
// The one sender (holding the send lock, ./lock.ts) commits the events: it credits them after
// the last event it committed before (state.json) and writes the buckets as batches, each with its
// Idempotency-Key, to one outbox file. That file is the commit: written durably after the list of
// the events it consumes (NNN.consumed) and before those events are removed and anything is sent.
// A crash at any point leaves either the events (to be committed again, to the same credit) or the
// outbox file (whose consumed events are removed before anything else); the service answers a
// batch sent again with the same key from its record.

export const MAX_BATCH = 1000;

/** The last committed event of each stream, and the number of the last commit. */
interface State {
  seq: number;
  carry: Record<Stream, ClientEvent | null>;
  late: number;
}

export interface Batch {
  key: string;
  stream: Stream;
  buckets: Bucket[];
}

/** One commit: the batches it made and the state after it. */
interface OutboxFile extends State {
  batches: Batch[];
}

const emptyState: State = { seq: 0, carry: { editor: null, desktop: null }, late: 0 };
const outboxName = (seq: number) => `${String(seq).padStart(12, '0')}.json`;
const consumedName = (seq: number) => `${String(seq).padStart(12, '0')}.consumed`;

export class Queue {
  constructor(readonly home: Home) {}

  private get eventsDir() {
    return this.home.file('events');
  }

  private get outboxDir() {
    return this.home.file('outbox');
  }

  /** Records an event durably (returns once it is on disk). */
  record(event: ClientEvent): void {
    this.home.ensure();
    const name = `${String(Math.round(event.at)).padStart(14, '0')}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.json`;
    writeDurably(path.join(this.eventsDir, name), JSON.stringify(event));
  }

  /** Events not committed yet, oldest first by file name (their time). */
  pendingEvents(): string[] {
    try {
      return fs.readdirSync(this.eventsDir).filter((n) => n.endsWith('.json')).sort();
    } catch {
      return [];
    }
  }

  /** How many events wait to be committed, and the time of the oldest (read from the names). */
  pending(): { count: number; oldestAt: number | null } {
    const names = this.pendingEvents();
    return { count: names.length, oldestAt: names.length > 0 ? Number(names[0].slice(0, 14)) : null };
  }

  /** The outbox files, in commit order. */
  outbox(): string[] {
    try {
      return fs.readdirSync(this.outboxDir).filter((n) => n.endsWith('.json')).sort();
    } catch {
      return [];
    }
  }

  private readOutbox(name: string): OutboxFile {
    return JSON.parse(fs.readFileSync(path.join(this.outboxDir, name), 'utf8')) as OutboxFile;
  }

  private state(): State {
    return readJson<State>(this.home.file('state.json'), emptyState);
  }

  /**
   * Finishes what a crashed sender left: the newest commit's state, its events removed. Call with
   * the send lock held, before `commit` or `next`.
   */
  recover(): void {
    this.home.ensure();
    removeLeftovers(this.eventsDir);
    removeLeftovers(this.outboxDir);
    for (const name of fs.readdirSync(this.outboxDir).filter((n) => n.endsWith('.consumed'))) {
      const committed = fs.existsSync(path.join(this.outboxDir, name.replace(/\.consumed$/, '.json')));
      if (committed) removeAll(this.eventsDir, fs.readFileSync(path.join(this.outboxDir, name), 'utf8').split('\n').filter(Boolean));
      removeAll(this.outboxDir, [name]);
    }
    let state = this.state();
    for (const name of this.outbox()) {
      const file = this.readOutbox(name);
      if (file.seq > state.seq) state = { seq: file.seq, carry: file.carry, late: file.late };
    }
    if (state.seq !== this.state().seq) writeDurably(this.home.file('state.json'), JSON.stringify(state));
  }

  /** Credits every recorded event and writes the batches to the outbox; returns how many events it took. */
  commit(): { events: number; late: number; invalid: number } {
    const names = this.pendingEvents();
    if (names.length === 0) return { events: 0, late: 0, invalid: 0 };
    const events: ClientEvent[] = [];
    let invalid = 0;
    for (const name of names) {
      try {
        events.push(JSON.parse(fs.readFileSync(path.join(this.eventsDir, name), 'utf8')) as ClientEvent);
      } catch {
        invalid++; // not ours: a file renamed in is always whole
      }
    }
    const before = this.state();
    const seq = before.seq + 1;
    const state: State = { seq, carry: { ...before.carry }, late: before.late };
    const batches: Batch[] = [];
    let late = 0;
    for (const stream of ['editor', 'desktop'] as const) {
      const credited = credit(before.carry[stream], events.filter((e) => e.kind === stream));
      state.carry[stream] = credited.carry;
      late += credited.late;
      for (let i = 0; i < credited.buckets.length; i += MAX_BATCH) {
        batches.push({ key: randomUUID(), stream, buckets: credited.buckets.slice(i, i + MAX_BATCH) });
      }
    }
    state.late += late;
    writeDurably(path.join(this.outboxDir, consumedName(seq)), names.join('\n'));
    writeDurably(path.join(this.outboxDir, outboxName(seq)), JSON.stringify({ ...state, batches } satisfies OutboxFile));
    removeAll(this.eventsDir, names);
    removeAll(this.outboxDir, [consumedName(seq)]);
    writeDurably(this.home.file('state.json'), JSON.stringify(state));
    if (batches.length === 0) removeAll(this.outboxDir, [outboxName(seq)]);
    return { events: names.length, late, invalid };
  }

  /** The first batch not yet delivered, and the outbox file it is in. */
  next(): { name: string; batch: Batch } | null {
    for (const name of this.outbox()) {
      const [batch] = this.readOutbox(name).batches;
      if (batch) return { name, batch };
      removeAll(this.outboxDir, [name]);
    }
    return null;
  }

  /** Replaces the first batch of an outbox file by `replacement` (none: it was delivered or dropped). */
  replaceFirst(name: string, replacement: Batch[] = []): void {
    const file = this.readOutbox(name);
    file.batches = [...replacement, ...file.batches.slice(1)];
    if (file.batches.length === 0) removeAll(this.outboxDir, [name]);
    else writeDurably(path.join(this.outboxDir, name), JSON.stringify(file));
  }

  /** What is queued: events not committed, batches and buckets not delivered, and the outbox's size on disk. */
  size(): { events: number; batches: number; buckets: number; bytes: number; late: number } {
    let batches = 0;
    let buckets = 0;
    let bytes = 0;
    for (const name of this.outbox()) {
      try {
        const file = this.readOutbox(name);
        batches += file.batches.length;
        buckets += file.batches.reduce((n, b) => n + b.buckets.length, 0);
        bytes += fs.statSync(path.join(this.outboxDir, name)).size;
      } catch {
        // delivered meanwhile
      }
    }
    const events = this.pendingEvents();
    for (const name of events) bytes += fs.statSync(path.join(this.eventsDir, name), { throwIfNoEntry: false })?.size ?? 0;
    return { events: events.length, batches, buckets, bytes, late: this.state().late };
  }
}
