// The rule playground: the page's side.  Python (cardrules in Pyodide) runs in a web
// worker (worker.js); this file sends it the reader's text as they type (debounced),
// and shows what comes back.  Plain JavaScript, no build step, nothing from the network.
const $ = (id) => document.getElementById(id);
const base = new URL("./", import.meta.url);

const EXAMPLES = {
  rule: "card.color != prev.color",
  tables: [
    "# The key card's suit is trump, then the led suit, by standard ranks.",
    "table whist:",
    "    class trump when card.suit == key.suit",
    "    class led   when card.suit == lead.suit",
    "    class other",
    "    trump beats led, other",
    "    led   beats other",
    "    otherwise by ranks standard",
    "",
  ].join("\n"),
};
const DECK = ["S", "H", "D", "C"].flatMap((s) =>
  ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].map((r) => r + s)
);
const DEBOUNCE_MS = 250;

const texts = { ...EXAMPLES };
let mode = "rule";
let worker = null;
let ready = false;
let nextId = 1;
const pending = new Map(); // id -> {kind, onReply, onReport}
const latest = {}; // kind -> the id of the newest request of that kind
let timer = null;
let ruleOk = false;
let tablesOk = false;
let scienceId = 0;

function setStatus(text, step, cls) {
  $("pg-status-text").textContent = text;
  if (step !== undefined) $("pg-progress").value = step;
  $("pg-status").className = "pg-status" + (cls ? " " + cls : "");
}

function setResult(el, reply) {
  el.classList.toggle("pg-error", !reply.ok);
  el.classList.toggle("pg-ok", reply.ok);
}

// Send one call to Python; a reply to an older call of the same kind is dropped.
function ask(kind, op, args, onReply, onReport) {
  const id = nextId++;
  latest[kind] = id;
  pending.set(id, { kind, onReply, onReport });
  worker.postMessage({ id, op, args });
  return id;
}

function onMessage(event) {
  const msg = event.data;
  if (msg.status) {
    setStatus(msg.status, msg.step);
    return;
  }
  if (msg.failed) {
    setStatus("Python could not be loaded: " + msg.failed, 0, "pg-failed");
    return;
  }
  if (msg.ready) {
    ready = true;
    setStatus(`Ready: cardrules ${msg.version} in your browser (loaded in ${msg.seconds.toFixed(1)} s).`, 4, "pg-ready");
    $("pg").classList.add("pg-live");
    refresh();
    return;
  }
  const call = pending.get(msg.id);
  if (!call) return;
  if (msg.report !== undefined) {
    call.onReport(JSON.parse(msg.report));
    return;
  }
  pending.delete(msg.id);
  if (latest[call.kind] === msg.id) call.onReply(JSON.parse(msg.result));
}

function startWorker() {
  ready = false;
  pending.clear();
  const started = performance.now();
  worker = new Worker(new URL("worker.js", base), { type: "module" });
  worker.onmessage = onMessage;
  worker.onerror = (e) => setStatus("The playground's worker failed: " + (e.message || e), 0, "pg-failed");
  setStatus("Starting Python…", 0);
  const mine = worker;
  const tick = setInterval(() => {
    const done = ready || worker !== mine;
    $("pg-elapsed").textContent = done ? "" : `${((performance.now() - started) / 1000).toFixed(0)} s`;
    if (done) clearInterval(tick);
  }, 500);
}

// -- the reader's text -------------------------------------------------------------------

