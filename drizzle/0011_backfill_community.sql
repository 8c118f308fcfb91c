-- Every date with activity is marked, so the first site-wide read computes the rollups.
INSERT INTO "community_dirty" ("date") SELECT DISTINCT "date" FROM "user_days";
