CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_accounts" (
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_accounts_provider_provider_account_id_pk" PRIMARY KEY("provider","provider_account_id")
);
--> statement-breakpoint
CREATE TABLE "auth_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "badges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"range" text NOT NULL,
	"language" text,
	"label" text NOT NULL,
	"color" text NOT NULL,
	"style" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community_day_editors" (
	"date" date NOT NULL,
	"editor" text NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL,
	"released" double precision,
	"release" integer DEFAULT 0 NOT NULL,
	"released_at" timestamp with time zone,
	"pending" boolean DEFAULT false NOT NULL,
	CONSTRAINT "community_day_editors_date_editor_pk" PRIMARY KEY("date","editor")
);
--> statement-breakpoint
CREATE TABLE "community_day_languages" (
	"date" date NOT NULL,
	"language" text NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL,
	"released" double precision,
	"release" integer DEFAULT 0 NOT NULL,
	"released_at" timestamp with time zone,
	"pending" boolean DEFAULT false NOT NULL,
	CONSTRAINT "community_day_languages_date_language_pk" PRIMARY KEY("date","language")
);
--> statement-breakpoint
CREATE TABLE "community_days" (
	"date" date PRIMARY KEY NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL,
	"released" double precision,
	"release" integer DEFAULT 0 NOT NULL,
	"released_at" timestamp with time zone,
	"pending" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community_dirty" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community_hours" (
	"date" date NOT NULL,
	"hour" smallint NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL,
	"released" double precision,
	"release" integer DEFAULT 0 NOT NULL,
	"released_at" timestamp with time zone,
	"pending" boolean DEFAULT false NOT NULL,
	CONSTRAINT "community_hours_date_hour_pk" PRIMARY KEY("date","hour"),
	CONSTRAINT "community_hours_hour_check" CHECK ("community_hours"."hour" BETWEEN 0 AND 23)
);
--> statement-breakpoint
CREATE TABLE "desktop_activity" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"hour" smallint NOT NULL,
	"platform" text NOT NULL,
	"app" text NOT NULL,
	"millis" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "desktop_activity_user_id_date_hour_platform_app_pk" PRIMARY KEY("user_id","date","hour","platform","app"),
	CONSTRAINT "desktop_activity_hour_check" CHECK ("desktop_activity"."hour" BETWEEN 0 AND 23),
	CONSTRAINT "desktop_activity_millis_check" CHECK ("desktop_activity"."millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ide_activity" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"hour" smallint NOT NULL,
	"language" text NOT NULL,
	"project" text DEFAULT '' NOT NULL,
	"editor" text DEFAULT '' NOT NULL,
	"millis" bigint NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ide_activity_user_id_date_hour_language_project_editor_pk" PRIMARY KEY("user_id","date","hour","language","project","editor"),
	CONSTRAINT "ide_activity_hour_check" CHECK ("ide_activity"."hour" BETWEEN 0 AND 23),
	CONSTRAINT "ide_activity_millis_check" CHECK ("ide_activity"."millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_entries" (
	"range" text NOT NULL,
	"user_id" uuid NOT NULL,
	"total_millis" bigint NOT NULL,
	"stats_version" bigint DEFAULT 0 NOT NULL,
	"listed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "leaderboard_entries_range_user_id_pk" PRIMARY KEY("range","user_id")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_languages" (
	"range" text NOT NULL,
	"user_id" uuid NOT NULL,
	"language" text NOT NULL,
	"millis" double precision NOT NULL,
	CONSTRAINT "leaderboard_languages_range_user_id_language_pk" PRIMARY KEY("range","user_id","language")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_snapshots" (
	"range" text PRIMARY KEY NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_logins" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"price_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text,
	"features" jsonb NOT NULL,
	"limits" jsonb NOT NULL,
	"highlighted" boolean DEFAULT false NOT NULL,
	"listed" boolean DEFAULT true NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"token_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_day_editors" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"editor" text NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_day_editors_user_id_date_editor_pk" PRIMARY KEY("user_id","date","editor"),
	CONSTRAINT "user_day_editors_millis_check" CHECK ("user_day_editors"."millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_day_languages" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"language" text NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_day_languages_user_id_date_language_pk" PRIMARY KEY("user_id","date","language"),
	CONSTRAINT "user_day_languages_millis_check" CHECK ("user_day_languages"."millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_days" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_days_user_id_date_pk" PRIMARY KEY("user_id","date"),
	CONSTRAINT "user_days_millis_check" CHECK ("user_days"."millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_hours" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"hour" smallint NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_hours_user_id_date_hour_pk" PRIMARY KEY("user_id","date","hour"),
	CONSTRAINT "user_hours_hour_check" CHECK ("user_hours"."hour" BETWEEN 0 AND 23),
	CONSTRAINT "user_hours_millis_check" CHECK ("user_hours"."millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_rate_limits" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"handle" text NOT NULL,
	"display_name" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"profile_public" boolean DEFAULT false NOT NULL,
	"share_languages" boolean DEFAULT false NOT NULL,
	"share_editors" boolean DEFAULT false NOT NULL,
	"share_apps" boolean DEFAULT false NOT NULL,
	"leaderboard" boolean DEFAULT false NOT NULL,
	"community_stats" boolean DEFAULT true NOT NULL,
	"stats_version" bigint DEFAULT 0 NOT NULL,
	"session_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_accounts" ADD CONSTRAINT "auth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "desktop_activity" ADD CONSTRAINT "desktop_activity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD CONSTRAINT "leaderboard_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_languages" ADD CONSTRAINT "leaderboard_languages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_logins" ADD CONSTRAINT "password_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_limits" ADD CONSTRAINT "rate_limits_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_day_editors" ADD CONSTRAINT "user_day_editors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_day_languages" ADD CONSTRAINT "user_day_languages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_days" ADD CONSTRAINT "user_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_hours" ADD CONSTRAINT "user_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_rate_limits" ADD CONSTRAINT "user_rate_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_idx" ON "api_tokens" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_accounts_user_idx" ON "auth_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "badges_user_idx" ON "badges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "leaderboard_entries_rank_idx" ON "leaderboard_entries" USING btree ("range","total_millis" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "leaderboard_languages_rank_idx" ON "leaderboard_languages" USING btree ("range","language","millis" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_logins_email_lower_idx" ON "password_logins" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "user_day_editors_date_idx" ON "user_day_editors" USING btree ("date");--> statement-breakpoint
CREATE INDEX "user_day_languages_date_idx" ON "user_day_languages" USING btree ("date");--> statement-breakpoint
CREATE INDEX "user_days_date_idx" ON "user_days" USING btree ("date");--> statement-breakpoint
CREATE INDEX "user_hours_over_cap_idx" ON "user_hours" USING btree ("user_id","date") WHERE millis > 3600000;--> statement-breakpoint
CREATE INDEX "user_hours_date_idx" ON "user_hours" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "users_handle_lower_idx" ON "users" USING btree (lower("handle"));