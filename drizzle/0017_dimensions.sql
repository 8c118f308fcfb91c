-- The dimensions of coding time over all history (category, machine, operating system, AI agent,
-- AI and human line changes), late heartbeats and User-Agents. Every added column has a constant
-- default: PostgreSQL adds it to the catalog only, rewriting no row, so an install of any size
-- takes these statements at once; old buckets read as category 'coding', machine, system and agent
-- unknown. ide_activity's primary key gains the new key columns afterwards, outside this
-- migration's transaction: its index is built CONCURRENTLY and swapped in
-- (lib/db/online-steps.ts), so writes never wait for it.
CREATE TABLE "late_heartbeat_keys" (
	"user_id" uuid NOT NULL,
	"key" bigint NOT NULL,
	CONSTRAINT "late_heartbeat_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "user_agents" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"value" text NOT NULL,
	"editor" text NOT NULL,
	"os" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_agents_user_id_value_pk" PRIMARY KEY("user_id","value")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "share_ai" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "share_machines" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "late_heartbeats_until" bigint;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "category" text DEFAULT 'coding' NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "machine" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "os" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_additions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_deletions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "human_additions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "human_deletions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "heartbeats" ADD COLUMN "machine" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "heartbeats" ADD COLUMN "ai_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "heartbeats" ADD COLUMN "ai_lines" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "heartbeats" ADD COLUMN "human_lines" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "heartbeats" ADD COLUMN "purge_after" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_agents" ADD CONSTRAINT "user_agents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;