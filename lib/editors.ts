// One name per editor, as WakaTime's dashboard shows it, however a plugin or client spells it:
// `nvim`, `neovim` and `Neovim` are one editor, not three lines of a chart. Both write paths (the
// sync routes' `ide_name`, lib/ingest/fast-path.ts, and the heartbeats' User-Agent,
// lib/wakatime/sending/user-agent.ts) store the name this module gives, and the data migration
// `canonical_editors` renamed what was stored before with the same list (tests/unit/editors.test.ts
// checks that its VALUES are exactly `editorAliases()`). Adding a spelling here therefore needs a
// new data migration for the rows stored under it meanwhile.
//
// Matching ignores ASCII case only (and surrounding whitespace): the SQL of a migration lowers
// with translate() over A-Z, which gives the same answer as this in every database locale.
// A name not listed passes through unchanged, trimmed.

/** Each editor's name as WakaTime shows it, with the other spellings clients send for it. */
const EDITORS: Readonly<Record<string, readonly string[]>> = {
  'VS Code': ['vscode', 'vs-code', 'vs_code', 'code', 'visual studio code', 'visualstudiocode', 'vscode-insiders', 'code-insiders'],
  VSCodium: ['vscodium', 'codium'],
  Cursor: ['cursor'],
  Windsurf: ['windsurf'],
  Zed: ['zed', 'zed-editor', 'zedpreview'],
  Vim: ['vim', 'gvim', 'macvim'],
  Neovim: ['neovim', 'nvim'],
  Emacs: ['emacs'],
  'Sublime Text': ['sublime', 'sublime text', 'sublime-text', 'sublime_text', 'sublimetext', 'subl'],
  Helix: ['helix', 'hx'],
  Kakoune: ['kakoune', 'kak'],
  Micro: ['micro'],
  Nano: ['nano'],
  Atom: ['atom'],
  Xcode: ['xcode'],
  JetBrains: ['jetbrains'],
  'IntelliJ IDEA': ['intellij', 'intellij idea', 'intellijidea', 'idea', 'intellij-idea', 'intellijideacommunityedition', 'intellijideaultimateedition'],
  PyCharm: ['pycharm'],
  WebStorm: ['webstorm'],
  GoLand: ['goland'],
  PhpStorm: ['phpstorm'],
  CLion: ['clion'],
  Rider: ['rider'],
  RubyMine: ['rubymine'],
  DataGrip: ['datagrip'],
  DataSpell: ['dataspell'],
  RustRover: ['rustrover'],
  AppCode: ['appcode'],
  Fleet: ['fleet'],
  'Android Studio': ['android studio', 'androidstudio', 'android-studio'],
  'Visual Studio': ['visualstudio', 'visual studio', 'visual-studio'],
  Eclipse: ['eclipse'],
  NetBeans: ['netbeans'],
  'Notepad++': ['notepad++', 'notepadpp', 'notepad-plus-plus'],
  TextMate: ['textmate'],
  Nova: ['nova'],
  BBEdit: ['bbedit'],
  Kate: ['kate', 'ktexteditor'],
  Brackets: ['brackets'],
  'Azure Data Studio': ['azure data studio', 'azuredatastudio', 'azdata'],
  Jupyter: ['jupyter', 'jupyterlab'],
  RStudio: ['rstudio'],
  Positron: ['positron'],
  Lapce: ['lapce'],
  Terminal: ['terminal'],
};

/** AI agents whose own WakaTime plugin sends their heartbeats (claude-code-wakatime: `claude-code`). */
const AGENTS: Readonly<Record<string, readonly string[]>> = {
  'Claude Code': ['claude-code', 'claude code', 'claudecode', 'claude_code'],
  Codex: ['codex', 'codex-cli', 'openai-codex'],
  'Gemini CLI': ['gemini-cli', 'gemini cli', 'geminicli'],
  OpenCode: ['opencode', 'open-code'],
  Aider: ['aider'],
  Cline: ['cline'],
  'Roo Code': ['roo-code', 'roo code', 'roocode'],
  'Kilo Code': ['kilo-code', 'kilo code', 'kilocode'],
  'Qwen Code': ['qwen-code', 'qwen code', 'qwencode'],
};

/**
 * The words wakatime-cli's AI sync writes before its own in a User-Agent (`Claude/2.1.5 wakatime/…`)
 * for an agent that also has a plugin of its own: one agent, whichever way its time came. Only
 * agents are named so (never stored as an editor: no data migration follows a word added here).
 */
