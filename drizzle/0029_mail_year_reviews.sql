CREATE TABLE "mail_year_reviews" (
	"user_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"retry_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_year_reviews_user_id_year_pk" PRIMARY KEY("user_id","year"),
	CONSTRAINT "mail_year_reviews_status_check" CHECK ("mail_year_reviews"."status" IN ('sending', 'sent', 'empty', 'failed', 'unknown'))
);
--> statement-breakpoint
ALTER TABLE "mail_year_reviews" ADD CONSTRAINT "mail_year_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;