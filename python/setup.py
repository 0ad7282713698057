"""Copies libtilecc.so into the package when it is built (``pip install ./python`` after the
build): $TILECC_LIBRARY, else ../build/lib/libtilecc.so. Without it the package looks for the
library at run time (tilecc/_lib.py)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        library = os.environ.get("TILECC_LIBRARY") or os.path.join(HERE, "..", "build", "lib", "libtilecc.so")
        if os.path.exists(library):
            target = os.path.join(self.build_lib, "tilecc", "lib")
            os.makedirs(target, exist_ok=True)
            shutil.copy2(os.path.realpath(library), os.path.join(target, "libtilecc.so"))
        else:
            print(f"tilecc: {library} not found: the package will look for libtilecc.so at run time")


setup(cmdclass={"build_py": BuildPyWithLibrary})
