-- One user's rollup rows are scattered over the heap: they arrive date by date, interleaved with
-- every other user's. Their primary keys are ordered by user and date, so with the figure in the
-- key's index as well, a user's year is read from a few adjacent index pages (index-only scans)
-- instead of one heap page per row.
ALTER TABLE "user_days" DROP CONSTRAINT "user_days_user_id_date_pk",
  ADD CONSTRAINT "user_days_user_id_date_pk" PRIMARY KEY ("user_id", "date") INCLUDE ("millis");
--> statement-breakpoint
ALTER TABLE "user_hours" DROP CONSTRAINT "user_hours_user_id_date_hour_pk",
  ADD CONSTRAINT "user_hours_user_id_date_hour_pk" PRIMARY KEY ("user_id", "date", "hour") INCLUDE ("millis");
--> statement-breakpoint
ALTER TABLE "user_day_languages" DROP CONSTRAINT "user_day_languages_user_id_date_language_pk",
  ADD CONSTRAINT "user_day_languages_user_id_date_language_pk" PRIMARY KEY ("user_id", "date", "language") INCLUDE ("millis");
--> statement-breakpoint
ALTER TABLE "user_day_editors" DROP CONSTRAINT "user_day_editors_user_id_date_editor_pk",
  ADD CONSTRAINT "user_day_editors_user_id_date_editor_pk" PRIMARY KEY ("user_id", "date", "editor") INCLUDE ("millis");
