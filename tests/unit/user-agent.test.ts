import { describe, expect, it } from 'vitest';
import { parseUserAgent } from '@/lib/wakatime/sending/user-agent';

describe("wakatime-cli's User-Agent", () => {
  it.each([
    ['wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', 'VS Code', 'Linux'],
    ['wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1', 'Vim', 'Linux'],
    ['wakatime/v1.90.0 (darwin-23.4.0-arm64) go1.21.5 neovim/0.9.5 neovim-wakatime/1.0.0', 'Neovim', 'Mac'],
    ['wakatime/v1.90.0 (windows-10.0.22631-amd64) go1.21.5 PyCharm/2024.1 PyCharm-wakatime/15.0.0', 'PyCharm', 'Windows'],
    ['wakatime/v1.90.0 (linux-6.1-x86_64) go1.21.5 emacs-wakatime/1.0.2', 'Emacs', 'Linux'],
    ['wakatime/v1.90.0 (freebsd-14.0-amd64) go1.21.5 helix/24.3 helix-wakatime/0.1.0', 'Helix', 'FreeBSD'],
    // vim-wakatime on Neovim names Neovim before its own plugin; vscode-wakatime in Cursor, Cursor.
    ['wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 neovim/0.9.5 vim-wakatime/11.1.1', 'Neovim', 'Linux'],
    ['wakatime/v1.90.0 (linux-6.8.0-x86_64) go1.22.1 nvim/0.10.0 vim-wakatime/11.1.1', 'Neovim', 'Linux'],
    ['wakatime/v1.98.0 (darwin-23.4.0-arm64) go1.22.1 cursor/0.42.3 vscode-wakatime/24.6.0', 'Cursor', 'Mac'],
    ['wakatime/v1.98.0 (linux-6.5.0) go1.22.1 Code/1.88.1 vscode-wakatime/24.5.0', 'VS Code', 'Linux'],
    ['wakatime/v1.98.0 (linux-6.5.0) go1.22.1 sublime/4169 sublime-wakatime/11.0.0', 'Sublime Text', 'Linux'],
    ['wakatime/v1.98.0 (linux-6.5.0) go1.22.1 zed/0.150.0 zed-wakatime/0.1.0', 'Zed', 'Linux'],
    // An unknown word before the plugin is not taken for the editor.
    ['wakatime/v1.98.0 (linux-6.5.0) go1.22.1 node/20.1.0 acme-wakatime/1.0.0', 'acme', 'Linux'],
    // WakaTime's browser extension (its `plugin`) and vscode.dev's extension.
    ['Chrome/126.0.0.0 linux_x86_64 chrome-wakatime/4.0.9', 'Chrome', 'Linux'],
    ['Firefox/127.0 mac_arm64 firefox-wakatime/4.0.9', 'Firefox', 'Mac'],
    ['Chrome/126.0.0.0 win_x86_64 chrome-wakatime/4.0.9', 'Chrome', 'Windows'],
    ['(Linux) vscode/1.95.0 vscode-wakatime/25.0.0', 'VS Code', 'Linux'],
  ])('%s -> %s on %s', (ua, editor, os) => {
    expect(parseUserAgent(ua)).toEqual({ editor, os, agent: '' });
  });

  it('names the AI agent wakatime-cli puts before its own word', () => {
    expect(parseUserAgent('Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0-x86_64) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0')).toEqual({ editor: 'VS Code', os: 'Linux', agent: 'Claude' });
    expect(parseUserAgent('Cursor/1.2 Claude/2.1.5 wakatime/v2.1.0 (darwin-24.0-arm64) go1.24.4 cursor/1.2.0 vscode-wakatime/25.3.0').agent).toBe('Cursor');
    // Not before wakatime/: no agent.
    expect(parseUserAgent('wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0').agent).toBe('');
  });

  it('names an agent sending for itself, with no wakatime word, as its own plugin does: Claude Code', () => {
    for (const ua of ['Claude/2.1.5', 'claude/2.1.5 (linux-6.8.0-x86_64)', 'claude-code/1.0.3', 'Claude-Code/1.0.3 (darwin-24.0-arm64)']) {
      expect(parseUserAgent(ua).editor).toBe('Claude Code');
      expect(parseUserAgent(ua).agent).toBe('');
    }
    expect(parseUserAgent('claude/2.1.5 (linux-6.8.0-x86_64)').os).toBe('Linux');
    // The same as claude-code-wakatime's heartbeats.
    expect(parseUserAgent('Claude/2.1.5').editor).toBe(parseUserAgent('wakatime/v1.115.0 (linux-6.8.0) go1.24.4 claude-code-wakatime/1.2.0').editor);
    // With wakatime-cli's word, Claude is the agent and the editor is the plugin's, as before.
    expect(parseUserAgent('Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0')).toEqual({ editor: 'VS Code', os: 'Linux', agent: 'Claude' });
    // Another bare word is still its own name.
    expect(parseUserAgent('acme/1.0').editor).toBe('acme');
  });

  it('says nothing it cannot read', () => {
    expect(parseUserAgent(undefined)).toEqual({ editor: '', os: '', agent: '' });
    expect(parseUserAgent('curl/8.5.0')).toEqual({ editor: 'curl', os: '', agent: '' });
  });
});
