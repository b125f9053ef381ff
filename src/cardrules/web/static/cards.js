// Cards drawn as cards: "10H" -> a card showing 10 and a red heart.
"use strict";
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663", M: "\u263e" };
// a card of a standard deck or of Haggis's moons, a Haggis wild (J, Q or K without a
// suit), or a joker (JK)
const CARD_RE = /^(?:(10|[2-9AJQK])([SHDCM])|([JQK])|(JK))$/;

function isCard(value) {
  return typeof value === "string" && CARD_RE.test(value);
}

function cardElement(text) {
  const m = CARD_RE.exec(text);
  const el = document.createElement("span");
  el.className = "card";
  el.dataset.card = text;
  if (!m) { el.textContent = text; return el; }
  const suit = m[2] || "";
  const face = m[4] ? "JK" : m[1] || m[3];
  if (suit === "H" || suit === "D") el.classList.add("red");
  if (suit === "M") el.classList.add("moon");
  if (m[4]) el.classList.add("joker"); else if (!suit) el.classList.add("wild");
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = face;
  const pip = document.createElement("span");
  pip.className = "suit";
  pip.textContent = suit ? SUITS[suit] : m[4] ? "\u263a" : "\u2605";
  el.append(rank, pip);
  el.title = text;
  return el;
}

function cardRow(cards) {
  const row = document.createElement("div");
  row.className = "cards";
  for (const c of cards) row.append(cardElement(c));
  return row;
}
