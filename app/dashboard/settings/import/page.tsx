import type { Metadata } from 'next';
import { requireUser } from '@/lib/web/account/session';
import { DumpImporter } from '../../importer';

// Settings, Import: a WakaTime data dump, read in the background.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Import · Settings', description: 'Bring your WakaTime history.', robots: { index: false } };

export default async function ImportPage() {
  await requireUser('/dashboard/settings/import');
  return (
    <>
      <h2 id="import">Bring your WakaTime history</h2>
      <p>
        On wakatime.com, export your heartbeats (Settings, Export) and import the file here. It is read in the background: leave this page
        and come back. Importing it again, or a later export, counts nothing twice.
      </p>
      <DumpImporter />
    </>
  );
}
