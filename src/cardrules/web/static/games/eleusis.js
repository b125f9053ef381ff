// New Eleusis's layout as it lies on a real table: the main line left to right, and
// under each of its cards the wrong cards played there (its side line); the prophet's
// marker above the main-line card it was put on.
"use strict";
window.cardrulesLayouts = window.cardrulesLayouts || {};
window.cardrulesLayouts.eleusis = function drawEleusis(layout, box) {
  const head = document.createElement("h3");
  head.textContent = "the layout: the main line, and under each card the wrong plays there";
  box.append(head);
  const line = document.createElement("div");
  line.className = "main-line";
  const main = layout.main || [];
  main.forEach((card, i) => {
    const column = document.createElement("div");
    column.className = "column";
    column.dataset.index = String(i);
    if (i === layout.marker) {
      column.classList.add("marked");
      const flag = document.createElement("span");
      flag.className = "marker";
      flag.textContent = "prophet's marker";
      column.append(flag);
    }
    const top = cardElement(card);
    top.classList.add("main-card");
    if (i === main.length - 1) top.classList.add("newest");
    column.append(top);
    const side = (layout.sides || [])[i] || [];
    if (side.length) {
      const wrong = cardRow(side);
      wrong.className = "side-line";
      wrong.title = `wrong plays after ${card}`;
      column.append(wrong);
    }
    line.append(column);
  });
  if (!main.length) line.textContent = "no card on the main line yet";
  box.append(line);
};
