DROP INDEX "leaderboard_entries_rank_idx";--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD COLUMN "stats_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Entries made before they carried a stats version start over at the next rebuild.
DELETE FROM "leaderboard_snapshots";
