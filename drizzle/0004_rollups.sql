CREATE TABLE "user_day_editors" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"editor" text NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_day_editors_user_id_date_editor_pk" PRIMARY KEY("user_id","date","editor")
);
--> statement-breakpoint
CREATE TABLE "user_day_languages" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"language" text NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_day_languages_user_id_date_language_pk" PRIMARY KEY("user_id","date","language")
);
--> statement-breakpoint
CREATE TABLE "user_days" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_days_user_id_date_pk" PRIMARY KEY("user_id","date")
);
--> statement-breakpoint
CREATE TABLE "user_hours" (
	"user_id" uuid NOT NULL,
	"date" date NOT NULL,
	"hour" smallint NOT NULL,
	"millis" bigint NOT NULL,
	CONSTRAINT "user_hours_user_id_date_hour_pk" PRIMARY KEY("user_id","date","hour")
);
--> statement-breakpoint
ALTER TABLE "user_day_editors" ADD CONSTRAINT "user_day_editors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_day_languages" ADD CONSTRAINT "user_day_languages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_days" ADD CONSTRAINT "user_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_hours" ADD CONSTRAINT "user_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_day_editors_date_idx" ON "user_day_editors" USING btree ("date");--> statement-breakpoint
CREATE INDEX "user_day_languages_date_idx" ON "user_day_languages" USING btree ("date");--> statement-breakpoint
CREATE INDEX "user_days_date_idx" ON "user_days" USING btree ("date");--> statement-breakpoint
CREATE INDEX "user_hours_over_cap_idx" ON "user_hours" USING btree ("user_id","date") WHERE millis > 3600000;