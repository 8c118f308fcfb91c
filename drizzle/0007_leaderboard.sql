CREATE TABLE "leaderboard_entries" (
	"range" text NOT NULL,
	"user_id" uuid NOT NULL,
	"total_millis" bigint NOT NULL,
	"languages" jsonb NOT NULL,
	CONSTRAINT "leaderboard_entries_range_user_id_pk" PRIMARY KEY("range","user_id")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_snapshots" (
	"range" text PRIMARY KEY NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD CONSTRAINT "leaderboard_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leaderboard_entries_rank_idx" ON "leaderboard_entries" USING btree ("range","total_millis");