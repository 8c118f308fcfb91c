DROP INDEX "leaderboard_entries_rank_idx";--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD COLUMN "stats_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Entries made before they carried a stats version start over at the next rebuild.
DELETE FROM "leaderboard_snapshots";
--> statement-breakpoint
-- Rebuilds rewrite many entries in place: room on each page lets the new versions stay there (HOT updates).
ALTER TABLE "leaderboard_entries" SET (fillfactor = 50);
