-- Heartbeat keys are kept for a horizon, then pruned (decision 0026). The keys late heartbeats
-- left before, kept for good until now, are kept the horizon (90 days) from this migration.
ALTER TABLE "late_heartbeat_keys" ADD COLUMN "forget_after" bigint;--> statement-breakpoint
UPDATE "late_heartbeat_keys" SET "forget_after" = (extract(epoch FROM now()) * 1000)::bigint + 7776000000;--> statement-breakpoint
ALTER TABLE "late_heartbeat_keys" ALTER COLUMN "forget_after" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "late_heartbeat_keys_forget_idx" ON "late_heartbeat_keys" USING btree ("forget_after");
