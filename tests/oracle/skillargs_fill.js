// Claude Code 2.1.332's filling of a Skill call's args into the skill's `!` commands, for the
// differential of gate/skillargs.py (tests/oracle/test_skillargs_bun.py). The functions are the
// runtime's own, read from the pinned binary's JavaScript (names as there: Bit, uG, SFn, tTi, PIe,
// _vt, K0), reformatted only. Input on stdin: JSON [[text, args], ...]. Output: for each case,
// the commands the runtime runs after filling that the unfilled body does not hold.
const LQ = "\uFFFF", Uue = "\uFFFE";
function Bit(e) { return e.replace(/`[^`\n]+`/g, (n, o) => { let g = e[o - 1]; return g === "!" || g === "`" ? n : "`" + " ".repeat(n.length - 2) + "`"; }); }
function uG(e) { return e.replace(/`!/g, "` !").replace(/!`/g, "! `").replace(/(^|\s)!/gm, "$1\\!"); }
var Lxr = /```!\s*\n?([\s\S]*?)\n?```/g, Nxr = /(?<=^|\s)!`([^`]+)`/gm;
function eTi(e) { return e.trim().replaceAll(`\r\n`, `\n`); }
function SFn(e) { let n = e.matchAll(Lxr), o = e.includes("!`") ? Bit(e).matchAll(Nxr) : [], g = []; for (let h of [...n, ...o]) { let y = eTi(h[1] ?? ""); if (y) g.push(y); } return g; }
// tTi's words come from the runtime's bash parser (mP: Qy().parse, Dqe, W6t, Pe), its module cut
// out of the pinned binary by tests/oracle/runtime_bash_parser.py; its path is argv[2].
const { Qy } = await import(process.argv[2]);
const or = new Set(["export", "declare", "typeset", "readonly", "local", "unset", "unsetenv"]), ar = new Set(["word", "string", "raw_string", "number"]), qe = new Set(["command_substitution", "process_substitution"]), je = new Set(["command", "declaration_command"]);
function Dqe(e, t) { let { type: n, children: r } = e; if (je.has(n)) return e; if (n === "variable_assignment" && t) return t.children.find((o) => je.has(o.type) && o.startIndex > e.startIndex) ?? null; if (n === "pipeline") { for (let o of r) { let s = Dqe(o, e); if (s) return s; } return null; } if (n === "redirected_statement") return r.find((o) => je.has(o.type)) ?? null; for (let o of r) { let s = Dqe(o, e); if (s) return s; } return null; }
function W6t(e) { if (e.type === "declaration_command") { let r = e.children[0]; return r && or.has(r.text) ? [r.text] : []; } let t = [], n = !1; for (let r of e.children) { if (r.type === "variable_assignment") continue; if (r.type === "command_name" || !n && r.type === "word") { n = !0; let o = r.children[0] ?? r; if (o.type === "concatenation") t.push(o.children.some((s) => qe.has(s.type)) ? o.text : o.children.map(Pe).join("")); else t.push(Pe(o)); continue; } if (ar.has(r.type)) t.push(Pe(r)); else if (r.type === "concatenation") { if (r.children.some((o) => qe.has(o.type))) break; t.push(r.children.map(Pe).join("")); } else if (qe.has(r.type)) break; } return t; }
function Pe(e) { if (e.type === "word") return e.text.replace(/\\(.)/g, "$1"); return cr(e.text); }
function cr(e) { return e.length >= 2 && (e[0] === '"' && e.at(-1) === '"' || e[0] === "'" && e.at(-1) === "'") ? e.slice(1, -1) : e; }
function mP(e) { if (!e || e.length > 1e4) return []; let t = Qy().parse(e); if (!t) return []; let r = Dqe(t, null); if (!r) return []; return W6t(r); }
function tTi(e) { if (!e || !e.trim()) return []; let n = mP(e); return n.length > 0 ? n : e.split(/\s+/).filter(Boolean); }
function PIe(e) { if (!e) return []; let n = (o) => typeof o === "string" && o.trim() !== "" && !/^\d+$/.test(o); if (Array.isArray(e)) return e.filter(n); if (typeof e === "string") return e.split(/\s+/).filter(n); return []; }
function Fr(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
function Jmn(e) { return Uue + e.replaceAll(LQ, "\uFFFD").replaceAll(Uue, "\uFFFD").replaceAll("$", LQ) + Uue; }
function _vt(e, n, o = !0, g = [], h) {
  if (n === void 0 || n === null) return e;
  e = e.replaceAll(LQ, "\uFFFD").replaceAll(Uue, "\uFFFD");
  let C = (ie) => { let Se = ie ?? "", Ae = h ? h(Se) : Se; return Jmn(Ae); }, H, z = (ie) => (H ??= tTi(n))[ie],
    Y = g.map((ie, Se) => ({ name: ie, i: Se })).filter((ie) => Boolean(ie.name) && ie.name.length <= 64).slice(0, 64).sort((ie, Se) => Se.name.length - ie.name.length),
    Q = ["\\d", "ARGUMENTS", ...Y.map(({ name: ie }) => `${Fr(ie)}(?![\\[\\w])`)].join("|");
  e = e.replace(new RegExp(`(?<!\\\\)\\\\\\$(?=${Q})`, "g"), LQ);
  let _e = !1;
  for (let { name: ie, i: Se } of Y) e = e.replace(new RegExp(`\\$${Fr(ie)}(?![\\[\\w])`, "g"), () => (_e = !0, C(z(Se))));
  if (e = e.replace(/\$ARGUMENTS\[(\d+)\]/g, (ie, Se) => { let Ae = parseInt(Se, 10); if (z(Ae) === void 0) return LQ + ie.slice(1); return _e = !0, C(z(Ae)); }),
      e = e.replace(/\$(\d+)(?!\w)/g, (ie, Se) => { let Ae = parseInt(Se, 10); if (z(Ae) === void 0) return ie; return _e = !0, C(z(Ae)); }),
      e = e.replaceAll("$ARGUMENTS", () => (_e = !0, C(n))), !_e && o && n) e = e + `\n\nARGUMENTS: ${C(n)}`;
  return e.replaceAll(LQ, "$").replaceAll(Uue, "");
}
const K0 = /^---\s*\n([\s\S]*?)---\s*\n?/;
const out = [], input = JSON.parse(require("fs").readFileSync(0, "utf8"));
if (input.words) { console.log(JSON.stringify(input.words.map(tTi))); process.exit(0); }  // {words: [args, ...]}: each one's words
for (const [text, args] of input) {
  let e = text.charCodeAt(0) === 65279 ? text.slice(1) : text, m = e.match(K0), fm = {}, body = e;
  if (m) { body = e.slice(m[0].length); try { fm = Bun.YAML.parse(m[1]) || {}; } catch { fm = {}; } }
  const names = PIe(fm && typeof fm === "object" ? fm.arguments : undefined);
  const before = SFn(body), after = SFn(_vt(body, args, true, names, uG));
  for (const c of before) { const i = after.indexOf(c); if (i >= 0) after.splice(i, 1); }
  out.push([...new Set(after)]);
}
console.log(JSON.stringify(out));
