CREATE TABLE "relay_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "relay_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"relay_id" uuid NOT NULL,
	"heartbeat" jsonb NOT NULL,
	"user_agent" text,
	"machine" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "relay_queue_attempts_check" CHECK ("relay_queue"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "relays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"api_url" text NOT NULL,
	"key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"failures_today" integer DEFAULT 0 NOT NULL,
	"failures_day" text,
	"failures_in_row" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"paused_reason" text
);
--> statement-breakpoint
ALTER TABLE "relay_queue" ADD CONSTRAINT "relay_queue_relay_id_relays_id_fk" FOREIGN KEY ("relay_id") REFERENCES "public"."relays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relays" ADD CONSTRAINT "relays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "relay_queue_relay_idx" ON "relay_queue" USING btree ("relay_id","id");--> statement-breakpoint
CREATE INDEX "relay_queue_queued_idx" ON "relay_queue" USING btree ("queued_at");--> statement-breakpoint
CREATE INDEX "relays_user_idx" ON "relays" USING btree ("user_id");