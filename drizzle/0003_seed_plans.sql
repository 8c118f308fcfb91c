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
   '{"history_days": null, "api_tokens": 50, "badges": null, "team_members": 1}', false, false, 99)
ON CONFLICT ("id") DO NOTHING;
