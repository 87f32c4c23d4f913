// guard's web console. Plain JavaScript, no build step. Everything shown
// goes through textContent: no text from the server is ever parsed as HTML.
"use strict";

const csrf = document.querySelector('meta[name="guard-csrf"]').content;
const $ = (id) => document.getElementById(id);

// --- base64url and the WebAuthn JSON shapes ---
function b64uToBuf(s) {
  s = s.replace(/-/g, "+").replace(/_/g, "/");
  while (s.length % 4) s += "=";
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}
function bufToB64u(buf) {
  const bytes = new Uint8Array(buf);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function creationOptions(o) {
  const pk = o.publicKey;
  pk.challenge = b64uToBuf(pk.challenge);
  pk.user.id = b64uToBuf(pk.user.id);
  (pk.excludeCredentials || []).forEach((c) => (c.id = b64uToBuf(c.id)));
  return { publicKey: pk };
}
function requestOptions(o) {
  const pk = o.publicKey;
  pk.challenge = b64uToBuf(pk.challenge);
  (pk.allowCredentials || []).forEach((c) => (c.id = b64uToBuf(c.id)));
  return { publicKey: pk };
}
function attestationJSON(c) {
  return {
    id: c.id, rawId: bufToB64u(c.rawId), type: c.type,
    response: {
      clientDataJSON: bufToB64u(c.response.clientDataJSON),
      attestationObject: bufToB64u(c.response.attestationObject),
      transports: c.response.getTransports ? c.response.getTransports() : [],
    },
    clientExtensionResults: c.getClientExtensionResults(),
  };
}
function assertionJSON(c) {
  return {
    id: c.id, rawId: bufToB64u(c.rawId), type: c.type,
    response: {
      clientDataJSON: bufToB64u(c.response.clientDataJSON),
      authenticatorData: bufToB64u(c.response.authenticatorData),
      signature: bufToB64u(c.response.signature),
      userHandle: c.response.userHandle ? bufToB64u(c.response.userHandle) : null,
    },
    clientExtensionResults: c.getClientExtensionResults(),
  };
}

// --- calls ---
async function call(name, body) {
  const r = await fetch("/api/" + name, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Guard-CSRF": csrf },
    body: JSON.stringify(body || {}),
  });
  const data = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok) throw new Error(data.error || "HTTP " + r.status);
  return data;
}

// act asks the passkey to sign this one action, then performs it.
async function act(action, target, params) {
  const opts = await call("challenge", { action, target, params });
  const cred = await navigator.credentials.get(requestOptions(opts));
  return call("act", { action, target, params, credential: assertionJSON(cred) });
}

function say(msg, bad) {
  const s = $("status");
  s.textContent = msg || "";
  s.className = bad ? "bad" : "";
}
async function guarded(fn) {
  try {
    await fn();
  } catch (e) {
    say(e.message || String(e), true);
  }
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(k == null ? "" : String(k)));
  return e;
}

function ago(t) {
  const s = Math.max(0, Math.round((Date.now() - new Date(t).getTime()) / 1000));
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m";
  if (s < 86400) return Math.floor(s / 3600) + "h";
  return Math.floor(s / 86400) + "d";
}
function size(n) {
  if (n < 1024) return n + " B";
  if (n < 1 << 20) return (n / 1024).toFixed(1) + " KiB";
  return (n / (1 << 20)).toFixed(1) + " MiB";
}

// --- start: register, sign in, or show the tabs ---
async function start() {
  const st = await call("state");
  $("register").hidden = true;
  $("login").hidden = true;
  if (st.registered === 0) {
    $("register").hidden = false;
    if (!st.can_register) say("Registration is closed: run guard ui in a terminal of your own to get a one-time code.", true);
    return;
  }
  if (!st.signed_in) {
    $("login").hidden = false;
    return;
  }
  $("tabs").hidden = false;
  show("pending");
}

