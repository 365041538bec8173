"""The jnt Python package, built offline from Debian's setuptools:

    pip install --no-build-isolation --no-index ./python

The metadata is in pyproject.toml. This file puts into the package what it
needs at run time beside its modules, laid out as an install prefix:

    jnt/lib/libjnt.so            the library (ctypes loads it)
    jnt/include/jnt/*.h          the headers the JIT compiles models against
    jnt/share/jnt/stdlib/*.jnt   the standard library of laws

libjnt.so finds include/ and share/jnt/stdlib beside its own lib/ folder
(compiler/front/paths.c), so the installed package needs no JNT_* variable. The
files come from the package folder when make staged them there (make
python-package: $B/python), else from the source tree: the build directory
$JNT_BUILD_DIR (relative to the source tree, as make's B=), default
build/ (make builds it first)."""
import glob
import os
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build_dir():
    """The build directory: $JNT_BUILD_DIR (relative to the source tree, as
    make's B=), default build/."""
    return os.path.join(ROOT, os.environ.get("JNT_BUILD_DIR") or "build")


def payload():
    """(source, destination inside the package) of each file to bundle, or
    [] when the package folder already holds them (a staged tree); raises
    SystemExit naming the build directory when libjnt.so is not built."""
    if os.path.exists(os.path.join(HERE, "jnt", "lib", "libjnt.so")):
        return []
    lib = os.path.join(build_dir(), "libjnt.so")
    if not os.path.isfile(lib):
        raise SystemExit("jnt: error: %s not found: run 'make' in %s first (or set JNT_BUILD_DIR "
                         "to the build directory)" % (lib, ROOT))
    files = [(lib, "lib/libjnt.so")]
    for h in sorted(glob.glob(os.path.join(ROOT, "runtime", "include", "jnt", "*.h"))):
        files.append((h, "include/jnt/" + os.path.basename(h)))
    for s in sorted(glob.glob(os.path.join(ROOT, "stdlib", "*.jnt"))):
        files.append((s, "share/jnt/stdlib/" + os.path.basename(s)))
    return files


def version():
    """JNT_VERSION of the jnt.h the package carries (or will carry)."""
    for h in (os.path.join(HERE, "jnt", "include", "jnt", "jnt.h"),
              os.path.join(ROOT, "runtime", "include", "jnt", "jnt.h")):
        if os.path.exists(h):
            with open(h) as f:
                m = re.search(r'^#define JNT_VERSION "([^"]+)"', f.read(), re.M)
            if m:
                return m.group(1)
    raise SystemExit("jnt: error: no jnt.h to read the version from")


class BuildPy(build_py):
    """build_py, then the library, headers and stdlib into the package."""

    def run(self):
        super().run()
        for src, rel in payload():
            dst = os.path.join(self.build_lib, "jnt", rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            shutil.copymode(src, dst)


class BinaryDistribution(Distribution):
    """The package carries a compiled library: a platform wheel, not a
    pure-Python one."""

    def has_ext_modules(self):
        return True


def build_options():
    """In the source tree, setuptools' scratch folders go under the build
    directory (B/pybuild), not into python/: the tree stays as it was."""
    if os.path.exists(os.path.join(HERE, "jnt", "lib", "libjnt.so")):
        return {}
    base = os.path.join(build_dir(), "pybuild")
    return {"build": {"build_base": base}, "egg_info": {"egg_base": base}}


setup(version=version(), cmdclass={"build_py": BuildPy}, distclass=BinaryDistribution,
      options=build_options())
