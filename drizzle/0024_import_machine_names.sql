-- The machine names WakaTime lists for the user (GET users/current/machine_names), kept with an import
-- taken with the user's WakaTime key while it is read, as its User-Agents are: a dump's heartbeats
-- name their machine by id only.
ALTER TABLE "imports" ADD COLUMN "machine_names" jsonb;
