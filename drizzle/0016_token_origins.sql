ALTER TABLE "api_tokens" ADD COLUMN "created_via" text;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_agent" text;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_with" text;