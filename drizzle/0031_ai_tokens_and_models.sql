CREATE TABLE "user_ai_sessions" (
	"user_id" uuid NOT NULL,
	"session" bigint NOT NULL,
	CONSTRAINT "user_ai_sessions_user_id_session_pk" PRIMARY KEY("user_id","session")
);
--> statement-breakpoint
CREATE TABLE "user_day_ai_models" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"model" text NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "user_day_ai_models_user_id_date_model_pk" PRIMARY KEY("user_id","date","model")
);
--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_sessions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_output_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_prompt_events" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ide_activity" ADD COLUMN "ai_prompt_length_sum" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_ai_sessions" ADD CONSTRAINT "user_ai_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_day_ai_models" ADD CONSTRAINT "user_day_ai_models_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;