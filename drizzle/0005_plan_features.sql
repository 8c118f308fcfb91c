-- The plans as seeded by 0001_storage promised what the service does not do. Every account can
-- export all of its data (the dashboard's export, GET /me/export), so the export belongs to Free,
-- not to Pro alone. No account may hold more than 20 live tokens (lib/accounts/tokens.ts) or 50
-- badges (lib/badges/store.ts), so no plan offers more than that.
--
-- Each row is changed only while it still holds what 0001 seeded: a plan an operator has edited
-- since is left as it is.
UPDATE "plans" SET "features" = '["Unlimited editors, languages and projects", "One year of history", "Public profile, badges and leaderboard", "Desktop app time", "Export of all your data, any time"]'
WHERE "id" = 'free' AND "features" = '["Unlimited editors, languages and projects", "One year of history", "Public profile, badges and leaderboard", "Desktop app time"]'::jsonb;--> statement-breakpoint

UPDATE "plans" SET "description" = 'Your whole coding history, with more tokens and badges.'
WHERE "id" = 'pro' AND "description" = 'Your whole coding history, with no limits on badges.';--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Free", "Unlimited history", "Up to 50 badges", "Up to 20 API tokens", "Priority support"]'
WHERE "id" = 'pro' AND "features" = '["Everything in Free", "Unlimited history", "Unlimited badges", "Full data export", "Priority support"]'::jsonb;--> statement-breakpoint
UPDATE "plans" SET "limits" = '{"history_days": null, "api_tokens": 20, "badges": 50, "team_members": 1}'
WHERE "id" = 'pro' AND "limits" = '{"history_days": null, "api_tokens": 50, "badges": null, "team_members": 1}'::jsonb;--> statement-breakpoint

UPDATE "plans" SET "limits" = '{"history_days": null, "api_tokens": 20, "badges": 50, "team_members": null}'
WHERE "id" = 'team' AND "limits" = '{"history_days": null, "api_tokens": null, "badges": null, "team_members": null}'::jsonb;--> statement-breakpoint

UPDATE "plans" SET "limits" = '{"history_days": null, "api_tokens": 20, "badges": 50, "team_members": 1}'
WHERE "id" = 'founder' AND "limits" = '{"history_days": null, "api_tokens": 50, "badges": null, "team_members": 1}'::jsonb;
