CREATE TABLE "operator_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator" text NOT NULL,
	"action" text NOT NULL,
	"handle" text,
	"reason" text,
	"until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "trust_flags" (
	"user_id" uuid NOT NULL,
	"signal" text NOT NULL,
	"day" date NOT NULL,
	"detail" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_flags_user_id_signal_day_pk" PRIMARY KEY("user_id","signal","day")
);
--> statement-breakpoint
CREATE TABLE "trust_scans" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"stats_version" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hidden_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trust_flags" ADD CONSTRAINT "trust_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_scans" ADD CONSTRAINT "trust_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_audit_handle_idx" ON "operator_audit" USING btree (lower("handle"),"id");--> statement-breakpoint
CREATE INDEX "trust_flags_seen_idx" ON "trust_flags" USING btree ("first_seen_at");--> statement-breakpoint
CREATE INDEX "users_hidden_idx" ON "users" USING btree ("hidden_until") WHERE "users"."hidden_reason" IS NOT NULL;