function refresh() {
  if (!ready) return;
  const text = $("pg-source").value;
  if (mode === "rule") {
    ask("source", "rule", [text], (r) => {
      ruleOk = r.ok;
      $("pg-result").textContent = r.ok ? r.rule : r.error;
      setResult($("pg-result"), r);
      $("pg-science").disabled = !r.ok || scienceId !== 0;
      if (r.ok) {
        refreshLine();
        refreshExplain();
      } else {
        $("pg-allowed").textContent = "";
        $("pg-explain").textContent = "";
        $("pg-line-warning").hidden = true;
        paintDeck([]);
      }
    });
  } else {
    ask("source", "tables", [text], (r) => {
      tablesOk = r.ok;
      $("pg-result").textContent = r.ok
        ? r.tables.map((t) => `table ${t.name}: classes ${t.classes.join(", ")}`).join("\n") || "(no tables)"
        : r.error;
      setResult($("pg-result"), r);
      if (r.ok) {
        const select = $("pg-table");
        const chosen = select.value;
        select.replaceChildren(...r.tables.map((t) => new Option(t.name, t.name)));
        if (r.tables.some((t) => t.name === chosen)) select.value = chosen;
        refreshTrick();
      } else {
        $("pg-winner").textContent = "";
      }
    });
  }
}

// The text box grows with the text (4 to 20 lines).
function fitSource() {
  const lines = $("pg-source").value.split("\n").length;
  $("pg-source").rows = Math.max(4, Math.min(20, lines + 1));
}

function paintDeck(allowed) {
  const yes = new Set(allowed);
  for (const button of $("pg-deck").children) button.classList.toggle("pg-yes", yes.has(button.dataset.card));
}

function refreshLine() {
  if (!ready || mode !== "rule" || !ruleOk) return;
  ask("line", "next_cards", [$("pg-source").value, $("pg-line").value], (r) => {
    const out = $("pg-allowed");
    setResult(out, r);
    const warning = $("pg-line-warning");
    if (!r.ok) {
      out.textContent = r.error;
      warning.hidden = true;
      paintDeck([]);
      return;
    }
    warning.hidden = !r.warning;
    warning.textContent = r.warning || "";
    if (r.line.length === 0) {
      out.textContent = `The main line is empty: ${r.starters.length} cards may be the starter.`;
      paintDeck(r.starters);
    } else {
      out.textContent = `Allowed next (${r.allowed.length}): ${r.allowed.join(" ") || "no card"}`;
      paintDeck(r.allowed);
    }
  });
}

function refreshExplain() {
  if (!ready || mode !== "rule" || !ruleOk) return;
  const card = $("pg-card").value;
  if (!card.trim()) {
    $("pg-explain").textContent = "";
    return;
  }
  ask("explain", "explain", [$("pg-source").value, $("pg-line").value, card], (r) => {
    const out = $("pg-explain");
    setResult(out, r);
    out.textContent = r.ok ? `${r.card} is ${r.right ? "right" : "wrong"}: ${r.explanation}` : r.error;
  });
}

function refreshTrick() {
  if (!ready || mode !== "tables" || !tablesOk || !$("pg-table").value) return;
  const args = [$("pg-source").value, $("pg-table").value, $("pg-trick").value, $("pg-key").value];
  ask("trick", "trick", args, (r) => {
    const out = $("pg-winner");
    setResult(out, r);
    if (!r.ok) {
      out.textContent = r.error;
      return;
    }
    const cards = $("pg-trick").value.trim().split(/\s+/);
    const classes = r.classes.map((c, i) => `${cards[i]} ${c}`).join(", ");
    out.textContent = `${r.card} wins (card ${r.winner + 1}). Classes: ${classes}.`;
  });
}

function debounced(fn) {
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, DEBOUNCE_MS);
  };
}

// -- the science round ---------------------------------------------------------------------

function item(text, cls) {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  $("pg-turns-list").append(li);
  li.scrollIntoView({ block: "nearest" });
  return li;
}

function endScience() {
  scienceId = 0;
  $("pg-stop").disabled = true;
  $("pg-science").disabled = !ruleOk;
}

