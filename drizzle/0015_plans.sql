-- Every account is on a plan; the free plan is the default, so it must exist before the column does.
INSERT INTO "plans" ("id", "name", "description", "price_amount", "currency", "interval", "features", "limits", "highlighted", "listed", "position")
VALUES ('free', 'Free', 'Track every editor and share what you choose.', 0, 'USD', NULL, '[]', '{}', false, true, 1)
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "plan_id" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
-- Each plan's limits name all five entitlements, each enforced (lib/plans): api_tokens and badges
-- where they are made, history_days where a user's figures are read, team_members and
-- private_leaderboards where teams and private leaderboards are made or joined. NULL: unlimited.
-- A row is set only while it still holds what 0005 (or 0001) left; a plan an operator edited
-- keeps its values and gains only the keys it lacks.
UPDATE "plans" SET "limits" = '{"api_tokens": 5, "badges": 3, "history_days": 365, "team_members": 3, "private_leaderboards": 1}'
WHERE "id" = 'free' AND "limits" = '{"history_days": 365, "api_tokens": 5, "badges": 3, "team_members": 1}'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "limits" = '{"api_tokens": 20, "badges": 50, "history_days": null, "team_members": 10, "private_leaderboards": 5}'
WHERE "id" IN ('pro', 'founder') AND "limits" = '{"history_days": null, "api_tokens": 20, "badges": 50, "team_members": 1}'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "limits" = '{"api_tokens": 20, "badges": 50, "history_days": null, "team_members": null, "private_leaderboards": 20}'
WHERE "id" = 'team' AND "limits" = '{"history_days": null, "api_tokens": 20, "badges": 50, "team_members": null}'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "limits" = '{"api_tokens": 5, "badges": 3, "history_days": 365, "team_members": 3, "private_leaderboards": 1}'::jsonb || "limits"
WHERE NOT ("limits" ?& ARRAY['api_tokens', 'badges', 'history_days', 'team_members', 'private_leaderboards']);--> statement-breakpoint
-- The limits are listed from the limits themselves (lib/plans/features.ts); the stored lines say
-- only what every account has, and nothing the service does not do (no "priority support", no
-- "central token management" or "per-member billing": there are none).
UPDATE "plans" SET "features" = '["Unlimited editors, languages and projects", "Public profile, badges and leaderboard", "Desktop app time", "Export of all your data, any time"]'
WHERE "id" = 'free' AND "features" = '["Unlimited editors, languages and projects", "One year of history", "Public profile, badges and leaderboard", "Desktop app time", "Export of all your data, any time"]'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Free"]'
WHERE "id" = 'pro' AND "features" = '["Everything in Free", "Unlimited history", "Up to 50 badges", "Up to 20 API tokens", "Priority support"]'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Pro"]'
WHERE "id" = 'team' AND "features" = '["Everything in Pro", "Team dashboards", "Private team leaderboard", "Central token management", "Per-member billing"]'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Free"]' WHERE "id" = 'founder' AND "features" = '["Everything in Pro"]'::jsonb;
