-- Codetally for Neovim (0.7 or later): counts your coding time through the `codetally` command
-- of the reference client (../../README.md), and shows today's total in the status line.
--
-- Set up the command once (`codetally config --api-url <site> --token-stdin`, then paste the
-- key), then put this directory on the runtimepath; plugin/codetally.lua starts it with the
-- defaults below (set `vim.g.codetally_disabled = true` to keep it off). To change an option,
-- call setup yourself:
--
--   vim.opt.runtimepath:append('/path/to/codetally/client/nvim')
--   require('codetally').setup({
--     cmd = { '/path/to/codetally/node_modules/.bin/codetally' }, -- or vim.g.codetally_cmd; default { 'codetally' }
--     heartbeat_interval = 120, -- seconds between two events for typing in the same file
--     today_interval = 300,     -- seconds between two refreshes of today's total
--   })
--
-- Today's total in the status line ('' until the first answer):
--
--   set statusline+=%{v:lua.require'codetally'.status()}
--   vim.o.statusline = vim.o.statusline .. " %{v:lua.require'codetally'.status()}"
--
-- :CodetallyToday refreshes it and echoes it.
--
-- What it sends: an event when you enter a file buffer or change it (for the same file at most
-- once every `heartbeat_interval` seconds; another file at once), and whenever you write it.
-- Each is a `codetally heartbeat` process started in the background and never waited for (it goes
-- on if you quit); the first failure of a session is shown as a warning, later ones are not.
-- When you quit after sending events, `codetally flush --background` sends them at once, outliving
-- the editor (a heartbeat still running is given up to `quit_wait_ms` to queue its event first).

local M = {}

M.version = '0.1.0'

local defaults = {
  cmd = { 'codetally' },
  heartbeat_interval = 120,
  today_interval = 300,
  -- Seconds after a write before today's total is asked again.
  today_after_write = 5,
  -- On quit, how long a heartbeat still running may take to queue its event before the flush starts.
  quit_wait_ms = 500,
}

-- Neovim's filetypes, named as the service names languages. Others are left to the command,
-- which names them after the file's extension.
local languages = {
  typescript = 'TypeScript', typescriptreact = 'TypeScript', javascript = 'JavaScript', javascriptreact = 'JavaScript',
  lua = 'Lua', python = 'Python', go = 'Go', rust = 'Rust', c = 'C', cpp = 'C++', cs = 'C#', java = 'Java',
  kotlin = 'Kotlin', ruby = 'Ruby', php = 'PHP', swift = 'Swift', markdown = 'Markdown', json = 'JSON', jsonc = 'JSON',
  json5 = 'JSON', yaml = 'YAML', toml = 'TOML', sh = 'Bash', bash = 'Bash', zsh = 'Zsh', sql = 'SQL', html = 'HTML',
  css = 'CSS', scss = 'SCSS', vue = 'Vue', svelte = 'Svelte', elixir = 'Elixir', erlang = 'Erlang', haskell = 'Haskell',
  ocaml = 'OCaml', scala = 'Scala', clojure = 'Clojure', dart = 'Dart', zig = 'Zig', nim = 'Nim', r = 'R',
  julia = 'Julia', vim = 'Vim script', make = 'Makefile', dockerfile = 'Dockerfile', tex = 'TeX', xml = 'XML',
}

local plugin = 'neovim-codetally/' .. M.version

local options = vim.deepcopy(defaults)
local group = nil
local timer = nil
local write_timer = nil
local jobs = {} -- running job id -> true
local running = 0
local warned = false
local sent = false -- a heartbeat was started since the last flush on quit
local last = { entity = nil, at = nil } -- the last event sent for typing or entering a buffer
local today_text = ''
local today_job = nil
local echo_today = false
local roots = {} -- directory -> project name

local function warn_once(message)
  if warned then
    return
  end
  warned = true
  -- One line, shorter than the screen, so that it never asks for Enter while you type.
  message = ('codetally: %s (shown once per session)'):format(message):gsub('[\r\n]+', ' ')
  local width = math.max(20, vim.o.columns - 1)
  if #message > width then
    message = message:sub(1, width - 3) .. '...'
  end
  vim.schedule(function()
    vim.notify(message, vim.log.levels.WARN)
  end)
end

local function first_line(lines)
  for _, line in ipairs(lines or {}) do
    line = vim.trim(line)
    if line ~= '' then
      return line
    end
  end
  return ''
end

-- Starts `cmd ...args` in the background; on_done(code, stdout lines, stderr lines) runs when it
-- exits. Returns the job id, or nil and why it could not start (warned once).
local function run(args, on_done)
  local argv = vim.list_extend(vim.deepcopy(options.cmd), args)
  local stdout, stderr = {}, {}
  local ok, id = pcall(vim.fn.jobstart, argv, {
    -- A heartbeat goes on when the editor quits at once after a write.
    detach = true,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      stdout = data
    end,
    on_stderr = function(_, data)
      stderr = data
    end,
    on_exit = function(job, code)
      if jobs[job] then
        jobs[job] = nil
        running = running - 1
      end
      on_done(code, stdout, stderr)
    end,
  })
  if not ok or type(id) ~= 'number' or id <= 0 then
    local reason = not ok and (tostring(id):gsub('^.-E%d+: ', '')) or ('cannot run ' .. tostring(argv[1]))
    warn_once(reason)
    return nil, reason
  end
  jobs[id] = true
  running = running + 1
  return id
end

local function now_seconds()
  local seconds, micros = vim.loop.gettimeofday()
  return seconds + micros / 1e6
end

