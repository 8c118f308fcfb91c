CREATE TABLE "project_merges" (
	"user_id" uuid NOT NULL,
	"project" text NOT NULL,
	"into" text NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"moved" jsonb NOT NULL,
	CONSTRAINT "project_merges_user_id_project_pk" PRIMARY KEY("user_id","project")
);
--> statement-breakpoint
ALTER TABLE "project_merges" ADD CONSTRAINT "project_merges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;