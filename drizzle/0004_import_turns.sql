-- Heartbeats keep no foreign key to users (docs/decisions/0011): the one statement that stores them
-- checks the user's row first, and deleteAccount deletes them. One unfinished import per user.
ALTER TABLE "heartbeats" DROP CONSTRAINT "heartbeats_user_id_users_id_fk";
--> statement-breakpoint
CREATE UNIQUE INDEX "imports_one_unfinished_idx" ON "imports" USING btree ("user_id") WHERE "imports"."status" IN ('receiving', 'queued', 'running');