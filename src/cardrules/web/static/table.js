// One seat at a table (the seat's token is the link's fragment, never sent in a request),
// or a spectator at /watch/ID.  Each state message is drawn whole: the game's own layout
// (msg.layout, made by the game's table_layout hook) when it has one, else the view's fields.
"use strict";
const tableId = location.pathname.split("/").pop();
const watching = location.pathname.startsWith("/watch/");
const token = decodeURIComponent(location.hash.slice(1));
const $ = (id) => document.getElementById(id);
const MAX_BUTTONS = 20;
let socket = null;
let last = null;
let selected = [];
let openGroup = null;
// the end of a hand already shown and put away (kept across reloads of the page)
let seenEnded = Number(sessionStorage.getItem(`ended:${tableId}`) ?? -1);
let recent = [];
let clockTimer = null;
let retries = 0;
// the games' own drawings (static/games/NAME.js) register here: draw(layout, box, msg)
window.cardrulesLayouts = window.cardrulesLayouts || {};
const loading = new Set();

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${tableId}`);
  socket.onopen = () => {
    retries = 0;
    socket.send(JSON.stringify(watching ? { type: "watch" } : { type: "join", token }));
  };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "error") { showError(msg.message); return; }
    if (msg.type === "state") { showError(""); draw(msg); }
    if (msg.type === "hint") drawHint(msg);
  };
  socket.onclose = (event) => {
    if (event.code === 4403) {
      $("status").textContent = watching ? "this table cannot be watched" : "no seat with this link";
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

function act(action) {
  selected = [];
  openGroup = null;
  recent = [];
  $("filter").value = "";
  send({ type: "act", action, step: last ? last.step : 0 });
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function seatName(msg, seat) {
  return msg.seats[seat]?.name ?? `player ${seat}`;
}

function isSpectator(msg) {
  return msg.spectator === true || msg.seat === null || msg.seat === undefined;
}

function draw(msg) {
  const previous = last;
  last = msg;
  const spectator = isSpectator(msg);
  document.body.dataset.game = msg.game;
  document.body.dataset.status = msg.status;
  document.body.dataset.step = String(msg.step);
  document.body.classList.toggle("spectator", spectator);
  $("title").textContent = msg.title;
  document.title = `${msg.title}: cardrules`;
  $("who").textContent = spectator ? "watching" : `you are ${msg.seat_name}`;
  const turn = !spectator && msg.to_act === msg.seat && msg.legal.length > 0;
  document.body.classList.toggle("my-turn", turn);
  $("status").textContent = msg.status === "over" ? "game over"
    : msg.status === "rule" ? (!spectator && msg.god === msg.seat ? "write the rule" : "waiting for the rule")
    : turn ? "your turn" : `${seatName(msg, msg.to_act) || "…"} to act`;
  noteRecent(previous, msg);
  // a hint button where the table gives hints and it is this seat's turn; an old hint goes
  $("advice-ask").hidden = !(msg.hints && turn);
  $("advice-ask").disabled = false;
  if (!previous || previous.step !== msg.step) $("advice").hidden = true;
  drawPlayers(msg);
  $("god").hidden = !(msg.status === "rule" && !spectator && msg.god === msg.seat);
  drawTable(msg);
  const observer = !spectator && msg.seats[msg.seat]?.observer;
  let hand = !spectator && !observer && msg.view && Array.isArray(msg.view.hand) ? msg.view.hand : null;
  if (hand && !hand.length && msg.status === "over") hand = null;
  drawHand(hand);
  const hint = msg.layout?.hint;
  $("hint").hidden = !(turn && hint);
  $("hint").textContent = hint || "";
  drawActions();
  $("text").textContent = msg.text || "";
  drawResult(msg);
  drawEnd(msg);
  drawHistory(msg.history || [], !!msg.layout);
  drawClock(msg);
}

// -- what just happened ------------------------------------------------------------------

function noteRecent(previous, msg) {
  const done = msg.last;
  if (done && !isSpectator(msg) && done.seat === msg.seat) {
    recent = [];
  } else if (done && (!previous || done.step > (previous.last?.step ?? -1))) {
    const line = String(done.text || "").split("\n")[0];
    if (line) recent.push(line);
    recent = recent.slice(-3);
  }
  const banner = $("banner");
  banner.replaceChildren();
  banner.hidden = recent.length === 0 || msg.status === "rule";
  recent.forEach((line, i) => {
    const row = el("span", i === recent.length - 1 ? "latest" : "", line);
    banner.append(row);
  });
  if (previous && msg.step !== previous.step && !banner.hidden) flash(banner);
}

function flash(node) {
  node.classList.remove("fresh");
  void node.offsetWidth; // restart the animation
  node.classList.add("fresh");
}

// -- the players' chips --------------------------------------------------------------------

function drawPlayers(msg) {
  const box = $("players");
  box.replaceChildren();
  const seats = msg.layout?.seats;
  const justActed = msg.last && msg.last.step === msg.step ? msg.last.seat : null;
  msg.seats.forEach((seat, i) => {
    const chip = el("div", "player");
    chip.dataset.seat = String(i);
    if (i === msg.to_act && msg.status === "play") chip.classList.add("to-act");
    if (i === msg.seat) chip.classList.add("me");
    if (i === justActed && i !== msg.seat) chip.classList.add("fresh");
    if ((msg.layout?.result?.winners || []).includes(i) && msg.status === "over") chip.classList.add("winner");
    const head = el("div", "head");
    head.append(el("b", "name", seat.name));
    const info = seats ? seats[i] : null;
    if (info?.badge && info.badge.toLowerCase() !== seat.name.toLowerCase()) head.append(el("span", "badge", info.badge));
    const kind = seat.kind === "human" ? (i === msg.seat ? "you" : "person") : `computer (${seat.kind})`;
    head.append(el("span", "kind", kind));
    chip.append(head);
    if (info) {
      const facts = el("div", "facts-line");
      for (const [label, value] of info.facts || []) {
        const score = label === "score" || label === "score now";
        const fact = el("span", score ? "fact score" : "fact");
        fact.dataset.label = label;
        // "15 cards", "3 tricks", "12 score"; but "bet 15", "pool 8", "out first"; a
        // fact that is only true is its label
        if (value === true) fact.append(el("b", "", label));
        else if (score || (typeof value === "number" && label.endsWith("s"))) {
          const one = value === 1 && !score && label.endsWith("s");
          fact.append(el("b", "", value), document.createTextNode(` ${one ? label.slice(0, -1) : label}`));
        } else fact.append(document.createTextNode(`${label} `), el("b", "", value));
        facts.append(fact);
      }
      chip.append(facts);
      for (const row of info.rows || []) {
        const pile = el("div", "seat-row");
        pile.append(el("span", "row-label", row.label));
        const cards = cardRow(row.cards || []);
        if (row.fan) cards.classList.add("fan");
        pile.append(cards);
        chip.append(pile);
      }
    } else {
      chip.append(el("span", "score", seat.observer ? "" : String(msg.scores?.[i] ?? 0)));
    }
    const clock = el("span", "seat-clock");
    clock.hidden = true;
    chip.append(clock);
    box.append(chip);
  });
}

// -- the table itself ----------------------------------------------------------------------

function drawTable(msg) {
  const felt = $("felt");
  felt.replaceChildren();
  felt.classList.toggle("generic", !msg.layout);
  if (!msg.view) { felt.hidden = true; return; }
  felt.hidden = false;
  if (!msg.layout) { drawGenericFelt(msg.view || {}); return; }
  const layout = msg.layout;
  if (layout.draw) {
    const own = window.cardrulesLayouts[layout.draw];
    const box = el("div", `game-layout ${layout.draw}`);
    felt.append(box);
    if (own) own(layout, box, msg);
    else loadScript(layout.draw);
  }
  const justActed = msg.last && msg.last.step === msg.step ? msg.last.seat : null;
  for (const pile of layout.center || []) {
    const zone = el("div", pile.small ? "pile small" : "pile");
    zone.append(el("h3", "", pile.label));
    const row = cardRow(pile.cards || []);
    zone.append(row);
    const words = [];
    if (pile.words) words.push(pile.words);
    if (pile.by !== undefined && pile.by !== null && !String(pile.words || "").includes(seatName(msg, pile.by))) {
      words.push(`by ${seatName(msg, pile.by)}`);
    }
    if (words.length) zone.append(el("p", "words", words.join(", ")));
    if (!pile.small && pile.by === justActed && justActed !== msg.seat) flash(zone);
    felt.append(zone);
  }
  if (layout.facts?.length) {
    const facts = el("dl", "facts");
    for (const [label, value] of layout.facts) facts.append(el("dt", "", label), el("dd", "", value));
    felt.append(facts);
  }
}

function loadScript(name) {
  if (!/^[a-z_]+$/.test(name) || loading.has(name)) return;
  loading.add(name);
  const script = document.createElement("script");
  script.src = `/static/games/${name}.js`;
  script.onload = () => { if (last) draw(last); };
  document.head.append(script);
}

// the page of a game without a layout of its own: the view's fields, labelled
const SKIP = new Set(["hand", "player", "to_act", "scores", "rules"]);

function drawGenericFelt(view) {
  const felt = $("felt");
  const facts = el("dl", "facts");
  for (const [key, value] of Object.entries(view)) {
    if (SKIP.has(key)) continue;
    const label = key.replace(/_/g, " ");
    if (isCard(value)) {
      felt.append(labelled(label, cardRow([value])));
    } else if (Array.isArray(value) && value.length && value.every(isCard)) {
      felt.append(labelled(label, cardRow(value)));
    } else if (Array.isArray(value) && value.length && value.every((v) => Array.isArray(v) && v.every(isCard))) {
      if (value.every((v) => v.length === 0)) continue;
      const rows = el("div");
      value.forEach((v, i) => {
        const row = cardRow(v);
        row.dataset.index = String(i);
        rows.append(row);
      });
      felt.append(labelled(label, rows));
    } else if (value !== null && typeof value !== "object") {
      facts.append(el("dt", "", label), el("dd", "", value));
    } else if (Array.isArray(value) && value.length && value.every((v) => v === null || typeof v !== "object")) {
      facts.append(el("dt", "", label), el("dd", "", value.map((v) => (v === null ? "–" : String(v))).join(" · ")));
    }
  }
  felt.append(facts);
}

function labelled(label, content) {
  const box = el("div", "pile");
  box.append(el("h3", "", label), content);
  return box;
}

// -- the hand and the actions ----------------------------------------------------------------

function drawHand(hand) {
  $("hand-box").hidden = hand === null;
  if (hand === null) return;
  selected = selected.filter((c) => hand.includes(c));
  const row = $("hand");
  row.replaceChildren();
  hand.forEach((c) => {
    const card = cardElement(c);
    card.tabIndex = 0;
    card.setAttribute("role", "button");
    const at = selected.indexOf(c);
    if (at >= 0) { card.classList.add("selected"); card.dataset.order = String(at + 1); }
    const toggle = () => {
      const i = selected.indexOf(c);
      if (i >= 0) selected.splice(i, 1); else selected.push(c);
      openGroup = null;
      drawHand(hand);
      drawActions();
    };
    card.addEventListener("click", toggle);
    card.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
    row.append(card);
  });
}

function cardsOf(text) {
  return text.split(/\s+/).filter(isCard);
}

function actionButton(action, label) {
  const b = el("button", "action");
  b.type = "button";
  b.dataset.action = action;
  if (label) b.append(document.createTextNode(label));
  for (const word of action.split(/\s+/)) {
    if (isCard(word)) b.append(cardElement(word)); else if (!label) b.append(document.createTextNode(` ${word} `));
  }
  b.addEventListener("click", () => act(action));
  return b;
}

function groupButton(name, count) {
  const b = el("button", "group");
  b.type = "button";
  b.dataset.group = name;
  b.append(el("span", "", name), el("span", "count", count));
  b.addEventListener("click", () => { openGroup = name; drawActions(); });
  return b;
}

function drawActions() {
  const msg = last;
  const box = $("actions");
  box.replaceChildren();
  const legal = msg && !isSpectator(msg) ? msg.legal || [] : [];
  $("actions-box").hidden = legal.length === 0;
  $("actions-note").hidden = true;
  if (!legal.length) return;
  const groups = msg.groups || [];
  const explain = msg.layout?.explain || {};
  const items = legal.map((text, i) => ({ text, group: groups[i] || text.split(/\s+/)[0], cards: cardsOf(text) }));
  const plain = items.filter((it) => it.cards.length === 0);
  let withCards = items.filter((it) => it.cards.length > 0);
  const needle = $("filter").value.trim().toLowerCase();
  $("filter").hidden = items.length <= MAX_BUTTONS;
  if (needle) withCards = withCards.filter((it) => it.text.toLowerCase().includes(needle));
  let note = "";
  const strings = msg.layout?.strings || 0;
  if (selected.length) {
    if (strings && selected.length >= 2 && selected.length <= strings) {
      const text = selected.join(" ");
      const b = actionButton(text, "play the string ");
      b.classList.add("string");
      box.append(b);
    }
    const matching = withCards
      .filter((it) => selected.every((c) => it.cards.includes(c)))
      .sort((a, b) => a.cards.length - b.cards.length);
    for (const it of matching.slice(0, MAX_BUTTONS)) box.append(actionButton(it.text));
    if (matching.length > MAX_BUTTONS) note = `${matching.length - MAX_BUTTONS} more with these cards: click more cards to narrow them`;
    else if (!matching.length && !(strings && selected.length >= 2)) note = "no play uses all the cards you picked: click a card again to put it back";
  } else if (withCards.length <= MAX_BUTTONS || needle) {
    for (const it of withCards.slice(0, MAX_BUTTONS)) box.append(actionButton(it.text));
    if (withCards.length > MAX_BUTTONS) note = `${withCards.length - MAX_BUTTONS} more: type more of the filter, or click cards`;
  } else {
    const byGroup = new Map();
    for (const it of withCards) {
      if (!byGroup.has(it.group)) byGroup.set(it.group, []);
      byGroup.get(it.group).push(it);
    }
    if (openGroup && byGroup.has(openGroup)) {
      const back = el("button", "group back", "◂ all kinds");
      back.type = "button";
      back.addEventListener("click", () => { openGroup = null; drawActions(); });
      box.append(back);
      const members = byGroup.get(openGroup);
      for (const it of members.slice(0, MAX_BUTTONS - 1)) box.append(actionButton(it.text));
      if (members.length > MAX_BUTTONS - 1) note = `${members.length - MAX_BUTTONS + 1} more ${openGroup}: click cards in your hand to narrow them`;
    } else {
      openGroup = null;
      for (const [name, members] of byGroup) {
        if (members.length <= 2) members.forEach((it) => box.append(actionButton(it.text)));
        else box.append(groupButton(name, members.length));
      }
      note = "pick a kind, or click cards in your hand to see what they make";
    }
  }
  for (const it of plain) {
    const why = explain[it.text];
    if (why) {
      const row = el("div", "explained");
      row.append(actionButton(it.text), el("span", "why", why));
      box.append(row);
    } else {
      box.append(actionButton(it.text));
    }
  }
  if (note) { $("actions-note").textContent = note; $("actions-note").hidden = false; }
}

// -- results, the end, the history, the clock ---------------------------------------------------

function fillLines(list, lines) {
  list.replaceChildren();
  for (const line of lines || []) list.append(el("li", "", line));
}

function drawResult(msg) {
  const ended = msg.ended;
  const box = $("result");
  const show = ended && msg.status === "play" && ended.step > seenEnded;
  box.hidden = !show;
  if (!show) return;
  $("result-title").textContent = ended.title || "";
  fillLines($("result-lines"), ended.lines);
  $("result-close").onclick = () => {
    seenEnded = ended.step;
    sessionStorage.setItem(`ended:${tableId}`, String(seenEnded));
    box.hidden = true;
  };
}

function drawEnd(msg) {
  $("end").hidden = msg.status !== "over";
  if (msg.status !== "over") return;
  const result = msg.layout?.result;
  $("end-title").textContent = result?.title || "Game over";
  const lines = result ? [...result.lines] : [];
  if (msg.forfeit !== undefined && msg.forfeit !== null) {
    // the game did not end by its rules: a seat's clock ran out on a forfeit table
    const mine = !isSpectator(msg) && msg.forfeit === msg.seat;
    const who = mine ? "you" : seatName(msg, msg.forfeit);
    $("end-title").textContent = `Game over: ${who} forfeited`;
    const winners = (msg.winners || []).map((p) => (p === msg.seat ? "you" : seatName(msg, p)));
    const verb = winners.length > 1 || winners[0] === "you" ? "win" : "wins";
    lines.unshift(`the clock ran out on ${mine ? "your" : `${who}'s`} move`);
    if (winners.length) lines.splice(1, 0, `${winners.join(" and ")} ${verb}`);
  }
  const summary = msg.summary || "";
  if (msg.rule && !summary.includes(msg.rule)) lines.push(`the secret rule: ${msg.rule}`);
  const rule = /^the rule was: .*$/m.exec(summary);
  if (rule && !lines.some((l) => l.includes(rule[0]))) lines.push(rule[0]);
  fillLines($("end-lines"), lines);
  $("summary").textContent = summary;
  $("summary-box").hidden = !summary || (!!result && summary.split("\n").length <= 2);
}

function drawHistory(lines, drawn) {
  const list = $("history");
  list.replaceChildren();
  $("history-box").hidden = lines.length === 0;
  for (const line of lines) {
    // with the game's own layout drawn, a line's text after it (a layout as text, the
    // scores) is what the table already shows: one line each, the whole on hover
    const item = el("li", "", drawn ? line.split("\n")[0] : line);
    if (drawn && line.includes("\n")) item.title = line;
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function drawClock(msg) {
  clearInterval(clockTimer);
  const clock = msg.clock;
  const head = $("clock");
  head.hidden = !clock || msg.status !== "play";
  if (head.hidden) return;
  const start = performance.now();
  const chip = document.querySelector(`.player[data-seat="${clock.seat}"] .seat-clock`);
  const tick = () => {
    const left = Math.max(0, clock.remaining - (performance.now() - start) / 1000);
    const text = `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
    head.textContent = `${clock.seat === msg.seat ? "you have" : `${seatName(msg, clock.seat)} has`} ${text}`;
    head.classList.toggle("low", left < 10);
    if (chip) { chip.hidden = false; chip.textContent = `clock ${text}`; }
    if (left <= 0) clearInterval(clockTimer);
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

$("filter").addEventListener("input", () => drawActions());
$("rule-send").addEventListener("click", () => send({ type: "rule", text: $("rule-text").value }));
if (!token && !watching) {
  $("status").textContent = "this link has no seat key";
} else {
  connect();
}

// the search's analysis of this seat's view: each action's value, interval and visits
function drawHint(msg) {
  $("advice-ask").disabled = false;
  if (!last || msg.step !== last.step) return;  // the table moved on meanwhile
  const lines = $("advice-lines");
  lines.textContent = "";
  for (const a of msg.analysis.actions) {
    const li = document.createElement("li");
    const value = a.value === null ? "not tried" : `value ${a.value.toFixed(2)} `
      + `[${a.interval[0].toFixed(2)}, ${a.interval[1].toFixed(2)}]`;
    li.textContent = `${a.text}: ${value}, ${a.visits} visits`;
    lines.appendChild(li);
  }
  $("advice").hidden = false;
}

$("advice-ask").addEventListener("click", () => {
  $("advice-ask").disabled = true;
  send({ type: "hint" });
});
