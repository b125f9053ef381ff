// The lobby: the open tables; a new table: its game, seats and rule options (a form made
// from the game's Rules, GET /games), and one join link per person.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = { games: [], kinds: [] };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function game() {
  return catalog.games.find((g) => g.name === $("game").value);
}

function drawSeats() {
  const g = game();
  const n = Number($("players").value);
  const box = $("seats");
  box.querySelectorAll("label").forEach((node) => node.remove());
  for (let i = 0; i < n; i++) {
    const observer = g.observers.includes(i);
    const label = el("label", "", (g.seat_names[String(i)] || `player ${i}`) + " ");
    const select = el("select", "seat");
    select.id = `seat-${i}`;
    // A game whose rules are written as text (New Eleusis): the computer in God's seat
    // chooses a secret rule, and its strong player is the scientist.
    const kinds = observer
      ? [["human", g.rule_text ? "a person (writes the rule)" : "a person"],
         ["random", g.rule_text ? "the computer (chooses the rule)" : "the computer"]]
      : catalog.kinds.map((k) => [k, k === "human" ? "a person" : `computer: ${k === "strong" && g.rule_text ? "strong (the scientist)" : k}`]);
    for (const [value, text] of kinds) {
      const option = el("option", "", text);
      option.value = value;
      select.append(option);
    }
    select.value = observer || i === 0 || (g.observers.length && i === 1) ? "human" : "random";
    label.append(select);
    box.append(label);
  }
}

function words(name) {
  return name.replace(/_/g, " ");
}

function drawOptions() {
  const g = game();
  const box = $("options-form");
  box.querySelectorAll("label, p").forEach((node) => node.remove());
  const options = g.options || [];
  box.hidden = options.length === 0;
  for (const o of options) {
    const label = el("label");
    label.dataset.option = o.name;
    label.append(el("span", "name", words(o.name)));
    let input;
    if (o.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = !!o.default;
    } else if (o.type === "choice") {
      input = el("select");
      for (const c of o.choices) {
        const option = el("option", "", words(c));
        option.value = c;
        input.append(option);
      }
      input.value = o.default;
    } else if (o.type === "int" || o.type === "float") {
      input = el("input");
      input.type = "number";
      if (o.type === "int") input.step = String(o.step || 1);
      if (o.min !== null) input.min = String(o.min);
      if (o.max !== null) input.max = String(o.max);
      input.value = o.default === null ? "" : String(o.default);
      if (o.nullable) input.placeholder = "none";
    } else if (o.type === "list") {
      input = el("input", "list");
      input.type = "text";
      input.value = (o.default || []).join(", ");
      input.placeholder = "none";
    } else {
      input = el("input");
      input.type = "text";
      input.value = o.default ?? "";
    }
    input.id = `option-${o.name}`;
    input.dataset.type = o.type;
    label.append(input);
    const range = o.min !== null && o.max !== null ? ` (${o.min} to ${o.max})` : o.min !== null ? ` (at least ${o.min})` : "";
    const def = o.type === "list" ? (o.default || []).join(", ") || "none" : o.default === null ? "none" : words(String(o.default));
    label.append(el("span", "help", `${o.help || ""} Default: ${def}${range}.`.trim()));
    box.append(label);
  }
}

// the form's options that differ from the defaults, or why one cannot be read
function formOptions() {
  const out = {};
  for (const o of game().options || []) {
    const input = $(`option-${o.name}`);
    let value;
    if (o.type === "bool") value = input.checked;
    else if (o.type === "int" || o.type === "float") {
      const text = input.value.trim();
      if (text === "") {
        if (!o.nullable) throw new Error(`${words(o.name)}: give a number`);
        value = null;
      } else {
        value = Number(text);
        if (!Number.isFinite(value) || (o.type === "int" && !Number.isInteger(value))) {
          throw new Error(`${words(o.name)}: ${JSON.stringify(text)} is not a whole number`);
        }
      }
    } else if (o.type === "list") {
      const parts = input.value.split(/[\s,]+/).filter(Boolean);
      value = parts.map(Number);
      if (value.some((x) => !Number.isInteger(x))) throw new Error(`${words(o.name)}: whole numbers separated by commas`);
    } else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(o.default)) out[o.name] = value;
  }
  return out;
}

