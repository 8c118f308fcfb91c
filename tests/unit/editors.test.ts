import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiLower, canonicalEditor, editorAliases, editorLabel } from '@/lib/editors';
import { parseUserAgent } from '@/lib/wakatime/sending/user-agent';

// One name per editor, however it arrives; and the data migration that renamed what was stored
// before matches exactly the names this module gives.

/** The migration holding the list of names (the latest one, should a later one extend it). */
function migrationValues(): [string, string][] {
  const folder = 'drizzle';
  const file = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.sql') && fs.readFileSync(path.join(folder, f), 'utf8').includes('-- canonical editor names'))
    .sort()
    .at(-1);
  expect(file).toBeDefined();
  const text = fs.readFileSync(path.join(folder, file!), 'utf8');
  const list = text.slice(text.indexOf('-- canonical editor names'));
  const values = list.slice(list.indexOf('VALUES'), list.indexOf(';'));
  return [...values.matchAll(/\('((?:[^']|'')*)', '((?:[^']|'')*)'\)/g)].map((m) => [m[1].replaceAll("''", "'"), m[2].replaceAll("''", "'")]);
}

describe('canonical editor names', () => {
  it.each([
    ['nvim', 'Neovim'],
    ['neovim', 'Neovim'],
    ['NeoVim', 'Neovim'],
    ['vim', 'Vim'],
    ['vscode', 'VS Code'],
    ['VS Code', 'VS Code'],
    ['Code', 'VS Code'],
    ['Visual Studio Code', 'VS Code'],
    ['zed', 'Zed'],
    ['jetbrains', 'JetBrains'],
    ['idea', 'IntelliJ IDEA'],
    ['IntelliJ IDEA', 'IntelliJ IDEA'],
    ['pycharm', 'PyCharm'],
    ['sublime', 'Sublime Text'],
    ['Sublime Text', 'Sublime Text'],
    ['emacs', 'Emacs'],
    ['helix', 'Helix'],
    ['cursor', 'Cursor'],
    ['xcode', 'Xcode'],
    ['  nvim  ', 'Neovim'],
    ['claude-code', 'Claude Code'],
    ['gemini-cli', 'Gemini CLI'],
    ['msedge', 'Edge'],
    ['My Editor', 'My Editor'],
    ['  my editor ', 'my editor'],
    ['', ''],
  ])('%j is %j', (name, expected) => {
    expect(canonicalEditor(name)).toBe(expected);
  });

  it("says what an AI agent's or a browser's plugin is, where a figure names it", () => {
    expect(parseUserAgent('wakatime/v1.115.0 (linux-6.8.0-x86_64) go1.24.4 claude-code-wakatime/1.2.0').editor).toBe('Claude Code');
    expect(editorLabel('Claude Code')).toBe('Claude Code (AI agent)');
    // A bare `Claude/…` or `claude-code/…` User-Agent (no wakatime plugin part) is that agent too.
    expect(editorLabel(parseUserAgent('Claude/2.1.5').editor)).toBe('Claude Code (AI agent)');
    expect(editorLabel(parseUserAgent('claude-code/1.0.3').editor)).toBe('Claude Code (AI agent)');
    expect(editorLabel('Chrome')).toBe('Chrome (browser)');
    expect(editorLabel('Neovim')).toBe('Neovim');
    expect(editorLabel('My Editor')).toBe('My Editor');
  });

  it('gives a name that is its own name, ignores ASCII case and surrounding spaces, and passes any other name through trimmed', () => {
    const known = editorAliases().map(([alias]) => alias);
    const anyCase = (s: string) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
    const name = fc.oneof(fc.constantFrom(...known).chain(anyCase), fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 8 }));
    const space = fc.constantFrom('', ' ', '  ', '\t');
    let listed = 0;
    fc.assert(
      fc.property(space, name, space, (before, n, after) => {
        const canonical = canonicalEditor(n);
        expect(canonicalEditor(canonical)).toBe(canonical);
        expect(canonicalEditor(`${before}${n}${after}`)).toBe(canonical);
        const alias = editorAliases().find(([a]) => a === asciiLower(n.trim()));
        if (alias) listed++;
        expect(canonical).toBe(alias ? alias[1] : n.trim());
      }),
      { numRuns: 2000 },
    );
    // The property was checked on listed names, not only on random text.
    expect(listed).toBeGreaterThan(500);
  });

  it('are exactly the names the data migration renamed stored rows to', () => {
    expect(migrationValues()).toEqual(editorAliases());
  });
});
