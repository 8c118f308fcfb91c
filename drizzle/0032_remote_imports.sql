ALTER TABLE "imports" ADD COLUMN "source" text DEFAULT 'file' NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "days_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "days_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "remote_seen_at" timestamp with time zone;