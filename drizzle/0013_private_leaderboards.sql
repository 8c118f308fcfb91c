CREATE TABLE "private_leaderboard_members" (
	"board_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "private_leaderboard_members_board_id_user_id_pk" PRIMARY KEY("board_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "private_leaderboards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"invite_code" text NOT NULL,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "private_leaderboard_members" ADD CONSTRAINT "private_leaderboard_members_board_id_private_leaderboards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."private_leaderboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_leaderboard_members" ADD CONSTRAINT "private_leaderboard_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_leaderboards" ADD CONSTRAINT "private_leaderboards_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "private_leaderboard_members_user_idx" ON "private_leaderboard_members" USING btree ("user_id","board_id");--> statement-breakpoint
CREATE UNIQUE INDEX "private_leaderboards_invite_code_idx" ON "private_leaderboards" USING btree ("invite_code");--> statement-breakpoint
CREATE INDEX "private_leaderboards_owner_idx" ON "private_leaderboards" USING btree ("owner_id");