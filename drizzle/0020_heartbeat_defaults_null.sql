-- Heartbeats keep NULL for what most of them have (no machine, no AI agent, no line changes, not
-- late): a NULL takes no room in the row, where '' and 0 took 18 bytes of every heartbeat stored.
-- Rows stored before keep '' and 0, which read the same. One statement, no rewrite, no scan: the
-- table's lock is held for the catalog change only.
ALTER TABLE "heartbeats"
  ALTER COLUMN "machine" DROP DEFAULT, ALTER COLUMN "machine" DROP NOT NULL,
  ALTER COLUMN "ai_agent" DROP DEFAULT, ALTER COLUMN "ai_agent" DROP NOT NULL,
  ALTER COLUMN "ai_lines" DROP DEFAULT, ALTER COLUMN "ai_lines" DROP NOT NULL,
  ALTER COLUMN "human_lines" DROP DEFAULT, ALTER COLUMN "human_lines" DROP NOT NULL,
  ALTER COLUMN "purge_after" DROP DEFAULT, ALTER COLUMN "purge_after" DROP NOT NULL;
