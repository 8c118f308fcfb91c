-- One name per editor, again (lib/editors.ts, as migration 0009): AI agents' own plugins
-- ("claude-code", "codex", "gemini-cli") and more browsers now have a name, and what was stored
-- under another spelling of one is renamed to it, in every table that names editors. Rows that
-- become one key are summed, never dropped, every dimension of a bucket and every sum kept, so
-- every total, the hour cap (user_hours and user_days hold no editor and do not change) and each
-- editor's share of an hour over the cap stay what they were. Running it again changes nothing.
--
-- Names are matched with ASCII letters lowered by translate(), as canonicalEditor() does. The
-- VALUES below are exactly editorAliases() of lib/editors.ts (tests/unit/editors.test.ts checks
-- the latest such list); a spelling added there later needs a migration of its own. Only rows
-- under a spelling that is not its name move: on an install that never stored one, each statement
-- reads the editor column and writes nothing.
CREATE TEMPORARY TABLE "editor_names" ("alias" text PRIMARY KEY, "name" text NOT NULL);
--> statement-breakpoint
-- canonical editor names
INSERT INTO "editor_names" ("alias", "name") VALUES
  ('aider', 'Aider'),
  ('android studio', 'Android Studio'),
  ('android-studio', 'Android Studio'),
  ('androidstudio', 'Android Studio'),
  ('appcode', 'AppCode'),
  ('atom', 'Atom'),
  ('azdata', 'Azure Data Studio'),
  ('azure data studio', 'Azure Data Studio'),
  ('azuredatastudio', 'Azure Data Studio'),
  ('bbedit', 'BBEdit'),
  ('brackets', 'Brackets'),
  ('brave', 'Brave'),
  ('chrome', 'Chrome'),
  ('claude code', 'Claude Code'),
  ('claude-code', 'Claude Code'),
  ('claude_code', 'Claude Code'),
  ('claudecode', 'Claude Code'),
  ('cline', 'Cline'),
  ('clion', 'CLion'),
  ('code', 'VS Code'),
  ('code-insiders', 'VS Code'),
  ('codex', 'Codex'),
  ('codex-cli', 'Codex'),
  ('codium', 'VSCodium'),
  ('cursor', 'Cursor'),
  ('datagrip', 'DataGrip'),
  ('dataspell', 'DataSpell'),
  ('eclipse', 'Eclipse'),
  ('edge', 'Edge'),
  ('emacs', 'Emacs'),
  ('firefox', 'Firefox'),
  ('fleet', 'Fleet'),
  ('gemini cli', 'Gemini CLI'),
  ('gemini-cli', 'Gemini CLI'),
  ('geminicli', 'Gemini CLI'),
  ('goland', 'GoLand'),
  ('gvim', 'Vim'),
  ('helix', 'Helix'),
  ('hx', 'Helix'),
  ('idea', 'IntelliJ IDEA'),
  ('intellij', 'IntelliJ IDEA'),
  ('intellij idea', 'IntelliJ IDEA'),
  ('intellij-idea', 'IntelliJ IDEA'),
  ('intellijidea', 'IntelliJ IDEA'),
  ('intellijideacommunityedition', 'IntelliJ IDEA'),
  ('intellijideaultimateedition', 'IntelliJ IDEA'),
  ('jetbrains', 'JetBrains'),
  ('jupyter', 'Jupyter'),
  ('jupyterlab', 'Jupyter'),
  ('kak', 'Kakoune'),
  ('kakoune', 'Kakoune'),
  ('kate', 'Kate'),
  ('kilo code', 'Kilo Code'),
  ('kilo-code', 'Kilo Code'),
  ('kilocode', 'Kilo Code'),
  ('ktexteditor', 'Kate'),
  ('lapce', 'Lapce'),
  ('macvim', 'Vim'),
  ('micro', 'Micro'),
  ('microsoft edge', 'Edge'),
  ('msedge', 'Edge'),
  ('nano', 'Nano'),
  ('neovim', 'Neovim'),
  ('netbeans', 'NetBeans'),
  ('notepad++', 'Notepad++'),
  ('notepad-plus-plus', 'Notepad++'),
  ('notepadpp', 'Notepad++'),
  ('nova', 'Nova'),
  ('nvim', 'Neovim'),
  ('open-code', 'OpenCode'),
  ('openai-codex', 'Codex'),
  ('opencode', 'OpenCode'),
  ('opera', 'Opera'),
  ('phpstorm', 'PhpStorm'),
  ('positron', 'Positron'),
  ('pycharm', 'PyCharm'),
  ('qwen code', 'Qwen Code'),
  ('qwen-code', 'Qwen Code'),
  ('qwencode', 'Qwen Code'),
  ('rider', 'Rider'),
  ('roo code', 'Roo Code'),
  ('roo-code', 'Roo Code'),
  ('roocode', 'Roo Code'),
  ('rstudio', 'RStudio'),
  ('rubymine', 'RubyMine'),
  ('rustrover', 'RustRover'),
  ('safari', 'Safari'),
  ('subl', 'Sublime Text'),
  ('sublime', 'Sublime Text'),
  ('sublime text', 'Sublime Text'),
  ('sublime-text', 'Sublime Text'),
  ('sublime_text', 'Sublime Text'),
  ('sublimetext', 'Sublime Text'),
  ('terminal', 'Terminal'),
  ('textmate', 'TextMate'),
  ('vim', 'Vim'),
  ('visual studio', 'Visual Studio'),
  ('visual studio code', 'VS Code'),
  ('visual-studio', 'Visual Studio'),
  ('visualstudio', 'Visual Studio'),
  ('visualstudiocode', 'VS Code'),
  ('vs code', 'VS Code'),
  ('vs-code', 'VS Code'),
  ('vs_code', 'VS Code'),
  ('vscode', 'VS Code'),
  ('vscode-insiders', 'VS Code'),
  ('vscodium', 'VSCodium'),
  ('webstorm', 'WebStorm'),
  ('windsurf', 'Windsurf'),
  ('xcode', 'Xcode'),
  ('zed', 'Zed'),
  ('zed-editor', 'Zed'),
  ('zedpreview', 'Zed');
