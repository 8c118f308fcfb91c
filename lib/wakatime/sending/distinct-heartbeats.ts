import { heartbeatKey, type Heartbeat } from './heartbeat';

/**
 * Heartbeats told apart as heartbeatKey tells them (the same time, type and entity are the same
 * heartbeat), each in the place it first came, holding the last one sent. Found by time first: a
 * number hashes faster than the key's text (hashing keys was a large share of checking a bulk), and
 * two heartbeats seldom share a time. While heartbeats come in order of time (as editors send
 * them), each is new and none is looked up: the times are indexed at the first that is not.
 */
export class DistinctHeartbeats {
  readonly list: Heartbeat[] = [];
  /** Whether each heartbeat came later than all before it (then byTime is still empty). */
  private inOrder = true;
  /** The place of the first heartbeat at each time. */
  private readonly byTime = new Map<number, number>();
  /** The places of heartbeats at a time already taken by another one, by key. */
  private readonly byKey = new Map<string, number>();

  get size(): number {
    return this.list.length;
  }

  add(h: Heartbeat): void {
    if (this.inOrder) {
      const last = this.list.length - 1;
      if (last < 0 || h.at > this.list[last].at) {
        this.list.push(h);
        return;
      }
      this.inOrder = false;
      for (let place = 0; place <= last; place++) this.byTime.set(this.list[place].at, place);
    }
    const first = this.byTime.get(h.at);
    if (first === undefined) {
      this.byTime.set(h.at, this.list.push(h) - 1);
      return;
    }
    const held = this.list[first];
    if (held.type === h.type && held.digest === h.digest) {
      this.list[first] = h;
      return;
    }
    const key = heartbeatKey(h);
    const place = this.byKey.get(key);
    if (place === undefined) this.byKey.set(key, this.list.push(h) - 1);
    else this.list[place] = h;
  }
}