const AGENT_WORDS: Readonly<Record<string, readonly string[]>> = {
  'Claude Code': ['claude'],
  'Gemini CLI': ['gemini'],
  'Qwen Code': ['qwen'],
};

/** Browsers, whose WakaTime extension sends browsing time (`chrome-wakatime`). */
const BROWSERS: Readonly<Record<string, readonly string[]>> = {
  Chrome: ['chrome'],
  Firefox: ['firefox'],
  Safari: ['safari'],
  Edge: ['edge', 'msedge', 'microsoft edge'],
  Brave: ['brave'],
  Opera: ['opera'],
};

const KINDS = new Map<string, 'AI agent' | 'browser'>([...Object.keys(AGENTS).map((n) => [n, 'AI agent'] as const), ...Object.keys(BROWSERS).map((n) => [n, 'browser'] as const)]);

/**
 * An editor's name as a figure shows it: an AI agent's or a browser's plugin says what it is
 * ("Claude Code (AI agent)", "Chrome (browser)"), so that neither reads as a text editor.
 */
export function editorLabel(name: string): string {
  const kind = KINDS.get(name);
  return kind ? `${name} (${kind})` : name;
}

/** Whether `name` (as stored) is an AI agent's own plugin: its time is AI-assisted coding, public only with share_ai. */
export const isAiAgentEditor = (name: string): boolean => KINDS.get(name) === 'AI agent';

/** ASCII letters lowered, nothing else: what `translate(x, 'A..Z', 'a..z')` does in SQL. */
export const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

const byKey = new Map<string, string>();
for (const [name, spellings] of [...Object.entries(EDITORS), ...Object.entries(AGENTS), ...Object.entries(BROWSERS)]) {
  for (const spelling of [name, ...spellings]) {
    const key = asciiLower(spelling);
    const taken = byKey.get(key);
    if (taken !== undefined && taken !== name) throw new Error(`editor spelling ${spelling} names both ${taken} and ${name}`);
    byKey.set(key, name);
  }
}

/** The name an editor is stored and shown under; '' (no editor) stays ''. */
export function canonicalEditor(name: string): string {
  const trimmed = name.trim();
  return byKey.get(asciiLower(trimmed)) ?? trimmed;
}

/** Whether `name` is a spelling of a listed editor (a word of a User-Agent that names one). */
export function isKnownEditor(name: string): boolean {
  return byKey.has(asciiLower(name.trim()));
}

/**
 * Every (spelling with ASCII lowered, name) pair, in order of the spelling: what a data migration
 * matches stored names against (a stored name already equal to its name is left alone).
 */
export function editorAliases(): [alias: string, name: string][] {
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const agentByKey = new Map<string, string>();
for (const [name, spellings] of [...Object.entries(AGENTS), ...Object.entries(AGENT_WORDS)]) {
  for (const spelling of [name, ...spellings]) agentByKey.set(asciiLower(spelling), name);
}

/**
 * Every (spelling with ASCII lowered, agent) pair, in order of the spelling: the agents' own
 * plugins' names and spellings and the words wakatime-cli names them by in a User-Agent. What the
 * SQL form of agentOf (lib/stats/agents.ts) matches against.
 */
export function agentAliases(): [alias: string, name: string][] {
  return [...agentByKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The AI agent whose time a bucket is, the one rule of every figure that names agents: the agent
 * named in its User-Agent (`ai_agent`, as sent: `Claude`), under the name of the agent's own plugin
 * when it has one (Claude Code); else the agent whose own plugin sent it (its editor, Claude Code:
 * claude-code-wakatime sends no agent word); else '' (none). So an agent's plugin and the same
 * agent named by wakatime-cli's AI sync are one agent.
 */
export function agentOf(aiAgent: string, editor: string): string {
  const named = aiAgent.trim();
  if (named) return agentByKey.get(asciiLower(named)) ?? named;
  return agentByKey.get(asciiLower(editor.trim())) ?? '';
}

/** Every editor's name, as stored and shown (GET /editors lists them). */
export const editorNames = (): string[] => [...Object.keys(EDITORS), ...Object.keys(AGENTS), ...Object.keys(BROWSERS)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));

/** A list of editors' figures with each name as editorLabel shows it. */
export const labeledEditors = <T extends { name: string }>(items: readonly T[]): T[] => items.map((e) => ({ ...e, name: editorLabel(e.name) }));
