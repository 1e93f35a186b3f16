"""Which folders the wheel installs, and under which names; everything else about the project is in pyproject.toml.

The layer folders stay at the top of the repository (``engine/``, ``graph/``, ``nodes/``, ``prompts/``, ``state/``,
``tools/``) and are imported as ``satiate.<folder>``. pyproject.toml alone cannot say "every package under these
folders, renamed with a prefix" (``packages.find`` keeps the names it finds), so a hand-written table had to be
edited for every new subfolder, and a forgotten one was silently missing from the wheel. Here the table is computed:
every package (a folder with ``__init__.py``) under a layer folder, at any depth. ``tests/test_wheel.py`` builds the
wheel and checks it.
"""

from setuptools import find_packages, setup

LAYERS = ("engine", "graph", "nodes", "prompts", "state", "tools")

found = find_packages(include=[name for layer in LAYERS for name in (layer, f"{layer}.*")])

setup(
    packages=[f"satiate.{package}" for package in found],
    package_dir={f"satiate.{package}": package.replace(".", "/") for package in found},
)
