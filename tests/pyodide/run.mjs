// Runs tests/pyodide/check.py under Pyodide in Node, offline, with cardrules' pure-Python
// wheel and its dependencies' wheels installed from local files.
//
//   node tests/pyodide/run.mjs PYODIDE_DIR WHEEL_DIR
//
// PYODIDE_DIR: the npm package `pyodide` (its node_modules/pyodide folder);
// WHEEL_DIR: a folder of wheels (cardrules-*-py3-none-any.whl, lark, attrs).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [pyodideDir, wheelDir] = process.argv.slice(2).map((p) => resolve(p));
if (!pyodideDir || !wheelDir) {
  console.error("usage: node tests/pyodide/run.mjs PYODIDE_DIR WHEEL_DIR");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdout: console.log, stderr: console.error });

const wheels = readdirSync(wheelDir).filter((f) => f.endsWith(".whl"));
for (const prefix of ["cardrules-", "lark-", "attrs-"]) {
  if (!wheels.some((f) => f.startsWith(prefix))) {
    console.error(`no ${prefix}*.whl in ${wheelDir}`);
    process.exit(2);
  }
}
if (!wheels.some((f) => f.startsWith("cardrules-") && f.endsWith("-py3-none-any.whl"))) {
  console.error(`the cardrules wheel in ${wheelDir} is not the pure-Python one (py3-none-any)`);
  process.exit(2);
}
// Pyodide's own installer, from local files: nothing is fetched from the network.
await pyodide.loadPackage(wheels.map((f) => pathToFileURL(join(wheelDir, f)).href), { checkIntegrity: false });

const here = dirname(fileURLToPath(import.meta.url));
await pyodide.runPythonAsync(readFileSync(join(here, "check.py"), "utf8"));
