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
