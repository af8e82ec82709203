"""Records where the package was built from, so that an installed copy
finds the hipvis-analyze of that checkout's build/ (docs/python.md, "Which
hipvis-analyze"). Everything else is in pyproject.toml."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPyWithCheckout(build_py):
    def run(self):
        super().run()
        checkout = os.path.dirname(HERE)
        if not os.path.isfile(os.path.join(checkout, "Makefile")):
            return  # built from a copy of python/ alone: no checkout to remember
        target = os.path.join(self.build_lib, "hipvis", "_checkout.py")
        with open(target, "w", encoding="utf-8") as f:
            f.write('"""Written by setup.py at build time: the checkout the package was built from."""\n')
            f.write(f"CHECKOUT = {checkout!r}\n")


setup(cmdclass={"build_py": BuildPyWithCheckout})
