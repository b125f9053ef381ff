// One seat at a table: the seat's token is the link's fragment (never sent in a request).
"use strict";
const tableId = location.pathname.split("/").pop();
const token = decodeURIComponent(location.hash.slice(1));
const $ = (id) => document.getElementById(id);
let socket = null;
let last = null;
let selected = [];
let closedForGood = false;
let retries = 0;

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${tableId}`);
  socket.onopen = () => { retries = 0; socket.send(JSON.stringify({ type: "join", token })); };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "error") { showError(msg.message); return; }
    if (msg.type === "state") { showError(""); draw(msg); }
  };
  socket.onclose = (event) => {
    if (event.code === 4403) {
      closedForGood = true;
      $("status").textContent = "no seat with this link";
      return;
    }
    $("status").textContent = "reconnecting…";
    retries += 1;
    setTimeout(connect, Math.min(5000, 300 * retries));
  };
}

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

function draw(msg) {
  last = msg;
  document.body.dataset.game = msg.game;
  document.body.dataset.status = msg.status;
  document.body.dataset.step = String(msg.step);
  $("title").textContent = msg.title;
  $("who").textContent = `you are ${msg.seat_name}`;
  const turn = msg.to_act === msg.seat && msg.legal.length > 0;
  $("status").textContent = msg.status === "over" ? "game over"
    : msg.status === "rule" ? (msg.god === msg.seat ? "write the rule" : "waiting for the rule")
    : turn ? "your turn" : `${msg.seats[msg.to_act]?.name ?? "…"} to act`;
  drawPlayers(msg);
  $("god").hidden = !(msg.status === "rule" && msg.god === msg.seat);
  drawFelt(msg.view || {});
  drawHand(msg.view && Array.isArray(msg.view.hand) ? msg.view.hand : null);
  drawActions(msg.legal);
  $("text").textContent = msg.text || "";
  $("end").hidden = msg.status !== "over";
  if (msg.status === "over") {
    $("summary").textContent = msg.summary + (msg.rule ? `\n\nthe secret rule: ${msg.rule}` : "");
  }
  drawHistory(msg.history);
}

function drawPlayers(msg) {
  const box = $("players");
  box.replaceChildren();
  msg.seats.forEach((seat, i) => {
    const el = document.createElement("div");
    el.className = "player";
    if (i === msg.to_act && msg.status === "play") el.classList.add("to-act");
    if (i === msg.seat) el.classList.add("me");
    const name = document.createElement("b");
    name.textContent = seat.name;
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = seat.kind === "human" ? (i === msg.seat ? "you" : "person") : `computer: ${seat.kind}`;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = seat.observer ? "" : String(msg.scores[i] ?? 0);
    el.append(name, kind, score);
    box.append(el);
  });
}

const SKIP = new Set(["hand", "player", "to_act", "scores", "rules"]);

function drawFelt(view) {
  const felt = $("felt");
  felt.replaceChildren();
  const facts = document.createElement("dl");
  facts.className = "facts";
  for (const [key, value] of Object.entries(view)) {
    if (SKIP.has(key)) continue;
    const label = key.replace(/_/g, " ");
    if (isCard(value)) {
      felt.append(labelled(label, cardRow([value])));
    } else if (Array.isArray(value) && value.length && value.every(isCard)) {
      felt.append(labelled(label, cardRow(value)));
    } else if (Array.isArray(value) && value.length && value.every((v) => Array.isArray(v) && v.every(isCard))) {
      if (value.every((v) => v.length === 0)) continue;
      const rows = document.createElement("div");
      value.forEach((v, i) => {
        const row = cardRow(v);
        row.dataset.index = String(i);
        rows.append(row);
      });
      felt.append(labelled(label, rows));
    } else if (value !== null && typeof value !== "object") {
      const dt = document.createElement("dt");
      dt.textContent = label;
      const dd = document.createElement("dd");
      dd.textContent = String(value);
      facts.append(dt, dd);
    } else if (Array.isArray(value) && value.length && value.every((v) => v === null || typeof v !== "object")) {
      const dt = document.createElement("dt");
      dt.textContent = label;
      const dd = document.createElement("dd");
      dd.textContent = value.map((v) => (v === null ? "–" : String(v))).join(" · ");
      facts.append(dt, dd);
    }
  }
  felt.append(facts);
}

function labelled(label, content) {
  const box = document.createElement("div");
  box.className = "pile";
  const h = document.createElement("h3");
  h.textContent = label;
  box.append(h, content);
  return box;
}

function drawHand(hand) {
  $("hand-box").hidden = hand === null;
  if (hand === null) return;
  selected = selected.filter((c) => hand.includes(c));
  const row = $("hand");
  row.replaceChildren();
  hand.forEach((c) => {
    const el = cardElement(c);
    if (selected.includes(c)) el.classList.add("selected");
    el.addEventListener("click", () => {
      const at = selected.indexOf(c);
      if (at >= 0) selected.splice(at, 1); else selected.push(c);
      el.classList.toggle("selected");
      drawActions(last ? last.legal : []);
    });
    row.append(el);
  });
}

function drawActions(legal) {
  $("actions-box").hidden = legal.length === 0;
  const box = $("actions");
  box.replaceChildren();
  const needle = $("filter").value.trim().toLowerCase();
  const shown = legal.filter((a) => {
    const words = a.split(/\s+/);
    return (!needle || a.toLowerCase().includes(needle)) && selected.every((c) => words.includes(c));
  });
  for (const action of shown.slice(0, 60)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action";
    b.dataset.action = action;
    for (const word of action.split(/\s+/)) {
      if (isCard(word)) b.append(cardElement(word)); else b.append(document.createTextNode(` ${word} `));
    }
    b.addEventListener("click", () => {
      selected = [];
      $("filter").value = "";
      send({ type: "act", action, step: last.step });
    });
    box.append(b);
  }
  if (shown.length > 60) {
    const more = document.createElement("p");
    more.className = "hint";
    more.textContent = `${shown.length - 60} more: click cards or filter to narrow them`;
    box.append(more);
  }
}

function drawHistory(lines) {
  const list = $("history");
  list.replaceChildren();
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

$("filter").addEventListener("input", () => drawActions(last ? last.legal : []));
$("rule-send").addEventListener("click", () => send({ type: "rule", text: $("rule-text").value }));
if (!token) {
  $("status").textContent = "this link has no seat key";
} else {
  connect();
}
