// The lobby: choose a game and its seats, get one join link per person.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = { games: [], kinds: [] };

function game() {
  return catalog.games.find((g) => g.name === $("game").value);
}

function drawSeats() {
  const g = game();
  const n = Number($("players").value);
  const box = $("seats");
  box.querySelectorAll("label").forEach((el) => el.remove());
  for (let i = 0; i < n; i++) {
    const observer = g.observers.includes(i);
    const label = document.createElement("label");
    label.textContent = (g.seat_names[String(i)] || `player ${i}`) + " ";
    const select = document.createElement("select");
    select.className = "seat";
    select.id = `seat-${i}`;
    const kinds = observer ? [["human", g.rule_text ? "a person (writes the rule)" : "a person"], ["random", "the computer"]]
      : catalog.kinds.map((k) => [k, k === "human" ? "a person" : `computer: ${k === "greedy" && g.rule_text ? "greedy (the scientist)" : k}`]);
    for (const [value, text] of kinds) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      select.append(option);
    }
    select.value = observer || i === 0 || (g.observers.length && i === 1) ? "human" : "random";
    label.append(select);
    box.append(label);
  }
}

function drawGame() {
  const g = game();
  const players = $("players");
  players.replaceChildren();
  for (const n of g.players) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    players.append(option);
  }
  players.value = String(g.default_players);
  $("rule-box").hidden = !g.rule_text;
  const names = Object.entries(g.rules).filter(([, v]) => v === null || typeof v !== "object");
  $("defaults").textContent = names.length ? "defaults: " + names.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ") : "";
  drawSeats();
}

async function create(event) {
  event.preventDefault();
  $("lobby-error").hidden = true;
  let options;
  try {
    options = JSON.parse($("options").value || "{}");
  } catch (e) {
    showError(`rule options: ${e.message}`);
    return;
  }
  const seats = [...document.querySelectorAll("select.seat")].map((s) => s.value);
  const body = { game: $("game").value, seats, rules: options };
  if (game().rule_text && $("rule").value.trim()) body.rule = $("rule").value;
  const response = await fetch("/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) { showError(answer.error); return; }
  const list = $("link-list");
  list.replaceChildren();
  for (const link of answer.links) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = link.url;
    a.target = "_blank";
    a.className = "join";
    a.dataset.seat = String(link.seat);
    a.textContent = `${link.name}: ${location.origin}${link.url}`;
    li.append(a);
    list.append(li);
  }
  if (!answer.links.length) {
    const li = document.createElement("li");
    li.textContent = "every seat is the computer's: no one to join";
    list.append(li);
  }
  $("links").hidden = false;
}

function showError(text) {
  $("lobby-error").textContent = text;
  $("lobby-error").hidden = false;
}

async function start() {
  catalog = await (await fetch("/games")).json();
  for (const g of catalog.games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.title;
    $("game").append(option);
  }
  $("game").addEventListener("change", drawGame);
  $("players").addEventListener("change", drawSeats);
  $("new-table").addEventListener("submit", create);
  drawGame();
}

start();
