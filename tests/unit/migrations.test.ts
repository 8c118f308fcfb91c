import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A committed migration is never edited or removed: drizzle applies each migration once and
// records it, so a database that ran the old text would never see the change. A schema change
// is a new migration. (The migrations were squashed into a baseline once, before the first
// release; every file from that baseline on is covered.)

const folder = 'drizzle';
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

function fullHistory(): boolean {
  try {
    return git('rev-parse', '--is-shallow-repository').trim() === 'false';
  } catch {
    return false;
  }
}

const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
const files = fs.readdirSync(folder).filter((f) => f.endsWith('.sql')).sort();

describe('migrations', () => {
  it('are the journal\'s entries, one file each, numbered in order', () => {
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toEqual(files);
    expect(journal.entries.map((e) => e.idx)).toEqual(files.map((_, i) => i));
    expect(files.map((f) => Number(f.slice(0, 4)))).toEqual(files.map((_, i) => i));
  });

  // Needs the repository's history (not a shallow clone, not an unpacked archive).
  it.skipIf(!fullHistory())('are never edited or removed once committed', () => {
    const baseline = git('log', '--diff-filter=A', '--format=%H', '--', `${folder}/0000_baseline.sql`).trim().split('\n').pop();
    if (!baseline) return; // the baseline itself is not committed yet
    const committed = git('log', '--diff-filter=A', '--name-only', '--format=', `${baseline}^..HEAD`, '--', `${folder}/*.sql`)
      .split('\n')
      .filter(Boolean);
    for (const file of new Set(committed)) {
      expect(fs.existsSync(file), `${file} was committed and must stay`).toBe(true);
      const added = git('log', '--diff-filter=A', '--format=%H', '--', file).trim().split('\n')[0];
      expect(fs.readFileSync(file, 'utf8'), `${file} differs from the text it was committed with: add a new migration instead`).toBe(git('show', `${added}:${file}`));
    }
  });
});
