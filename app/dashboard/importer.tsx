'use client';

import { useState } from 'react';

// The dashboard's import of a WakaTime data dump: the file goes up with the upload's progress,
// then its reading is followed (GET /me/imports/{id}) until it is done. An optional WakaTime API
// key goes with it (X-WakaTime-Api-Key): the server asks WakaTime once which editors the dump's
// heartbeats came from (WakaTime's exports name them only by id); it is not kept, here or there.

interface ImportState {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  bytes: number;
  bytes_read: number;
  heartbeats_read: number;
  heartbeats_skipped: number;
  done: boolean;
  error: string | null;
}

type Phase = { step: 'idle' } | { step: 'uploading'; sent: number; total: number } | { step: 'reading'; state: ImportState } | { step: 'ended'; state: ImportState } | { step: 'refused'; message: string };

const imports = '/main/api/v1/me/imports';

function send(file: File, wakatimeKey: string, onProgress: (sent: number) => void): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', imports);
    xhr.setRequestHeader('content-type', 'application/json');
    if (wakatimeKey) xhr.setRequestHeader('x-wakatime-api-key', wakatimeKey);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status says enough
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('The upload failed: check your connection and try again.'));
    xhr.send(file);
  });
}

const count = (n: number) => n.toLocaleString('en');

export function DumpImporter() {
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const busy = phase.step === 'uploading' || phase.step === 'reading';

  async function follow(id: string) {
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const res = await fetch(`${imports}/${id}`, { cache: 'no-store' });
      if (!res.ok) continue;
      const state = (await res.json()) as ImportState;
      setPhase(state.done ? { step: 'ended', state } : { step: 'reading', state });
      if (state.done) return;
    }
  }

  async function start(form: HTMLFormElement) {
    const file = (form.elements.namedItem('dump') as HTMLInputElement).files?.[0];
    if (!file) return;
    const keyField = form.elements.namedItem('wakatime-key') as HTMLInputElement;
    const wakatimeKey = keyField.value.trim();
    // Not kept in the page once sent.
    keyField.value = '';
    setPhase({ step: 'uploading', sent: 0, total: file.size });
    try {
      const { status, body } = await send(file, wakatimeKey, (sent) => setPhase({ step: 'uploading', sent, total: file.size }));
      if (status !== 202) {
        setPhase({ step: 'refused', message: String(body.detail ?? `The import was refused (${status}).`) });
        return;
      }
      const state = body as unknown as ImportState;
      setPhase({ step: 'reading', state });
      await follow(state.id);
    } catch (err) {
      setPhase({ step: 'refused', message: (err as Error).message });
    }
  }

  return (
    <div className="card">
      <form
        aria-label="Import a WakaTime data dump"
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void start(e.currentTarget);
        }}
      >
        <label htmlFor="dump">WakaTime data dump (.json)</label>
        <input id="dump" name="dump" type="file" accept=".json,application/json" required disabled={busy} />
        <label htmlFor="wakatime-key">WakaTime API key (optional)</label>
        <input
          id="wakatime-key"
          name="wakatime-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="waka_…"
          aria-describedby="wakatime-key-help"
          disabled={busy}
        />
        <button type="submit" disabled={busy}>
          Import
        </button>
      </form>
      <p id="wakatime-key-help" className="muted">
        The WakaTime API key is used once to read which editors your dump&apos;s heartbeats came from; never stored. Without it, those editors show as Unknown.
      </p>
      <div aria-live="polite" data-testid="import-progress">
        {phase.step === 'uploading' && (
          <p>
            <progress max={phase.total} value={phase.sent} aria-label="Upload" /> Uploading: {Math.floor((100 * phase.sent) / Math.max(phase.total, 1))} %
          </p>
        )}
        {phase.step === 'reading' && (
          <p>
            <progress max={phase.state.bytes} value={phase.state.bytes_read} aria-label="Reading" /> Reading: {count(phase.state.heartbeats_read)} heartbeats so far
          </p>
        )}
        {phase.step === 'ended' && phase.state.status === 'done' && (
          <p className="notice">
            Imported: {count(phase.state.heartbeats_read)} heartbeats read
            {phase.state.heartbeats_skipped ? `, ${count(phase.state.heartbeats_skipped)} left out (not valid heartbeats)` : ''}. Your figures include them now.
          </p>
        )}
        {phase.step === 'ended' && phase.state.status === 'failed' && <p className="field-error">The import stopped: {phase.state.error}</p>}
        {phase.step === 'refused' && <p className="field-error">{phase.message}</p>}
      </div>
    </div>
  );
}
