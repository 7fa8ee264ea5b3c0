-- html.lua -- paper/paper.md as one standalone HTML page (paper/paper.html) a reader can open in a
-- browser: Markdown rendered by cmark-gfm (Debian package cmark-gfm, with GitHub's table
-- extension), every figure's SVG put inline where the Markdown names it, a small style sheet.
--   luajit scripts/html.lua [PAPERDIR]      (writes PAPERDIR/paper.html)
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local paper = arg[1] or (root .. "/paper")

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local md = read(paper .. "/paper.md")
if not md then
  io.stderr:write("html: no " .. paper .. "/paper.md (run make paper)\n")
  os.exit(2)
end
local p = io.popen(string.format("cmark-gfm --unsafe -e table -e autolink '%s/paper.md' 2>&1", paper:gsub("'", "'\\''")))
local body = p:read("*a")
local ok = p:close()
if not (ok == true or ok == 0) or body:match("not found") then
  io.stderr:write("html: cmark-gfm failed (sudo apt-get install -y cmark-gfm): " .. body:sub(1, 200) .. "\n")
  os.exit(2)
end

-- <img src="figures/x.svg" alt="..."> -> the SVG itself (its XML prolog and doctype dropped)
local missing = 0
body = body:gsub('<img src="(figures/[^"]+%.svg)" alt="([^"]*)" */?>', function(src, alt)
  local svg = read(paper .. "/" .. src)
  if not svg then
    missing = missing + 1
    return '<p><em>missing figure ' .. src .. '</em></p>'
  end
  svg = svg:gsub("^%s*<%?xml.-%?>%s*", ""):gsub("<!DOCTYPE.->%s*", "")
  return '<figure class="fig" id="fig-' .. alt .. '">' .. svg .. '<figcaption>' .. alt .. '</figcaption></figure>'
end)
if missing > 0 then io.stderr:write(string.format("html: %d figures missing\n", missing)) end

local title = md:match("^#%s+([^\n]+)") or "kapitza"
local page = table.concat({
  "<!DOCTYPE html>",
  '<html lang="en"><head><meta charset="utf-8">',
  "<title>" .. title:gsub("<", "&lt;") .. "</title>",
  "<style>",
  "body{font-family:Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}",
  "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}",
  "th,td{border:1px solid #ccc;padding:0.25em 0.5em;vertical-align:top}",
  "th{background:#f3f3f3}",
  "code{background:#f6f6f6;padding:0 0.2em}",
  "figure.fig{margin:1.5em 0}figure.fig svg{max-width:100%;height:auto}",
  "figcaption{font-size:0.85em;color:#555}",
  "</style></head><body>",
  body,
  "</body></html>",
  "",
}, "\n")
local S = require "kapitza.scenario"
S.write_atomic(paper .. "/paper.html", page)