function drawGame() {
  const g = game();
  const players = $("players");
  players.replaceChildren();
  for (const n of g.players) {
    const option = el("option", "", n);
    option.value = String(n);
    players.append(option);
  }
  players.value = String(g.default_players);
  $("rule-box").hidden = !g.rule_text;
  drawSeats();
  drawOptions();
}

async function create(event) {
  event.preventDefault();
  $("lobby-error").hidden = true;
  let options;
  try {
    const json = $("options").value.trim();
    options = json ? JSON.parse(json) : formOptions();
  } catch (e) {
    showError(`rule options: ${e.message}`);
    return;
  }
  const seats = [...document.querySelectorAll("select.seat")].map((s) => s.value);
  const body = { game: $("game").value, seats, rules: options };
  if (game().rule_text && $("rule").value.trim()) body.rule = $("rule").value;
  // only what differs from the server's defaults is sent
  if (!$("spectators").checked) body.spectators = false;
  if ($("listed").checked) body.listed = true;
  if ($("hints").checked) body.hints = true;
  if ($("clock").value) body.clock = Number($("clock").value);
  if ($("clock").value && $("on-timeout").value !== "move") body.on_timeout = $("on-timeout").value;
  const response = await fetch("/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) { showError(answer.error || `the server answered ${response.status}`); return; }
  const list = $("link-list");
  list.replaceChildren();
  for (const link of answer.links) {
    const li = el("li");
    const a = el("a", "join", `${link.name}: ${location.origin}${link.url}`);
    a.href = link.url;
    a.target = "_blank";
    a.dataset.seat = String(link.seat);
    li.append(a);
    list.append(li);
  }
  if (!answer.links.length) list.append(el("li", "", "every seat is the computer's: no one to join"));
  $("watch").hidden = !answer.watch;
  if (answer.watch) {
    $("watch").replaceChildren(document.createTextNode("To watch: "));
    const a = el("a", "watch", `${location.origin}${answer.watch}`);
    a.href = answer.watch;
    a.target = "_blank";
    $("watch").append(a);
  }
  $("links").hidden = false;
  loadOpenTables();
}

function showError(text) {
  $("lobby-error").textContent = text;
  $("lobby-error").hidden = false;
}

async function takeSeat(table, seat) {
  const response = await fetch(`/tables/${encodeURIComponent(table.id)}/seats/${seat}`, { method: "POST" });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { showError(answer.error || `the server answered ${response.status}`); loadOpenTables(); return; }
  location.href = answer.url;
}

async function loadOpenTables() {
  let answer;
  try {
    const response = await fetch("/tables");
    if (!response.ok) { $("open").hidden = true; return; } // the list could not be read: nothing to show
    answer = await response.json();
  } catch (e) {
    $("open").hidden = true;
    return;
  }
  const tables = answer.tables || [];
  const list = $("open-list");
  list.replaceChildren();
  $("open").hidden = tables.length === 0;
  for (const t of tables) {
    const li = el("li");
    li.dataset.table = t.id;
    li.append(el("b", "", t.title || t.game));
    const who = (t.seats || []).map((s) => `${s.name}: ${s.free ? "free" : s.kind === "human" ? "taken" : `computer (${s.kind})`}`);
    li.append(el("span", "", `${t.players} players · ${{ rule: "waiting for the rule", play: "playing", over: "over" }[t.status] || t.status}`));
    if (t.clock) li.append(el("span", "", `${t.clock} s a move`));
    li.append(el("span", "hint", who.join(", ")));
    (t.seats || []).forEach((s, i) => {
      if (!s.free || t.status === "over") return;
      const b = el("button", "take", `sit as ${s.name}`);
      b.type = "button";
      b.addEventListener("click", () => takeSeat(t, i));
      li.append(b);
    });
    if (t.watch) {
      const a = el("a", "watch", "watch");
      a.href = t.watch;
      li.append(a);
    }
    list.append(li);
  }
}

async function start() {
  catalog = await (await fetch("/games")).json();
  for (const g of catalog.games) {
    const option = el("option", "", g.title);
    option.value = g.name;
    $("game").append(option);
  }
  $("game").addEventListener("change", drawGame);
  $("players").addEventListener("change", drawSeats);
  $("new-table").addEventListener("submit", create);
  $("clock").addEventListener("change", () => { $("timeout-box").hidden = !$("clock").value; });
  drawGame();
  loadOpenTables();
}

start();
