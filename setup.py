"""Builds the optional C core of the double-dummy solver (engine/players/_dds.c).

Everything else is in pyproject.toml. The extension is optional: where no compiler is
available the install still succeeds and the solver uses its pure-Python search.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.players._dds",
            ["engine/players/_dds.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