async function register(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const opts = await call("register/begin", { code: $("register-code").value });
    await finishRegistration(opts, $("register-name").value);
    say("Passkey registered.");
    await start();
  });
}
async function finishRegistration(opts, name) {
  const cred = await navigator.credentials.create(creationOptions(opts));
  await call("register/finish", { name, credential: attestationJSON(cred) });
}

async function login() {
  await guarded(async () => {
    await act("login", "", {});
    say("");
    await start();
  });
}

// --- tabs ---
let current = "pending";
let timer = null;
function show(tab) {
  current = tab;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.tab === tab));
  document.querySelectorAll("section.tab").forEach((s) => (s.hidden = s.id !== tab));
  refresh();
  clearInterval(timer);
  if (tab === "pending") timer = setInterval(() => guarded(loadPending), 2000);
}
function refresh() {
  const f = { pending: loadPending, audit: loadAudit, grants: loadGrants, context: loadContext, charts: loadCharts, passkeys: loadPasskeys }[current];
  return guarded(f);
}

// --- approvals ---
let shownPending = "";
async function loadPending() {
  const list = await call("pending");
  $("pending-count").textContent = list.length ? "(" + list.length + ")" : "";
  const key = JSON.stringify(list.map((p) => [p.id, p.waiting, p.command]));
  if (key === shownPending) {
    document.querySelectorAll("[data-waited]").forEach((e) => (e.textContent = ago(e.dataset.waited)));
    return; // keep what the human is typing
  }
  shownPending = key;
  $("pending-empty").hidden = list.length > 0;
  const box = $("pending-list");
  box.replaceChildren(...list.map(requestCard));
}

