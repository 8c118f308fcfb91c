-- Fill the rollups from activity stored before they existed (later writes keep them current).
INSERT INTO "user_hours" ("user_id", "date", "hour", "millis")
SELECT "user_id", "date", "hour", sum("millis") FROM "ide_activity" GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "user_days" ("user_id", "date", "millis")
SELECT "user_id", "date", sum(least("millis", 3600000)) FROM "user_hours" GROUP BY 1, 2
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "user_day_languages" ("user_id", "date", "language", "millis")
SELECT "user_id", "date", "language", sum("millis") FROM "ide_activity" GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "user_day_editors" ("user_id", "date", "editor", "millis")
SELECT "user_id", "date", "editor", sum("millis") FROM "ide_activity" GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;
