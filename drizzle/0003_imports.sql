CREATE TABLE "imported_days" (
	"user_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"credits" jsonb NOT NULL,
	"heartbeats" integer NOT NULL,
	"continues" boolean NOT NULL,
	CONSTRAINT "imported_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"bytes" bigint NOT NULL,
	"bytes_read" bigint DEFAULT 0 NOT NULL,
	"heartbeats_read" bigint DEFAULT 0 NOT NULL,
	"heartbeats_skipped" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "heartbeats_since" bigint;--> statement-breakpoint
ALTER TABLE "imported_days" ADD CONSTRAINT "imported_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_user_idx" ON "imports" USING btree ("user_id");