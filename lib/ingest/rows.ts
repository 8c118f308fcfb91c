// A bucket as it is stored: the rows the write statement adds to what is stored
// (lib/ingest/store.ts), made by validation (lib/ingest/buckets.ts, fast-path.ts) and by heartbeat
// credits (lib/wakatime/credits.ts).

export interface IdeRow {
  date: string;
  hour: number;
  language: string;
  project: string;
  editor: string;
  millis: number;
  lines: number;
}

export interface DesktopRow {
  date: string;
  hour: number;
  platform: string;
  app: string;
  millis: number;
}
