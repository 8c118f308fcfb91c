-- What the drizzle schema (lib/db/schema.ts) cannot express, kept by hand. A test reads each of
-- these back from the catalog (tests/api/catalog.test.ts).

-- Counters that live for a minute or so skip the write-ahead log: after a crash they start from
-- zero, and counting a request costs no WAL flush.
ALTER TABLE "rate_limits" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "user_rate_limits" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "auth_attempts" SET UNLOGGED;--> statement-breakpoint

-- One user's rollup rows are scattered over the heap: they arrive date by date, interleaved with
-- every other user's. Their primary keys are ordered by user and date, so with the figure in the
-- key's index as well, a user's year is read from a few adjacent index pages (index-only scans)
-- instead of one heap page per row.
ALTER TABLE "user_days" DROP CONSTRAINT "user_days_user_id_date_pk",
  ADD CONSTRAINT "user_days_user_id_date_pk" PRIMARY KEY ("user_id", "date") INCLUDE ("millis");--> statement-breakpoint
ALTER TABLE "user_hours" DROP CONSTRAINT "user_hours_user_id_date_hour_pk",
  ADD CONSTRAINT "user_hours_user_id_date_hour_pk" PRIMARY KEY ("user_id", "date", "hour") INCLUDE ("millis");--> statement-breakpoint
ALTER TABLE "user_day_languages" DROP CONSTRAINT "user_day_languages_user_id_date_language_pk",
  ADD CONSTRAINT "user_day_languages_user_id_date_language_pk" PRIMARY KEY ("user_id", "date", "language") INCLUDE ("millis");--> statement-breakpoint
ALTER TABLE "user_day_editors" DROP CONSTRAINT "user_day_editors_user_id_date_editor_pk",
  ADD CONSTRAINT "user_day_editors_user_id_date_editor_pk" PRIMARY KEY ("user_id", "date", "editor") INCLUDE ("millis");--> statement-breakpoint

-- Leaderboard rebuilds rewrite many entries in place: room on each page lets the new versions stay
-- there (HOT updates), and the rewritten rows are vacuumed sooner than by default.
ALTER TABLE "leaderboard_entries" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "leaderboard_languages" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint

-- The plans the pricing page lists. Prices in cents; history_days NULL means unlimited.
INSERT INTO "plans" ("id", "name", "description", "price_amount", "currency", "interval", "features", "limits", "highlighted", "listed", "position") VALUES
  ('free', 'Free', 'Track every editor and share what you choose.', 0, 'USD', NULL,
   '["Unlimited editors, languages and projects", "One year of history", "Public profile, badges and leaderboard", "Desktop app time"]',
   '{"history_days": 365, "api_tokens": 5, "badges": 3, "team_members": 1}', false, true, 1),
  ('pro', 'Pro', 'Your whole coding history, with no limits on badges.', 900, 'USD', 'month',
   '["Everything in Free", "Unlimited history", "Unlimited badges", "Full data export", "Priority support"]',
   '{"history_days": null, "api_tokens": 50, "badges": null, "team_members": 1}', true, true, 2),
  ('team', 'Team', 'Shared dashboards and a private leaderboard for your team, per member.', 1900, 'USD', 'month',
   '["Everything in Pro", "Team dashboards", "Private team leaderboard", "Central token management", "Per-member billing"]',
   '{"history_days": null, "api_tokens": null, "badges": null, "team_members": null}', false, true, 3),
  ('founder', 'Founder', 'Early supporters; no longer offered.', 0, 'USD', NULL,
   '["Everything in Pro"]',
   '{"history_days": null, "api_tokens": 50, "badges": null, "team_members": 1}', false, false, 99);--> statement-breakpoint

-- The seed of the noise on site-wide cells (lib/stats/community.ts): secret, and never changed.
INSERT INTO "server_secrets" ("name", "value") VALUES ('community_noise', gen_random_uuid()::text || gen_random_uuid()::text);
