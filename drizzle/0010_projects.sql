CREATE TABLE "hidden_projects" (
	"user_id" uuid NOT NULL,
	"project" text NOT NULL,
	CONSTRAINT "hidden_projects_user_id_project_pk" PRIMARY KEY("user_id","project")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "project_aliases" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "hidden_projects" ADD CONSTRAINT "hidden_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;