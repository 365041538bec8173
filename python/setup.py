"""The jnt Python package: pip install ./python (no network: setuptools and
numpy from Debian). It loads libjnt.so from $JNT_LIB, from PREFIX/lib when
installed beside it (make install), from the source tree's build/, or from
the linker's path (docs/python.md)."""
from setuptools import setup

setup(
    name="jnt",
    version="0.2.0",
    description="The dynamics of jointed structures: Python over libjnt (ctypes, numpy)",
    packages=["jnt"],
    python_requires=">=3.9",
    install_requires=["numpy"],
)
