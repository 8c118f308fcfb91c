-- How many times an import's reading began (lib/wakatime/imports.ts): an import a stop interrupted
-- three times is given up instead of read again at every start (a file that brought the server
-- down brought it down again on each restart).
ALTER TABLE "imports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;
