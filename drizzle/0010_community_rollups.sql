CREATE TABLE "community_day_editors" (
	"date" date NOT NULL,
	"editor" text NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL,
	CONSTRAINT "community_day_editors_date_editor_pk" PRIMARY KEY("date","editor")
);
--> statement-breakpoint
CREATE TABLE "community_day_languages" (
	"date" date NOT NULL,
	"language" text NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL,
	CONSTRAINT "community_day_languages_date_language_pk" PRIMARY KEY("date","language")
);
--> statement-breakpoint
CREATE TABLE "community_days" (
	"date" date PRIMARY KEY NOT NULL,
	"millis" double precision NOT NULL,
	"users" integer NOT NULL
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
	CONSTRAINT "community_hours_date_hour_pk" PRIMARY KEY("date","hour")
);
