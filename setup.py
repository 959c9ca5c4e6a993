"""The build of `pip install .` (pyproject.toml): CMake configures the top-level CMakeLists.txt
for the Python module only (Release, no tests, benchmarks or examples), builds the target
trisect_python, and the extension it makes goes into the wheel beside python/trisect/.

CMAKE_BUILD_PARALLEL_LEVEL sets the build's parallel jobs (default 2); CMAKE_ARGS adds configure
arguments (split as a shell would). CMake itself reads CMAKE_GENERATOR and
CMAKE_CXX_COMPILER_LAUNCHER (e.g. ccache) from the environment."""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def cmake_project():
    """(version, description) of project(trisect ...) in CMakeLists.txt: their one home."""
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(
        r'^project\(trisect\s+VERSION\s+([0-9.]+)\s+DESCRIPTION\s+"([^"]*)"', text, re.MULTILINE
    )
    if not found:
        raise RuntimeError("CMakeLists.txt: no project(trisect VERSION ... DESCRIPTION \"...\")")
    return found.group(1), found.group(2)


class CMakeBuild(build_ext):
    """Builds trisect._trisect with CMake instead of compiling sources itself."""

    def build_extension(self, ext):
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = [
            "cmake",
            "-S", str(ROOT),
            "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DTRISECT_BUILD_TESTS=OFF",
            "-DTRISECT_BUILD_BENCH=OFF",
            "-DTRISECT_BUILD_EXAMPLES=OFF",
            "-DTRISECT_BUILD_PYTHON=ON",
            "-DTRISECT_REQUIRE_PYTHON=ON",  # no NumPy or pybind11: an error, not a skip
            f"-DPython3_EXECUTABLE={sys.executable}",  # the interpreter pip installs for
            *shlex.split(os.environ.get("CMAKE_ARGS", "")),
        ]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or "2"
        build = ["cmake", "--build", str(build_dir), "--target", "trisect_python"]
        subprocess.run([*build, "--parallel", jobs], check=True)
        name = "_trisect" + sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "trisect" / name
        if not built.is_file():
            raise RuntimeError(f"CMake built no {built}")
        destination = pathlib.Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, destination)


version, description = cmake_project()
setup(
    version=version,
    description=description,
    packages=["trisect"],
    package_dir={"trisect": "python/trisect"},
    package_data={"trisect": ["__init__.pyi", "py.typed"]},  # the stubs (PEP 561)
    ext_modules=[Extension("trisect._trisect", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
