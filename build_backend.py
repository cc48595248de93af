"""The build backend: setuptools', which also compiles the fast counter's kernels into a wheel it builds.

``pip install .`` (or of an sdist) builds the wheel on the machine it installs
on.  After copying the sources, :class:`BuildPyWithKernels` runs
``python -m hornermcts.cost.kernels`` on them, then a small ``optimize``
(:data:`WARM_PIPELINE`, for the kernels of later stages), and Numba writes the compiled kernels
into the build's ``hornermcts/__pycache__``, which the wheel ships; Numba loads
them after the install, since it keys them by the source's content, its own
version and the CPU.  The first ``optimize`` then loads them instead of
compiling them for 10-15 s (issue 37 item 4).  If anything goes wrong the wheel
is built without them, and they compile on first use, announced (see
``hornermcts/cost/kernels.py``).

An editable install (the README's ``pip install -e``, the CI) does the same
on the sources themselves: Numba writes the kernels into their
``__pycache__`` folders, where the installed package reads them.  Both builds
get the runtime dependencies in their build environment
(:func:`get_requires_for_build_wheel`, :func:`get_requires_for_build_editable`).
``HORNERMCTS_NO_KERNEL_BUILD=1`` skips the step.
"""
import os
import subprocess
import sys
import tempfile

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F401,F403  (every other hook is setuptools')
from setuptools.command.build_py import build_py

#: What compiling the kernels imports: hornermcts.cost.fast_counter and its modules, and the small optimize
#: (:data:`WARM_PIPELINE`) all the runtime dependencies.
KERNEL_BUILD_REQUIRES = ["numba>=0.59", "numpy>=1.24", "sympy>=1.12", "networkx>=3.0", "tqdm>=4.60",
                         "python-flint>=0.9"]


def get_requires_for_build_wheel(config_settings=None):
    return build_meta.get_requires_for_build_wheel(config_settings) + KERNEL_BUILD_REQUIRES


def get_requires_for_build_editable(config_settings=None):
    return build_meta.get_requires_for_build_editable(config_settings) + KERNEL_BUILD_REQUIRES


#: A small default ``optimize`` of a file, whose new variables are searched, and its C code: it compiles the
#: kernels of the file reader (``hornermcts.parse.term_lines``), of the structural order, of the search for new
#: variables (``hornermcts.rewrites.shift``, nine signatures, 2.6 s on first use) and of the emission
#: (``hornermcts.codegen.lowering``/``render``/``compensated``, 4.3 s), which ``cost.kernels`` may not import
#: (they sit in other stages), with the fast counter's and the error bound's.
WARM_PIPELINE = ("import hornermcts, hornermcts.order.splitting, sympy, tempfile, os\n"
                 "from hornermcts.polynomial.text import write_text\n"
                 "x, y, z = sympy.symbols('x y z')\n"
                 "p = hornermcts.from_sympy(sympy.expand((x + y + z)**6 + (x - y)**5 + 3*x*y*z))\n"
                 "with tempfile.TemporaryDirectory() as d:\n"
                 "    write_text(p, os.path.join(d, 'p.txt'))\n"
                 "    hornermcts.parse.term_lines.COMPILED_FROM_BYTES = 0  # scanned, as files from 4 MB on\n"
                 "    r = hornermcts.optimize(hornermcts.read_file(os.path.join(d, 'p.txt')), iterations=20,"
                 " progress=None)\n"
                 "hornermcts.order.splitting.splitting_orders(p)  # the default's run from it (from 100 terms on)\n"
                 "for precision in ('double', 'compensated'):  # the emission's compiled passes\n"
                 "    hornermcts.codegen.to_c(r, precision=precision)\n")


class BuildPyWithKernels(build_py):
    def run(self):
        super().run()
        if os.environ.get("HORNERMCTS_NO_KERNEL_BUILD"):
            return
        # a wheel's kernels go into its copy of the sources; an editable install's into the sources themselves
        sources = os.path.abspath(os.path.dirname(__file__) if getattr(self, "editable_mode", False)
                                  else self.build_lib)
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}  # Numba's in-tree cache
        # the sources first; pip's isolated build environment stays on the path after them
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [sources, env.get("PYTHONPATH")]))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        try:
            with tempfile.TemporaryDirectory() as elsewhere:  # not the sources' folder, which `-m` would put first
                for command in (["-m", "hornermcts.cost.kernels"], ["-c", WARM_PIPELINE]):
                    subprocess.run([sys.executable, *command], env=env, check=True, timeout=600, cwd=elsewhere)
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"hornermcts: kernels not compiled at build ({exc}); they compile on first use", file=sys.stderr)
