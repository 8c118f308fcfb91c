// The editor and operating system of a heartbeat, from wakatime-cli's User-Agent:
//   wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0
//   wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1
//   wakatime/v1.90.0 (darwin-23.4.0-arm64) go1.21.5 neovim/0.9.5 vim-wakatime/11.1.1
// The plugin is the last `<name>-wakatime/<version>` (or `<name>/<version>`) word; the editor is
// the word just before it when that names a known editor (vim-wakatime on Neovim sends
// `neovim/...`, vscode-wakatime in Cursor `cursor/...`), else the name before `-wakatime`; either
// way under its canonical name (lib/editors.ts). The OS is the first word inside the parentheses,
// else a `<os>_<arch>` word, as WakaTime's browser extension writes it in `plugin`
// (`Chrome/126.0.0.0 linux_x86_64 chrome-wakatime/4.0.9`).
//
// An AI agent's heartbeats name the agent before wakatime-cli's own word, as wakatime-cli prepends
// it (`Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0`):
// the first word of such a User-Agent, when it comes before `wakatime/`, is the agent.
//
// An agent that sends for itself, with no wakatime plugin or wakatime-cli word at all (a bare
// `Claude/2.1.5` or `claude-code/1.0.3`, from a hook posting heartbeats), is its own editor: the
// agent under the name of its own plugin (Claude Code, an AI agent), as claude-code-wakatime's
// heartbeats are named, never an editor called "claude".
//
// wakatime-cli's AI sync names the model before the agent, as its own word
// (`opus/4-5 claude-code/2.0.14 wakatime/v2.2.0 (darwin-25.0.0-arm64) go1.25.1 vscode/1.105.1
// vscode-wakatime/25.4.0`, or `opus/4-5 claude-code/2.0.14` outside an editor; `gpt/5.1-codex`
// for gpt-5.1-codex): the first word, when another product word follows it before wakatime-cli's
// word (or, without one, when an AI agent's word follows it) and it names no editor, agent or
// browser we know (`Cursor/1.2 Claude/2.1.5 wakatime/…` names the agent Cursor), is the model,
// read back as one name (`opus-4-5`), and the agent is the word after it. A `model/<name>` word
// anywhere names the model too (`model/claude-opus-4-5`). No model: none (decision 0037).

import { agentOf, canonicalEditor, isKnownEditor } from '../../editors';

const osNames: Record<string, string> = {
  linux: 'Linux',
  darwin: 'Mac',
  macos: 'Mac',
  windows: 'Windows',
  win: 'Windows',
  cros: 'ChromeOS',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  netbsd: 'NetBSD',
  android: 'Android',
  ios: 'iOS',
};

export interface Origin {
  editor: string;
  os: string;
  /** The AI agent named before wakatime-cli's word, as written (`Claude`); '' for none. */
  agent: string;
  /** The AI model named in it (`opus-4-5`); absent for none. */
  model?: string;
}

/** The longest model name kept. */
const MAX_MODEL = 64;

/** A model's word read back as one name: `opus/4-5` is `opus-4-5`; '' when it is no plain name. */
function modelName(word: string): string {
  const [product, ...rest] = word.split('/');
  const name = (product.toLowerCase() === 'model' ? rest.join('/') : [product, ...rest].join('-')).trim();
  return name.length > 0 && name.length <= MAX_MODEL && /^[\w.:+-]+$/.test(name) ? name : '';
}

const product = /^[A-Za-z][\w.-]*\/[\w.+-]+$/;

export function parseUserAgent(userAgent: string | null | undefined): Origin {
  const ua = (userAgent ?? '').slice(0, 512);
  const platform = (/\(([A-Za-z]+)[-_ ]?[^)]*\)/.exec(ua)?.[1] ?? /(?:^|\s)([a-z]+)_[a-z0-9_]+(?=\s|$)/.exec(ua)?.[1] ?? '').toLowerCase();
  const os = osNames[platform] ?? (platform ? platform[0].toUpperCase() + platform.slice(1) : '');
  let all = ua.split(/\s+/);
  // The model's word, taken out before the agent and editor are read.
  let model = '';
  const named = all.findIndex((w) => /^model\/./i.test(w) && product.test(w));
  if (named >= 0) {
    model = modelName(all[named]);
    all = all.filter((_, i) => i !== named);
  } else if (all.length > 1 && product.test(all[0]) && product.test(all[1]) && !/^wakatime\//i.test(all[1]) && !isKnownEditor(all[0].split('/')[0])) {
    const cliAt = all.findIndex((w) => /^wakatime\//i.test(w));
    if (cliAt > 1 || (cliAt < 0 && agentOf('', all[1].split('/')[0]) !== '')) {
      model = modelName(all[0]);
      all = all.slice(1);
    }
  }
  const cli = all.findIndex((w) => /^wakatime\//i.test(w));
  const agent = cli > 0 && product.test(all[0]) ? all[0].split('/')[0] : '';
  const words = all.filter((w) => product.test(w));
  const at = words.findLastIndex((w) => /-wakatime\//i.test(w));
  const plugin = at >= 0 ? words[at] : words.filter((w) => !/^(wakatime|go|python)/i.test(w)).at(-1);
  const host = at > 0 ? words[at - 1].split('/')[0] : '';
  const name = isKnownEditor(host) ? host : plugin ? plugin.split('/')[0].replace(/-wakatime$/i, '').toLowerCase() : '';
  // No wakatime word anywhere: an agent's own word (`Claude/…`) names the agent as its editor.
  const bare = cli < 0 && at < 0 && name ? agentOf(name, '') : '';
  return { editor: canonicalEditor(bare || name), os, agent, ...(model ? { model } : {}) };
}