function requestCard(p) {
  const cmd = el("code", { class: "command", "data-id": p.id }, p.command);
  const pattern = el("input", { class: "pattern", value: p.suggest || p.command, spellcheck: "false", "aria-label": "pattern" });
  const forTime = el("select", { class: "for", "aria-label": "for how long" },
    ...[["", "always"], ["1h", "for 1 hour"], ["8h", "for 8 hours"], ["1d", "for a day"], ["7d", "for a week"]].map(([v, label]) => el("option", { value: v }, label)));
  const msg = el("input", { class: "message", placeholder: "message to the agent (optional), e.g. use make test instead", "aria-label": "message" });
  const answer = (kind) => () =>
    guarded(async () => {
      const params = { kind };
      if (kind === "project" || kind === "global") {
        params.pattern = pattern.value;
        if (forTime.value) params.for = forTime.value;
      }
      if (kind === "deny" && msg.value.trim()) params.message = msg.value.trim();
      await act("answer", p.id, params);
      say("Request " + p.id + ": " + kind + ".");
      shownPending = "";
      await loadPending();
    });
  const reveal = () =>
    guarded(async () => {
      const r = await act("reveal", p.id, {});
      cmd.textContent = r.text;
      cmd.classList.add("revealed");
    });
  const buttons = [el("button", { class: "once", onclick: answer("once") }, "Allow once")];
  if (!p.once_only) {
    buttons.push(el("button", { class: "project", onclick: answer("project") }, "Allow in project"));
    buttons.push(el("button", { class: "global", onclick: answer("global") }, "Allow everywhere"));
  }
  buttons.push(el("button", { class: "deny", onclick: answer("deny") }, "Deny"));
  const rows = [
    ["directory", p.cwd], ["project", p.project], ["agent", p.agent || "—"],
    ["risk", p.risk || "—"], ["rule", p.rule || "—"], ["why", p.reason || "—"],
  ];
  const waited = el("span", { "data-waited": p.time }, ago(p.time));
  return el("article", { class: "request risk-" + (p.risk || "none"), id: "req-" + p.id },
    el("header", {}, el("strong", {}, "request " + p.id), " · waited ", waited, p.waiting ? " · a command waits" : " · nobody waits now"),
    cmd,
    p.revealable ? el("button", { class: "reveal", onclick: reveal }, "Reveal") : "",
    el("dl", {}, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
    p.once_only ? el("p", { class: "note" }, "This command can only be allowed once, or denied.") : el("label", {}, "pattern ", pattern, " ", forTime),
    el("div", { class: "answers" }, ...buttons),
    el("label", {}, "deny with a message ", msg),
  );
}

// --- audit ---
async function loadAudit() {
  const f = {
    decision: $("f-decision").value, agent: $("f-agent").value, project: $("f-project").value, rule: $("f-rule").value, limit: 200,
  };
  if ($("f-since").value) f.since = new Date($("f-since").value).toISOString();
  if ($("f-until").value) f.until = new Date($("f-until").value).toISOString();
  const list = await call("audit", { filter: f });
  $("audit-table").tBodies[0].replaceChildren(...list.map((r) =>
    el("tr", { class: "d-" + r.decision, onclick: () => guarded(() => explain(r.id)) },
      el("td", {}, new Date(r.time).toLocaleString()), el("td", {}, r.decision), el("td", {}, r.agent),
      el("td", {}, el("code", {}, r.command)), el("td", {}, r.rule), el("td", {}, r.answer + (r.via ? " · " + r.via : "")), el("td", {}, r.cwd))));
}
async function explain(id) {
  const r = await call("explain", { num: id });
  $("audit-trace").hidden = false;
  $("audit-trace").textContent = r.trace;
}

// --- grants ---
async function loadGrants() {
  const list = await call("grants");
  $("grants-table").tBodies[0].replaceChildren(...list.map((g) =>
    el("tr", { class: g.expired ? "expired" : "" },
      el("td", {}, g.kind), el("td", {}, el("code", {}, g.pattern)),
      el("td", {}, g.scope === "project" ? "project " + g.project : "everywhere"),
      el("td", {}, g.expires ? (g.expired ? "expired " : "") + new Date(g.expires).toLocaleString() : ""),
      el("td", {}, el("button", { onclick: () => guarded(async () => {
        await act("grant-rm", g.pattern, { kind: g.kind, pattern: g.pattern, scope: g.scope, project: g.project });
        say("Removed " + g.kind + " " + g.pattern + ".");
        await loadGrants();
      }) }, "Remove")))));
}
function grantChange() {
  return { kind: $("g-kind").value, pattern: $("g-pattern").value.trim(), scope: $("g-scope").value, project: $("g-project").value.trim(), for: $("g-for").value.trim() };
}
async function preview() {
  const p = await call("preview", { pattern: $("g-pattern").value.trim() });
  const box = $("grant-preview");
  box.hidden = false;
  box.className = p.refused ? "preview bad" : "preview";
  box.replaceChildren(
    el("p", {}, p.refused ? p.refused : "Would have allowed " + p.matched + " past command" + (p.matched === 1 ? "" : "s") + "."),
    el("ul", {}, ...(p.examples || []).map((e) => el("li", {}, el("code", {}, e)))),
    p.note ? el("p", { class: "note" }, p.note) : "");
  return p;
}
async function addGrant(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const g = grantChange();
    if (g.kind === "allow") {
      const p = await preview();
      if (p.refused) return;
    }
    await act("grant-add", g.pattern, g);
    say("Added " + g.kind + " " + g.pattern + ".");
    await loadGrants();
  });
}

