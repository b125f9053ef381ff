// The rule playground's web worker: loads Pyodide (Python compiled to WebAssembly) and
// the wheels listed in manifest.json, all from files beside the page, then runs
// playground.py's functions for the page.  Messages in: {id, op, args}; out:
// {status, step, steps} while loading, {ready, seconds} or {failed}, {id, result} for
// each call (a JSON text from playground.py) and {id, report} for each turn of a
// science round.
const here = new URL(".", import.meta.url);
let api = null;
const queue = [];

function status(step, steps, text) {
  postMessage({ status: text, step, steps });
}

async function start() {
  const started = performance.now();
  const manifest = await (await fetch(new URL("manifest.json", here))).json();
  const indexURL = new URL(manifest.pyodide, here).href;
  status(1, 4, "Loading Python (Pyodide " + manifest.pyodide_version + ")…");
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({ indexURL });
  status(2, 4, "Installing " + manifest.wheels.join(", ") + "…");
  const wheels = manifest.wheels.map((w) => new URL(manifest.wheel_dir + w, here).href);
  await pyodide.loadPackage(wheels, { checkIntegrity: false, messageCallback: () => {} });
  status(3, 4, "Importing cardrules…");
  const source = await (await fetch(new URL("playground.py", here))).text();
  const scope = pyodide.globals.get("dict")();
  pyodide.runPython(source, { globals: scope });
  api = scope;
  const version = pyodide.runPython("import cardrules; cardrules.__version__");
  postMessage({ ready: true, version, seconds: (performance.now() - started) / 1000 });
}

function call(msg) {
  const fn = api.get(msg.op);
  const args = msg.args.slice();
  if (msg.op === "science") args.push((text) => postMessage({ id: msg.id, report: text }));
  let result;
  try {
    result = fn(...args);
  } catch (err) {
    result = JSON.stringify({ ok: false, error: String(err), where: "python" });
  } finally {
    fn.destroy();
  }
  postMessage({ id: msg.id, result });
}

onmessage = (event) => {
  if (api) call(event.data);
  else queue.push(event.data);
};

start().then(
  () => {
    while (queue.length) call(queue.shift());
  },
  (err) => postMessage({ failed: String(err && err.message ? err.message : err) })
);
