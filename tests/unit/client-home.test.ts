import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Home } from '../../client/src/home';
import { Codetally } from '../../client/src/index';
import { clientHome } from '../helpers/client';

// The reference client's settings (client/src/home.ts): where the token comes from, and who may
// read it. The CLI's side of the same rules runs in tests/e2e/client.test.ts.
const homes: string[] = [];
afterAll(() => homes.forEach((h) => fs.rmSync(h, { recursive: true, force: true })));
const saved = process.env.CODETALLY_TOKEN;
afterEach(() => {
  if (saved === undefined) delete process.env.CODETALLY_TOKEN;
  else process.env.CODETALLY_TOKEN = saved;
});

function dir(): string {
  const h = clientHome();
  homes.push(h);
  return h;
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('the token', () => {
  it('comes from config.json, else from CODETALLY_TOKEN; config.json keeps none when none is given', () => {
    const h = dir();
    const client = new Codetally({ home: h });
    delete process.env.CODETALLY_TOKEN;
    client.configure({ api_url: 'https://codetally.example/main/api/v1/' });
    expect(JSON.parse(fs.readFileSync(path.join(h, 'config.json'), 'utf8'))).toEqual({ api_url: 'https://codetally.example' });
    expect(client.home.config()).toBeNull();
    process.env.CODETALLY_TOKEN = ' ct_from_env\n';
    expect(client.home.config()).toEqual({ api_url: 'https://codetally.example', token: 'ct_from_env' });
    client.configure({ api_url: 'https://codetally.example', token: ' ct_in_file ' });
    expect(client.home.config()).toEqual({ api_url: 'https://codetally.example', token: 'ct_in_file' });
  });
});

describe('the home folder and config.json', () => {
  it('are tightened to 0700 and 0600 when the settings are written, whatever they were', () => {
    const h = dir();
    fs.chmodSync(h, 0o755);
    fs.writeFileSync(path.join(h, 'config.json'), '{}', { mode: 0o644 });
    new Codetally({ home: h }).configure({ api_url: 'https://codetally.example', token: 'ct_x' });
    expect([mode(h), mode(path.join(h, 'config.json'))]).toEqual([0o700, 0o600]);
  });

  it('are tightened by secure(), which only takes permissions away and leaves what does not exist alone', () => {
    const h = dir();
    const home = new Home(path.join(h, 'not-yet'));
    home.secure();
    expect(fs.existsSync(home.dir)).toBe(false);

    fs.mkdirSync(home.dir, { mode: 0o777 });
    fs.chmodSync(home.dir, 0o777);
    home.secure();
    expect(mode(home.dir)).toBe(0o700);
    fs.writeFileSync(home.file('config.json'), '{}');
    fs.chmodSync(home.file('config.json'), 0o664);
    fs.chmodSync(home.dir, 0o500);
    home.secure();
    expect([mode(home.dir), mode(home.file('config.json'))]).toEqual([0o500, 0o600]);
  });
});