function runScience() {
  if (!ready || !ruleOk || scienceId) return;
  $("pg-turns-list").replaceChildren();
  const seed = parseInt($("pg-seed").value, 10) || 0;
  const turns = Math.max(1, Math.min(30, parseInt($("pg-turns").value, 10) || 20));
  const result = $("pg-science-result");
  result.textContent = "The scientist is playing…";
  result.className = "pg-science-result pg-running";
  $("pg-science").disabled = true;
  $("pg-stop").disabled = false;
  const onReport = (e) => {
    if (e.event === "start") item(`Starter ${e.starter}; the scientist's hand: ${e.hand.join(" ")}`, "pg-start");
    else if (e.event === "turn")
      item(`Turn ${e.turn}: plays ${e.card}, ${e.right ? "right" : "wrong"}. Main line: ${e.main.join(" ")}`,
           e.right ? "pg-turn pg-right" : "pg-turn pg-wrong");
    else if (e.event === "guess") item(`Guesses: ${e.rule}`, "pg-guess");
    else if (e.event === "wrong") item("…a wrong guess (it costs 2).", "pg-refuted");
  };
  scienceId = ask("science", "science", [$("pg-source").value, seed, turns], (r) => {
    endScience();
    result.className = "pg-science-result " + (r.ok ? "pg-done" : "pg-error");
    if (!r.ok) result.textContent = r.error;
    else if (r.solved)
      result.textContent = `Solved at turn ${r.turns} with ${r.wrong_guesses} wrong guesses: score ${r.score}. The guess: ${r.rule}`;
    else result.textContent = `Not solved in ${r.turns} turns (${r.wrong_guesses} wrong guesses): score ${r.score}.`;
  }, onReport);
}

function stopScience() {
  if (!scienceId) return;
  worker.terminate();
  endScience();
  $("pg-science-result").textContent = "Stopped.";
  $("pg-science-result").className = "pg-science-result";
  startWorker();
}

// -- setup -----------------------------------------------------------------------------------

function setMode(next) {
  texts[mode] = $("pg-source").value;
  mode = next;
  $("pg-source").value = texts[mode];
  fitSource();
  $("pg-rule").hidden = mode !== "rule";
  $("pg-tables").hidden = mode !== "tables";
  $("pg-result").textContent = "…";
  refresh();
}

function setup() {
  const deck = $("pg-deck");
  for (const card of DECK) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = card;
    b.dataset.card = card;
    b.className = "pg-c" + ("HD".includes(card.slice(-1)) ? " pg-red" : "");
    b.addEventListener("click", () => {
      $("pg-card").value = card;
      refreshExplain();
    });
    deck.append(b);
  }
  $("pg-source").value = texts.rule;
  fitSource();
  $("pg-source").addEventListener("input", fitSource);
  $("pg-source").addEventListener("input", debounced(refresh));
  $("pg-line").addEventListener("input", debounced(() => (refreshLine(), refreshExplain())));
  $("pg-card").addEventListener("input", debounced(refreshExplain));
  $("pg-trick").addEventListener("input", debounced(refreshTrick));
  $("pg-key").addEventListener("input", debounced(refreshTrick));
  $("pg-table").addEventListener("change", refreshTrick);
  $("pg-add").addEventListener("click", () => {
    $("pg-line").value = ($("pg-line").value.trim() + " " + $("pg-card").value.trim()).trim();
    refreshLine();
    refreshExplain();
  });
  $("pg-science").addEventListener("click", runScience);
  $("pg-stop").addEventListener("click", stopScience);
  for (const radio of document.querySelectorAll('input[name="pg-mode"]'))
    radio.addEventListener("change", () => radio.checked && setMode(radio.value));
}

async function main() {
  setup();
  if (location.protocol === "file:") {
    setStatus(
      "Browsers do not run the playground from a page opened from the disk: serve the built docs " +
        "folder with a web server (python -m http.server --directory BUILT_DOCS) and open it there.",
      0, "pg-failed"
    );
    return;
  }
  let manifest = null;
  try {
    const reply = await fetch(new URL("manifest.json", base));
    if (reply.ok) manifest = await reply.json();
  } catch (err) {
    manifest = null;
  }
  if (!manifest || !Array.isArray(manifest.wheels)) {
    setStatus(
      "The interactive playground needs the docs built with its bundle (Pyodide and the wheels of " +
        "cardrules, lark and attrs), which this build does not hold: see “Running the playground " +
        "from a build of the docs” below.",
      0, "pg-missing"
    );
    return;
  }
  startWorker();
}

main();
