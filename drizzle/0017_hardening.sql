CREATE TABLE "auth_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leaderboard_languages" (
	"range" text NOT NULL,
	"user_id" uuid NOT NULL,
	"language" text NOT NULL,
	"millis" double precision NOT NULL,
	CONSTRAINT "leaderboard_languages_range_user_id_language_pk" PRIMARY KEY("range","user_id","language")
);
--> statement-breakpoint
CREATE TABLE "user_rate_limits" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "community_day_editors" ADD COLUMN "released" double precision;--> statement-breakpoint
ALTER TABLE "community_day_editors" ADD COLUMN "release" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "community_day_editors" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_day_editors" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "community_day_languages" ADD COLUMN "released" double precision;--> statement-breakpoint
ALTER TABLE "community_day_languages" ADD COLUMN "release" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "community_day_languages" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_day_languages" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "community_days" ADD COLUMN "released" double precision;--> statement-breakpoint
ALTER TABLE "community_days" ADD COLUMN "release" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "community_days" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_days" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "community_hours" ADD COLUMN "released" double precision;--> statement-breakpoint
ALTER TABLE "community_hours" ADD COLUMN "release" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "community_hours" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_hours" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD COLUMN "listed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leaderboard_languages" ADD CONSTRAINT "leaderboard_languages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_rate_limits" ADD CONSTRAINT "user_rate_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leaderboard_languages_rank_idx" ON "leaderboard_languages" USING btree ("range","language","millis" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE INDEX "leaderboard_entries_rank_idx" ON "leaderboard_entries" USING btree ("range","total_millis" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
-- The session key is no longer kept in the database (lib/auth/secret.ts): a leaked backup must not sign sessions.
DELETE FROM "server_secrets" WHERE "name" = 'auth_secret';--> statement-breakpoint
-- Attempt and per-user write counters live for minutes: like rate_limits, they skip the write-ahead log.
ALTER TABLE "auth_attempts" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "user_rate_limits" SET UNLOGGED;
--> statement-breakpoint
-- The seed of the noise on site-wide cells (lib/stats/community.ts): secret, and never changed.
INSERT INTO "server_secrets" ("name", "value") VALUES ('community_noise', gen_random_uuid()::text || gen_random_uuid()::text) ON CONFLICT ("name") DO NOTHING;--> statement-breakpoint
-- Every cell is released, with its noise, by the next refresh.
INSERT INTO "community_dirty" ("date") SELECT "date" FROM "community_days";
--> statement-breakpoint
-- The next leaderboard rebuild starts over, and so fills leaderboard_languages.
DELETE FROM "leaderboard_snapshots";
--> statement-breakpoint
-- Rebuilds rewrite many of these rows once a day: vacuum them sooner than by default.
ALTER TABLE "leaderboard_languages" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "leaderboard_entries" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
