CREATE TABLE "project_badges" (
	"user_id" uuid NOT NULL,
	"project" text NOT NULL,
	CONSTRAINT "project_badges_user_id_project_pk" PRIMARY KEY("user_id","project")
);
--> statement-breakpoint
ALTER TABLE "project_badges" ADD CONSTRAINT "project_badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;