// --- context ---
async function loadContext() {
  const list = await call("context");
  $("context-table").tBodies[0].replaceChildren(...list.map((c) =>
    el("tr", {},
      el("td", {}, c.id), el("td", {}, ago(c.time)), el("td", {}, size(c.bytes)), el("td", {}, c.hits),
      el("td", {}, el("code", {}, c.command)),
      el("td", {},
        el("button", { onclick: () => guarded(async () => {
          const r = await call("context-show", { id: c.id });
          $("context-output").hidden = false;
          $("context-output").textContent = r.output;
        }) }, "Show"),
        el("button", { onclick: () => guarded(async () => {
          const r = await act("context-clear", c.id, {});
          say("Cleared " + r.cleared + " entr" + (r.cleared === 1 ? "y" : "ies") + ".");
          await loadContext();
        }) }, "Clear")))));
}
async function clearAll() {
  await guarded(async () => {
    const r = await act("context-clear", "", {});
    say("Cleared " + r.cleared + " entr" + (r.cleared === 1 ? "y" : "ies") + ".");
    $("context-output").hidden = true;
    await loadContext();
  });
}

// --- charts (inline SVG) ---
const NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
}
async function loadCharts() {
  const c = await call("charts", { days: 14 });
  const days = c.days || [];
  const max = Math.max(1, ...days.map((d) => d.allow + d.ask + d.deny));
  const W = 40, H = 160, pad = 24;
  const chart = svg("svg", { width: days.length * W + pad, height: H + 40, role: "img", "aria-label": "decisions per day" });
  days.forEach((d, i) => {
    let y = H;
    for (const [kind, n] of [["allow", d.allow], ["ask", d.ask], ["deny", d.deny]]) {
      const h = (n / max) * (H - 10);
      y -= h;
      const r = svg("rect", { x: pad + i * W + 4, y, width: W - 8, height: h, class: "bar-" + kind });
      r.append(svg("title", {}, d.day + ": " + n + " " + kind));
      chart.append(r);
    }
    chart.append(svg("text", { x: pad + i * W + W / 2, y: H + 14, "text-anchor": "middle", class: "axis" }, d.day.slice(5)));
  });
  chart.append(svg("text", { x: 2, y: 12, class: "axis" }, String(max)));
  const legend = el("p", { class: "legend" }, el("span", { class: "k-allow" }, "allow"), " ", el("span", { class: "k-ask" }, "ask"), " ", el("span", { class: "k-deny" }, "deny"));
  $("chart-days").replaceChildren(chart, legend);
  $("top-table").tBodies[0].replaceChildren(...(c.top || []).map((t) =>
    el("tr", {}, el("td", {}, t.count), el("td", {}, el("code", {}, t.command)),
      el("td", {}, t.suggest ? el("code", {}, t.suggest) : "—"),
      el("td", {}, t.suggest ? el("button", { onclick: () => {
        $("g-kind").value = "allow";
        $("g-pattern").value = t.suggest;
        show("grants");
        guarded(preview);
      } }, "Grant…") : ""))));
}

// --- passkeys ---
async function loadPasskeys() {
  const list = (await call("passkeys")) || [];
  $("passkey-list").replaceChildren(...list.map((p) =>
    el("li", {}, p.name + " · added " + new Date(p.added).toLocaleString() + " ",
      el("button", { onclick: () => guarded(async () => {
        await act("passkey-rm", p.id, {});
        say("Removed passkey " + p.name + ".");
        await loadPasskeys();
      }) }, "Remove"))));
}
async function addPasskey() {
  await guarded(async () => {
    const opts = await act("passkey-add", "", {});
    await finishRegistration(opts, "");
    say("Passkey added.");
    await loadPasskeys();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  $("register-form").addEventListener("submit", register);
  $("login-go").addEventListener("click", login);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => show(b.dataset.tab)));
  $("audit-filter").addEventListener("submit", (ev) => { ev.preventDefault(); guarded(loadAudit); });
  $("g-preview").addEventListener("click", () => guarded(preview));
  $("grant-form").addEventListener("submit", addGrant);
  $("context-clear-all").addEventListener("click", clearAll);
  $("passkey-add").addEventListener("click", addPasskey);
  guarded(start);
});

// For tests and the curious: the encoders, so a test can sign with an
// authenticator this install never registered and see it refused.
window.guardUI = { call, act, requestOptions, assertionJSON, creationOptions, attestationJSON };
