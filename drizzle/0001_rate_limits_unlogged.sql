-- Rate-limit counters live for one minute: after a crash they may start from zero, so they
-- skip the write-ahead log and a counted request costs no WAL flush.
ALTER TABLE "rate_limits" SET UNLOGGED;
