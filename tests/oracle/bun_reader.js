// The pinned Claude Code's SKILL.md frontmatter steps, ported line for line from the runtime
// binary's embedded JavaScript (2.1.332: qd, DDr, _u, Qs, bgn, Qf, Mx; see
// docs/runtime-conformance.md, "The Bun oracle"), run by Bun itself so Bun.YAML.parse is the
// runtime's own YAML parser.
//
// Input: one JSON string a line on stdin (a SKILL.md text). Output: one JSON object a line,
//   {"how": "none" | "direct" | "retry" | "failed", "entries": [...], "hooks": bool,
//    "removed": [...]}
// "none": no frontmatter; "failed": both parses threw (the frontmatter is {}); "hooks": the
// frontmatter has a key the runtime reads as hooks (its allowed-tools may then be dropped);
// "removed": what its disallowed-tools removes (EHe).
"use strict";

const K0 = /^---\s*\n([\s\S]*?)---\s*\n?/;
const Su = /[{}[\]*&#!|>%@`]|: /;

function lQ(e) { return Bun.YAML.parse(e); }
function eC(e) { return e.charCodeAt(0) === 65279 ? e.slice(1) : e; }

// The runtime's re-quote of simple `key: value` lines (its _u).
function _u(e) {
  let n = e.split("\n"), o = [];
  for (let g of n) {
    let h = g.match(/^([a-zA-Z_-]+):\s+(\S.*)$/);
    if (h) {
      let [, y, k] = h;
      if (!y || !k) { o.push(g); continue; }
      if (k.startsWith('"') && k.endsWith('"') || k.startsWith("'") && k.endsWith("'")) { o.push(g); continue; }
      if (k.startsWith("[") && k.endsWith("]")) try { if (Array.isArray(lQ(k))) { o.push(g); continue; } } catch {}
      if (Su.test(k)) {
        let C = k.replaceAll("\\", "\\\\").replaceAll('"', "\\\"");
        o.push(`${y}: "${C}"`);
        continue;
      }
    }
    o.push(g);
  }
  return o.join("\n");
}

// The parse, then the retry (its DDr), saying which one gave the value.
function DDr(e) {
  try { return { ok: true, how: "direct", value: lQ(e) }; } catch {
    try {
      let n = _u(e).replace(/^\t+/gm, (o) => "  ".repeat(o.length));
      return { ok: true, how: "retry", value: lQ(n) };
    } catch (n) { return { ok: false, how: "failed" }; }
  }
}

function Qs(e) { if (e && typeof e === "object" && !Array.isArray(e)) return e; return {}; }

// The runtime's split (its Qf): a parentheses flag, not a depth; only ' ' and ',' cut.
function Qf(e) {
  if (e.length === 0) return [];
  let t = [];
  for (let n of e) {
    if (!n) continue;
    let r = "", o = false;
    for (let s of n) switch (s) {
      case "(": o = true, r += s; break;
      case ")": o = false, r += s; break;
      case ",": if (o) r += s; else { if (r.trim()) t.push(r.trim()); r = ""; } break;
      case " ": if (o) r += s; else if (r.trim()) t.push(r.trim()), r = ""; break;
      default: if (r || s.trim()) r += s;
    }
    if (r.trim()) t.push(r.trim());
  }
  return t;
}

function bgn(e) {
  if (e === void 0 || e === null) return null;
  if (!e) return [];
  let n = [];
  if (typeof e === "string") n = [e];
  else if (Array.isArray(e)) n = e.filter((g) => typeof g === "string");
  if (n.length === 0) return [];
  let o = Qf(n);
  if (o.includes("*")) return ["*"];
  return o;
}

function Mx(e) { let n = bgn(e); if (n === null) return []; return n; }

// The tools a skill's frontmatter removes while it runs (its EHe).
function EHe(e) { return Mx(e["disallowed-tools"] ?? e.disallowedTools); }

function read(text) {
  let e = eC(text);
  let h = e.indexOf("---", 3) < 0 ? null : e.match(K0);
  if (!h) return { how: "none", entries: [], hooks: false, removed: [] };
  let Y = DDr(h[1] || "");
  let fm = Y.ok ? Qs(Y.value) : {};
  let hooks = "hooks" in fm || "PreToolUse" in fm || "PermissionRequest" in fm;
  return { how: Y.how, entries: Mx(fm["allowed-tools"]), hooks: hooks, removed: EHe(fm) };
}

const decoder = new TextDecoder();
let pending = "";
const out = [];
for await (const chunk of Bun.stdin.stream()) {
  pending += decoder.decode(chunk, { stream: true });
  let cut;
  while ((cut = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, cut);
    pending = pending.slice(cut + 1);
    if (line) out.push(JSON.stringify(read(JSON.parse(line))));
    if (out.length >= 512) { await Bun.write(Bun.stdout, out.join("\n") + "\n"); out.length = 0; }
  }
}
if (pending) out.push(JSON.stringify(read(JSON.parse(pending))));
if (out.length) await Bun.write(Bun.stdout, out.join("\n") + "\n");