--> statement-breakpoint
-- IDE buckets: moved to the new name with every other dimension, summed with a bucket already
-- there (deleted and written again as one: no ON CONFLICT, since the key with the dimensions may
-- still be built online after the migrations, lib/db/online-steps.ts); their owners' stats
-- version moves (per-user caches of a process still running the old code).
WITH "moved" AS (
  DELETE FROM "ide_activity" a USING "editor_names" n
  WHERE n."alias" = translate(a."editor", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AND a."editor" <> n."name"
  RETURNING a."user_id", a."date", a."hour", a."language", a."project", n."name" AS "editor", a."category", a."machine", a."os", a."ai_agent",
            a."millis", a."lines", a."ai_additions", a."ai_deletions", a."human_additions", a."human_deletions", a."updated_at"
), "met" AS (
  DELETE FROM "ide_activity" a USING (SELECT DISTINCT "user_id", "date", "hour", "language", "project", "editor", "category", "machine", "os", "ai_agent" FROM "moved") m
  WHERE a."user_id" = m."user_id" AND a."date" = m."date" AND a."hour" = m."hour" AND a."language" = m."language" AND a."project" = m."project"
    AND a."editor" = m."editor" AND a."category" = m."category" AND a."machine" = m."machine" AND a."os" = m."os" AND a."ai_agent" = m."ai_agent"
  RETURNING a."user_id", a."date", a."hour", a."language", a."project", a."editor", a."category", a."machine", a."os", a."ai_agent",
            a."millis", a."lines", a."ai_additions", a."ai_deletions", a."human_additions", a."human_deletions", a."updated_at"
), "bumped" AS (
  UPDATE "users" u SET "stats_version" = u."stats_version" + 1 WHERE u."id" IN (SELECT "user_id" FROM "moved")
)
INSERT INTO "ide_activity" ("user_id", "date", "hour", "language", "project", "editor", "category", "machine", "os", "ai_agent",
                            "millis", "lines", "ai_additions", "ai_deletions", "human_additions", "human_deletions", "updated_at")
SELECT "user_id", "date", "hour", "language", "project", "editor", "category", "machine", "os", "ai_agent",
       sum("millis"), sum("lines"), sum("ai_additions"), sum("ai_deletions"), sum("human_additions"), sum("human_deletions"), max("updated_at")
FROM (SELECT * FROM "moved" UNION ALL SELECT * FROM "met") AS r GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
--> statement-breakpoint
-- The per-day editor rollup, the same way.
WITH "moved" AS (
  DELETE FROM "user_day_editors" e USING "editor_names" n
  WHERE n."alias" = translate(e."editor", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AND e."editor" <> n."name"
  RETURNING e."user_id", e."date", n."name" AS "editor", e."millis"
)
INSERT INTO "user_day_editors" ("user_id", "date", "editor", "millis")
SELECT "user_id", "date", "editor", sum("millis") FROM "moved" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
ON CONFLICT ("user_id", "date", "editor") DO UPDATE SET "millis" = "user_day_editors"."millis" + excluded."millis";
--> statement-breakpoint
-- Heartbeats of the last 14 days: a late heartbeat's recomputation subtracts each one's credit
-- under its stored editor, which must be the buckets' name now.
UPDATE "heartbeats" h SET "editor" = n."name" FROM "editor_names" n
WHERE n."alias" = translate(h."editor", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AND h."editor" <> n."name";
--> statement-breakpoint
-- The User-Agents a user's heartbeats came with name the editor each one was read as.
UPDATE "user_agents" g SET "editor" = n."name" FROM "editor_names" n
WHERE n."alias" = translate(g."editor", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AND g."editor" <> n."name";
--> statement-breakpoint
-- What imports credited per day: importing the day again subtracts these credits, so they must
-- name the buckets as stored now; credits that become one bucket are summed. A credit keeps the
-- dimensions after its millis (migration 0017's; none on credits stored before it).
UPDATE "imported_days" d SET "credits" = jsonb_set(d."credits", '{ide}', (
  SELECT coalesce(jsonb_agg(jsonb_build_array(g."date", g."hour", g."language", g."project", g."editor", g."millis") || g."rest" ORDER BY g."first"), '[]'::jsonb)
  FROM (
    SELECT c.e->0 AS "date", c.e->1 AS "hour", c.e->2 AS "language", c.e->3 AS "project",
           to_jsonb(coalesce(n."name", c.e->>4)) AS "editor", jsonb_path_query_array(c.e, '$[6 to last]') AS "rest",
           to_jsonb(sum((c.e->>5)::numeric)) AS "millis", min(c.i) AS "first"
    FROM jsonb_array_elements(d."credits"->'ide') WITH ORDINALITY AS c(e, i)
    LEFT JOIN "editor_names" n ON n."alias" = translate(c.e->>4, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
    GROUP BY 1, 2, 3, 4, 5, 6
  ) g))
WHERE EXISTS (
  SELECT 1 FROM jsonb_array_elements(d."credits"->'ide') AS c(e)
  JOIN "editor_names" n ON n."alias" = translate(c.e->>4, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AND c.e->>4 <> n."name"
);
--> statement-breakpoint
-- Site-wide editor cells are recomputed from the rollups, never renamed in place: their dates are
-- marked, and the start that runs this migration recomputes every marked date before it serves.
INSERT INTO "community_dirty" ("date")
SELECT DISTINCT c."date" FROM "community_day_editors" c JOIN "editor_names" n ON n."alias" = translate(c."editor", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
WHERE c."editor" <> n."name";
--> statement-breakpoint
DROP TABLE "editor_names";
