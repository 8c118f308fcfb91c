CREATE TABLE "mail_reports" (
	"user_id" uuid NOT NULL,
	"week_start" date NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"retry_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_reports_user_id_week_start_pk" PRIMARY KEY("user_id","week_start"),
	CONSTRAINT "mail_reports_status_check" CHECK ("mail_reports"."status" IN ('sending', 'sent', 'empty', 'failed', 'unknown'))
);
--> statement-breakpoint
CREATE TABLE "mail_tokens" (
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_tokens_user_id_purpose_pk" PRIMARY KEY("user_id","purpose"),
	CONSTRAINT "mail_tokens_purpose_check" CHECK ("mail_tokens"."purpose" IN ('reset', 'confirm'))
);
--> statement-breakpoint
ALTER TABLE "password_logins" ADD COLUMN "awaiting_confirmation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_report" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_reports" ADD CONSTRAINT "mail_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_tokens" ADD CONSTRAINT "mail_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_tokens_hash_idx" ON "mail_tokens" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "users_weekly_report_idx" ON "users" USING btree ("id") WHERE "users"."weekly_report";