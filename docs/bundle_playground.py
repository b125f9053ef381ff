"""Bundle the rule playground into built docs: Pyodide's runtime and the wheels beside
the page, so that the page runs offline, from files only.

    python docs/bundle_playground.py --pyodide PYODIDE_DIR --wheels WHEEL_DIR --out BUILT_DOCS

``PYODIDE_DIR`` is the npm package ``pyodide`` (its ``node_modules/pyodide`` folder);
``WHEEL_DIR`` holds cardrules' pure-Python wheel (``cardrules-*-py3-none-any.whl``,
built with ``CARDRULES_NO_EXTENSION=1``) and the wheels of lark and attrs;
``BUILT_DOCS`` is the output of ``sphinx-build -b html docs BUILT_DOCS``.  The runtime
goes to ``_static/playground/pyodide/``, the wheels to ``_static/playground/wheels/``,
and ``_static/playground/manifest.json`` names them for the page's script.  Running it
again replaces the bundle.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

#: Pyodide's files that the page loads: the loader, the interpreter, the standard
#: library and the package index (which the loader reads at start).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: the distributions whose wheels the page installs: cardrules and what it needs at run time
WHEELS = ("cardrules", "lark", "attrs")


class BundleError(Exception):
    """An input is missing or is not what the page can use."""


def _pick_wheel(wheel_dir: Path, name: str) -> Path:
    found = sorted(p for p in wheel_dir.glob(f"{name}-*.whl") if p.name.split("-")[0].lower() == name)
    if name == "cardrules":
        pure = [p for p in found if p.name.endswith("-py3-none-any.whl")]
        if not pure:
            raise BundleError(
                f"no pure-Python cardrules wheel (cardrules-*-py3-none-any.whl) in {wheel_dir}: "
                "build one with CARDRULES_NO_EXTENSION=1 python -m pip wheel --no-deps -w DIR .  "
                "(a browser cannot run the compiled accelerator)"
            )
        found = pure
    else:
        found = [p for p in found if p.name.endswith("-none-any.whl")]
    if not found:
        raise BundleError(f"no {name}-*-none-any.whl in {wheel_dir}")
    if len(found) > 1:
        raise BundleError(f"more than one {name} wheel in {wheel_dir}: {', '.join(p.name for p in found)}")
    return found[0]


def bundle(pyodide_dir: Path, wheel_dir: Path, out: Path) -> dict[str, object]:
    """Copy the runtime and the wheels into the built docs ``out``; returns the manifest."""
    page_dir = out / "_static" / "playground"
    if not (out / "playground.html").is_file() or not (page_dir / "playground.js").is_file():
        raise BundleError(
            f"{out} is not a build of the docs with the playground (playground.html, _static/playground/)"
        )
    missing = [f for f in PYODIDE_FILES if not (pyodide_dir / f).is_file()]
    if missing:
        raise BundleError(f"{pyodide_dir} is not the npm package pyodide: it lacks {', '.join(missing)}")
    package = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))
    wheels = [_pick_wheel(wheel_dir, name) for name in WHEELS]

    runtime, wheel_out = page_dir / "pyodide", page_dir / "wheels"
    for folder in (runtime, wheel_out):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_dir / name, runtime / name)
    for wheel in wheels:
        shutil.copy2(wheel, wheel_out / wheel.name)
    manifest: dict[str, object] = {
        "pyodide": "pyodide/",
        "pyodide_version": package.get("version", "?"),
        "wheel_dir": "wheels/",
        "wheels": [w.name for w in wheels],
    }
    (page_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pyodide", required=True, type=Path, help="the npm package pyodide (node_modules/pyodide)"
    )
    parser.add_argument(
        "--wheels", required=True, type=Path, help="a folder with the cardrules, lark and attrs wheels"
    )
    parser.add_argument(
        "--out", required=True, type=Path, help="the built docs (sphinx-build -b html output)"
    )
    args = parser.parse_args(argv)
    try:
        manifest = bundle(args.pyodide, args.wheels, args.out)
    except BundleError as e:
        print(f"bundle_playground: {e}", file=sys.stderr)
        return 1
    wheels = manifest["wheels"]
    assert isinstance(wheels, list)
    size = sum(p.stat().st_size for p in (args.out / "_static" / "playground").rglob("*") if p.is_file())
    print(
        f"bundled Pyodide {manifest['pyodide_version']} and {', '.join(wheels)} into "
        f"{args.out / '_static' / 'playground'} ({size / 1e6:.1f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
