CREATE TABLE "heartbeats" (
	"user_id" uuid NOT NULL,
	"at" bigint NOT NULL,
	"type" text NOT NULL,
	"entity_digest" bigint NOT NULL,
	"category" text NOT NULL,
	"language" text NOT NULL,
	"project" text NOT NULL,
	"editor" text NOT NULL,
	"os" text NOT NULL,
	"app" text NOT NULL,
	"credited_until" bigint NOT NULL,
	"zone" text NOT NULL,
	CONSTRAINT "heartbeats_user_id_at_type_entity_digest_pk" PRIMARY KEY("user_id","at","type","entity_digest")
);
--> statement-breakpoint
ALTER TABLE "heartbeats" ADD CONSTRAINT "heartbeats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heartbeats_at_idx" ON "heartbeats" USING btree ("at");--> statement-breakpoint
-- The key of the entity digests (lib/wakatime/heartbeats.ts): secret, and never changed, so a
-- heartbeat sent again is known as the same one.
INSERT INTO "server_secrets" ("name", "value") VALUES ('entity_digest', gen_random_uuid()::text || gen_random_uuid()::text) ON CONFLICT ("name") DO NOTHING;
