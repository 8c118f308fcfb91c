import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { listImports } from '@/lib/wakatime/importing/imports';
import { requireUser } from '@/lib/web/account/session';
import { DumpImporter } from '../../importer';
import { ImportProgress } from './progress';
import { RemoteImportForms } from './remote-forms';

// Settings, Import: history brought from WakaTime or a compatible server by key, or a WakaTime data
// dump uploaded; each read in the background, the latest one's progress shown here.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Import · Settings', description: 'Bring your WakaTime, Wakapi or Hackatime history.', robots: { index: false } };

export default async function ImportPage() {
  const user = await requireUser('/dashboard/settings/import');
  const [latest] = await listImports(await getDb(), user.id);
  const busy = latest !== undefined && !latest.done;
  return (
    <>
      <h2 id="import">Bring your history</h2>
      <p>
        Switch without losing anything: bring your history from WakaTime, or from a Wakapi, Hackatime or another Codetally server, with your
        API key there. It is read in the background: leave this page and come back. Importing the same days again counts nothing twice.
      </p>
      {latest && <ImportProgress latest={latest} />}
      <RemoteImportForms busy={busy} />
      <h3 id="import-file">Or upload a WakaTime data dump</h3>
      <p>On wakatime.com, export your heartbeats (Settings, Export) and import the file here.</p>
      <DumpImporter />
    </>
  );
}
