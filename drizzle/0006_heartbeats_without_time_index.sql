-- The heartbeats kept no index on time alone but for the purge of old rows, which now goes user
-- by user through the primary key (lib/wakatime/heartbeats.ts, purgeOldHeartbeats): the index
-- cost every heartbeat stored about 70 bytes of WAL and its share of the database's time.
DROP INDEX IF EXISTS "heartbeats_at_idx";
