-- Plays the editor scenario of test/editors/support.ts in Neovim, started as
--   nvim --headless -u <the init.lua of docs/editor.md> -S neovim.lua
-- in the workspace, through Neovim's own LSP functions (diagnostics, vim.lsp.buf.code_action, vim.lsp.buf.format),
-- and writes what it saw as JSON to $ES_REPORT. Every wait is for an event, with a deadline.
local env = vim.env
local STAY_MS = tonumber(env.ES_STAY_MS)
local report = { diagnostics = {}, jsonDiagnostics = {}, fixedText = '', formattedText = '' }

local function read(file)
  return table.concat(vim.fn.readfile(file), '\n') .. '\n'
end

local function messages(buf)
  return vim.tbl_map(function(d)
    return d.message
  end, vim.diagnostic.get(buf))
end

local function open(file)
  vim.cmd.edit(file)
  local buf = vim.api.nvim_get_current_buf()
  assert(
    vim.wait(15000, function()
      return #vim.lsp.get_clients({ bufnr = buf, name = 'endpoint-studio' }) > 0
    end, 50),
    'endpoint-studio did not attach to ' .. file
  )
  return buf
end

local function wait_for_diagnostics(buf, file)
  assert(
    vim.wait(15000, function()
      return #vim.diagnostic.get(buf) > 0
    end, 50),
    'no diagnostics for ' .. file
  )
end

local function line_with(buf, text)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if line:find(text, 1, true) then
      return i, line
    end
  end
end

local function play()
  local buf = open(env.ES_BROKEN_YAML)
  wait_for_diagnostics(buf, env.ES_BROKEN_YAML)
  report.diagnostics = messages(buf)
  report.diagnosticsVanished = vim.wait(STAY_MS, function()
    return #vim.diagnostic.get(buf) == 0
  end, 50)

  local row = assert(line_with(buf, 'idelTimeout'), 'no idelTimeout line')
  vim.api.nvim_win_set_cursor(0, { row, 2 })
  vim.lsp.buf.code_action({
    apply = true,
    context = { only = { 'quickfix' } },
    filter = function(action)
      return action.isPreferred == true
    end,
  })
  assert(
    vim.wait(5000, function()
      return line_with(buf, 'idleTimeout') ~= nil
    end, 50),
    'the quick fix changed nothing'
  )
  vim.cmd.write()
  report.fixedText = read(env.ES_BROKEN_YAML)

  local messy = open(env.ES_MESSY_YAML)
  vim.lsp.buf.format({ bufnr = messy, name = 'endpoint-studio', timeout_ms = 5000 })
  vim.cmd.write()
  report.formattedText = read(env.ES_MESSY_YAML)

  local json = open(env.ES_BROKEN_JSON)
  wait_for_diagnostics(json, env.ES_BROKEN_JSON)
  report.jsonDiagnostics = messages(json)

  open(env.ES_BASE_YAML)
  vim.cmd.split()
  local overlay = open(env.ES_OVERLAY_YAML)
  local client = vim.lsp.get_clients({ bufnr = overlay, name = 'endpoint-studio' })[1]
  -- An answer for the overlay shows the server has taken both in; then it must stay up.
  client.request_sync('textDocument/documentSymbol', { textDocument = vim.lsp.util.make_text_document_params(overlay) }, 5000, overlay)
  vim.wait(STAY_MS, function()
    return client.is_stopped()
  end, 50)
end

local ok, err = xpcall(play, debug.traceback)
if not ok then
  report.error = tostring(err)
end
local clients = vim.lsp.get_clients({ name = 'endpoint-studio' })
report.serverStopped = #clients == 0 or clients[1].is_stopped()
local log_path = vim.lsp.get_log_path()
report.log = (vim.fn.filereadable(log_path) == 1 and read(log_path) or '') .. vim.fn.execute('messages')
vim.fn.writefile({ vim.json.encode(report) }, env.ES_REPORT)
vim.cmd('qa!')
