"""Build hook: compile the optional C accelerator, ``src/cardrules/_speedups.c``.

cardrules is pure Python; ``cardrules._speedups`` holds C versions of three things the
games do over and over, each kept in C because it makes its own public benchmark at
least 1.5 times faster (``PYTHONPATH=src python benchmarks/bench_speedups.py``; the
figures are in ``docs/performance/speedups.rst``), three functions of
``cardrules/_hotloops.py``, where their Python twins are: ``coded_subsets`` (an Aegis
exchange's 32 legal actions), ``fisher_yates`` (the seeded shuffle's swaps) and
``same_objects`` (the check of a ``Shuffle``'s cards).  When a C compiler is at hand the
wheel gets the compiled module, built on CPython's limited API (``Py_LIMITED_API`` = 3.10,
the stable ABI): one wheel, tagged ``cp310-abi3-<platform>``, for CPython 3.10 and every
later version.  The
free-threaded build of CPython (3.13t) has no stable ABI: there the module is compiled
for that interpreter alone (its own tag).  When there is no compiler, or the environment variable
``CARDRULES_NO_EXTENSION`` is set, the build says so and the wheel is pure Python, with
the same behaviour.  An editable install compiles the module in place, next to the
source.  ``CARDRULES_PURE_PYTHON=1`` at run time turns a compiled module off.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = os.path.join("src", "cardrules", "_speedups.c")

#: The oldest CPython whose stable ABI the module is built on (Py_LIMITED_API), and its tag.
LIMITED_API = "0x030A0000"
ABI3_TAG = "cp310-abi3"


def limited_api() -> bool:
    """Whether this interpreter can build (and load) a stable-ABI module: not the
    free-threaded build, which has no stable ABI."""
    return not sysconfig.get_config_var("Py_GIL_DISABLED")


def platform_tag() -> str:
    """The wheel's platform tag, chosen as hatchling chooses it for a wheel it tags itself
    (``linux_x86_64``; on macOS, from the deployment target)."""
    import sys

    from packaging.tags import sys_tags

    # the first tag of this interpreter but a manylinux or musllinux one (which only
    # auditwheel may claim)
    tag = next(t for t in sys_tags() if "manylinux" not in t.platform and "musllinux" not in t.platform)
    if sys.platform == "darwin":
        from hatchling.builders.macos import process_macos_plat_tag

        return str(process_macos_plat_tag(tag.platform, compat=False))
    return tag.platform


def compile_speedups(root: str, work: str) -> str:
    """Compile the extension with setuptools' ``build_ext``; the path of the built file."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    here = os.getcwd()
    os.chdir(root)  # build_ext wants the sources relative to the project
    try:
        if limited_api():
            extension = Extension(
                "cardrules._speedups",
                [SOURCE],
                define_macros=[("Py_LIMITED_API", LIMITED_API)],
                py_limited_api=True,  # the file is named _speedups.abi3.so
            )
        else:
            extension = Extension("cardrules._speedups", [SOURCE])
        dist = Distribution({"name": "cardrules", "ext_modules": [extension]})
        cmd = build_ext(dist)
        cmd.build_lib = os.path.join(work, "lib")
        cmd.build_temp = os.path.join(work, "temp")
        cmd.ensure_finalized()
        cmd.run()
        return os.path.abspath(cmd.get_ext_fullpath("cardrules._speedups"))
    finally:
        os.chdir(here)


class SpeedupsBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if os.environ.get("CARDRULES_NO_EXTENSION"):
            self.app.display_info(
                "cardrules: the optional C accelerator was skipped (CARDRULES_NO_EXTENSION is set); "
                "the wheel is pure Python"
            )
            return
        self._work = tempfile.mkdtemp(prefix="cardrules-build-")
        try:
            built = compile_speedups(self.root, self._work)
            name = os.path.basename(built)
            if version == "editable":  # the package is imported from src/: put it there
                shutil.copyfile(built, os.path.join(self.root, "src", "cardrules", name))
        except Exception as exc:  # no compiler, no headers, a read-only tree: pure Python
            self.app.display_warning(
                "cardrules: the optional C accelerator was skipped: it could not be compiled "
                f"({type(exc).__name__}: {exc}); cardrules is installed in pure Python, with the same "
                "behaviour (set CARDRULES_NO_EXTENSION=1 to skip it without trying)"
            )
            return
        if version != "editable":
            build_data["force_include"][built] = f"cardrules/{name}"
            build_data["pure_python"] = False
            if limited_api():
                build_data["tag"] = f"{ABI3_TAG}-{platform_tag()}"
            else:
                build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work:
            shutil.rmtree(work, ignore_errors=True)
