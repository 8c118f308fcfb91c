-- Codetally: starts the plugin with its defaults (lua/codetally/init.lua tells how to change
-- them), unless vim.g.codetally_disabled is set or setup() was already called.
if vim.g.loaded_codetally or vim.g.codetally_disabled then
  return
end
vim.g.loaded_codetally = true

if vim.fn.has('nvim-0.7') ~= 1 then
  vim.api.nvim_echo({ { 'codetally: needs Neovim 0.7 or later', 'WarningMsg' } }, true, {})
  return
end

local codetally = require('codetally')
if not codetally.configured then
  codetally.setup()
end