-- The project: the name of the git root above the file, else the working directory's name.
local function project_of(file)
  local dir = vim.fn.fnamemodify(file, ':h')
  local name = roots[dir]
  if name == nil then
    local git = vim.fn.finddir('.git', vim.fn.fnameescape(dir) .. ';')
    if git == '' then
      git = vim.fn.findfile('.git', vim.fn.fnameescape(dir) .. ';') -- worktrees and submodules
    end
    if git ~= '' then
      local dotgit = vim.fn.fnamemodify(git, ':p'):gsub('/$', '')
      name = vim.fn.fnamemodify(dotgit, ':h:t')
    else
      name = false -- decided by the working directory, which may change
    end
    roots[dir] = name
  end
  return name or vim.fn.fnamemodify(vim.fn.getcwd(), ':t')
end

-- The file of a buffer that counts: a named, ordinary buffer that is not a URL (fugitive://, ...).
local function file_of(buf)
  if vim.bo[buf].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(buf)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  return vim.fn.fnamemodify(name, ':p')
end

local function heartbeat(buf, is_write)
  local time = now_seconds() -- when it happened, not when the command gets to it
  local entity = file_of(buf)
  if not entity then
    return
  end
  local clock = vim.loop.hrtime() / 1e9
  if not is_write and last.entity == entity and clock - last.at < options.heartbeat_interval then
    return
  end
  last.entity, last.at = entity, clock
  -- --name=value, so that a value starting with a dash (a folder named -x) is not taken for an option.
  local args = {
    'heartbeat', '--entity=' .. entity, '--project=' .. project_of(entity), '--editor=neovim',
    '--plugin=' .. plugin, ('--time=%.3f'):format(time),
  }
  local language = languages[vim.bo[buf].filetype]
  if language then
    table.insert(args, '--language=' .. language)
  end
  if is_write then
    table.insert(args, '--write')
  end
  sent = true
  run(args, function(code, _, stderr)
    if code ~= 0 then
      local why = first_line(stderr)
      warn_once(('heartbeat failed (exit %d)%s'):format(code, why ~= '' and (': ' .. why) or ''))
    end
  end)
end

local function show_today(text, failed)
  if failed then
    vim.api.nvim_echo({ { 'codetally today: ' .. text, 'WarningMsg' } }, true, {})
  else
    vim.api.nvim_echo({ { 'Codetally today: ' .. (text ~= '' and text or 'nothing yet') } }, true, {})
  end
end

--- Asks `codetally today` again, in the background (once at a time); with echo, echoes the answer.
function M.refresh(echo)
  echo_today = echo_today or echo or false
  if today_job then
    return
  end
  local started, reason = run({ 'today' }, function(code, stdout, stderr)
    today_job = nil
    local echo_now = echo_today
    echo_today = false
    if code == 0 then
      today_text = first_line(stdout)
      vim.cmd('redrawstatus!')
      if echo_now then
        show_today(today_text, false)
      end
    else
      local why = first_line(stderr)
      if echo_now then
        show_today(why ~= '' and why or ('exit ' .. code), true)
      else
        warn_once(('today failed (exit %d)%s'):format(code, why ~= '' and (': ' .. why) or ''))
      end
    end
  end)
  today_job = started
  if not started and echo_today then
    echo_today = false
    show_today(reason, true)
  end
end

--- Today's total as last known ("1 hr 5 mins"), '' before the first answer: for the status line.
function M.status()
  return today_text
end

--- How many codetally processes this editor started are still running.
function M.pending()
  return running
end

-- Quitting sends what this session queued now rather than with the next session's events.
local function flush_on_quit()
  if not sent then
    return
  end
  sent = false
  local running_jobs = vim.tbl_keys(jobs)
  if #running_jobs > 0 then
    vim.fn.jobwait(running_jobs, options.quit_wait_ms)
  end
  pcall(vim.fn.jobstart, vim.list_extend(vim.deepcopy(options.cmd), { 'flush', '--background' }), { detach = true })
end

local function stop_timer(t)
  if t then
    t:stop()
    if not t:is_closing() then
      t:close()
    end
  end
end

function M.setup(opts)
  opts = opts or {}
  options = vim.tbl_extend('force', vim.deepcopy(defaults), { cmd = vim.g.codetally_cmd }, opts)
  if type(options.cmd) == 'string' then
    options.cmd = { options.cmd }
  end
  vim.validate({
    cmd = { options.cmd, 'table' },
    heartbeat_interval = { options.heartbeat_interval, 'number' },
    today_interval = { options.today_interval, 'number' },
    today_after_write = { options.today_after_write, 'number' },
    quit_wait_ms = { options.quit_wait_ms, 'number' },
  })
  M.configured = true

  group = vim.api.nvim_create_augroup('codetally', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'TextChanged', 'TextChangedI' }, {
    group = group,
    callback = function(ev)
      heartbeat(ev.buf, false)
    end,
  })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    callback = function(ev)
      heartbeat(ev.buf, true)
      -- Today's total a few seconds later (one timer for a run of writes).
      stop_timer(write_timer)
      write_timer = vim.loop.new_timer()
      write_timer:start(options.today_after_write * 1000, 0, vim.schedule_wrap(function()
        stop_timer(write_timer)
        write_timer = nil
        M.refresh()
      end))
    end,
  })
  vim.api.nvim_create_autocmd('VimLeavePre', { group = group, callback = flush_on_quit })
  vim.api.nvim_create_user_command('CodetallyToday', function()
    M.refresh(true)
  end, { desc = "Refresh and show today's coding time" })

  stop_timer(timer)
  timer = vim.loop.new_timer()
  local every = math.max(1, options.today_interval) * 1000
  timer:start(every, every, vim.schedule_wrap(function()
    M.refresh()
  end))
  M.refresh()
end

return M
