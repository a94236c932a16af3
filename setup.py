"""Declares the Cython extension modules; everything else is in pyproject.toml.

Each ``ext/_name.pyx`` is compiled into ``mksim._name``.
"""
import os
from pathlib import Path

import numpy as np
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# A clean build compiles ~18 units, the 4 MB _engine.c among them: serially that is ~12 min of
# one core at -O3, most of CI's 20-minute budget.  Both steps run on every core unless told
# otherwise (MKSIM_BUILD_JOBS, or build_ext's own -j): Cython's translation (cythonize's
# nthreads) and the C compiles (distutils' parallel build_ext, also used by pip's PEP 517 and
# editable builds, which pass no -j).
JOBS = int(os.environ.get("MKSIM_BUILD_JOBS", "0")) or os.cpu_count() or 1


class ParallelBuildExt(build_ext):
    """``build_ext`` that compiles the extension modules in parallel by default."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

EXT_DIR = Path("ext")
# Cython finds a module's header by its qualified name (mksim/_name.pxd).  The headers live
# beside their sources in ext/, so the build mirrors them into a git-ignored include folder
# laid out as the package; other modules then write `from mksim._types cimport ...`.
PXD_MIRROR = Path("build") / "cython_include"

# ext/_actions.pxd (the C enum of action kinds, cimported by ext/_engine.pxd) is generated from
# the one table of action kinds, mksim/actions.py, before the headers are mirrored.
_gen_actions = {"__name__": "gen_actions", "__file__": str(EXT_DIR.resolve() / "gen_actions.py")}
exec(compile((EXT_DIR / "gen_actions.py").read_text(), _gen_actions["__file__"], "exec"), _gen_actions)
_gen_actions["main"](EXT_DIR.resolve())

(PXD_MIRROR / "mksim").mkdir(parents=True, exist_ok=True)
(PXD_MIRROR / "mksim" / "__init__.pxd").write_text("")
for pxd in EXT_DIR.glob("_*.pxd"):
    target = PXD_MIRROR / "mksim" / pxd.name
    if not target.exists() or target.read_text() != pxd.read_text():
        target.write_text(pxd.read_text())

# ext/_fields.pxi (included by ext/_state.pyx) is generated from the struct headers, so that
# the fixture conversion (GameCore.raw_dict / set_raw) always covers every field.
_gen = {"__name__": "gen_fields", "__file__": str(EXT_DIR.resolve() / "gen_fields.py")}
exec(compile((EXT_DIR / "gen_fields.py").read_text(), _gen["__file__"], "exec"), _gen)
_gen["main"](EXT_DIR.resolve())

# MKSIM_DEV_BUILD=1 compiles with -O0: the 4 MB _engine.c then builds in ~5 s instead of
# ~50 s, for edit-build-test cycles.  Releases, CI and benchmarks use -O3.
OPT = "-O0" if os.environ.get("MKSIM_DEV_BUILD") else "-O3"
# Python's own CFLAGS carry -g; the debug information is about a third of the C compiler's time
# at -O3 (gcc on _fx_spells.c: 10.2 s user with it, 7.0 s without) and changes no generated
# code (gcc's -g never alters it), so optimised builds leave it out: issue 12's rebuild of one
# handler group stays under 15 s.  Function names stay (callgrind, perf); MKSIM_DEBUG_INFO=1
# keeps -g for line-level profiling.  Development builds (-O0) keep it for debuggers.
FLAGS = [OPT] if OPT == "-O0" or os.environ.get("MKSIM_DEBUG_INFO") else [OPT, "-g0"]

extensions = [
    Extension(
        f"mksim.{pyx.stem}",
        [str(pyx)],
        include_dirs=[np.get_include(), str(EXT_DIR)],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=FLAGS,
    )
    for pyx in sorted(EXT_DIR.glob("_*.pyx"))
]

CYTHON_OPTIONS = dict(
    include_path=[str(PXD_MIRROR), str(EXT_DIR)],
    language_level=3,
    nthreads=JOBS,
    compiler_directives={
        "boundscheck": False,
        "wraparound": False,
        "cdivision": True,
        "initializedcheck": False,
    },
)


#: Touched after every full translation (cythonize of all modules succeeded): the C files are
#: then consistent with every header and include as of its modification time.
CYTHON_STAMP = Path("build") / "cython_translated.stamp"


def cythonize(exts, **options):
    from Cython.Build import cythonize as translate
    return translate(exts, **options)


def _cythonize_all(exts):
    out = cythonize(exts, **CYTHON_OPTIONS)
    CYTHON_STAMP.parent.mkdir(parents=True, exist_ok=True)
    CYTHON_STAMP.touch()
    return out


def _translated(exts):
    """The extensions as setuptools builds them: Cython translates the ones whose C file is
    missing or older than its .pyx; the others are built from their C files as they are.
    Cython's own check (cythonize) scans every module's cimports and includes, ~2 s of each
    build even when nothing changed; this one only looks at modification times, and falls back
    to cythonize for all of them (Cython's own check) when a header, an included .pxi, this
    file or the generators changed after the last full translation (:data:`CYTHON_STAMP`; any
    module may depend on those)."""
    c_of = {e.name: Path(e.sources[0]).with_suffix(".c") for e in exts}
    if not CYTHON_STAMP.exists() or not all(c.exists() for c in c_of.values()):
        return _cythonize_all(exts)
    stamp = CYTHON_STAMP.stat().st_mtime
    shared = [*EXT_DIR.glob("*.pxd"), *EXT_DIR.glob("*.pxi"), *EXT_DIR.glob("gen_*.py"),
              Path(__file__), Path("mksim") / "actions.py"]
    if any(f.exists() and f.stat().st_mtime >= stamp for f in shared):
        return _cythonize_all(exts)
    stale = [e for e in exts if Path(e.sources[0]).stat().st_mtime >= c_of[e.name].stat().st_mtime]
    for e in exts:
        if e not in stale:
            e.sources = [str(c_of[e.name])]
    return (cythonize(stale, **CYTHON_OPTIONS) if stale else []) + [e for e in exts if e not in stale]


setup(
    cmdclass={"build_ext": ParallelBuildExt},
    ext_modules=_translated(extensions),
)
