CREATE TABLE "read_rate_limits" (
	"token_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_read_rate_limits" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "read_rate_limits" ADD CONSTRAINT "read_rate_limits_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_read_rate_limits" ADD CONSTRAINT "user_read_rate_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The read budgets' counters live for a minute, as the write ones (0001_storage.sql): they skip the
-- write-ahead log, so counting a read costs no WAL flush, and after a crash they start from zero.
ALTER TABLE "read_rate_limits" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "user_read_rate_limits" SET UNLOGGED;
