"""The compiled playout and search-tree core (``ai/_fastcore.c``) and Naked Diagonal's compiled
area loops (``rules/_ndcore.c``) and Minefield's glyph mask (``rules/_minecore.c``), optional
extensions.

Everything else about the package is in pyproject.toml.  ``pip install -e .`` (or ``pip install
.``) builds the extension where a C compiler and Python's headers exist; ``optional=True``
makes a failed build a warning, not an error, and then ``ai.fast`` runs its pure-Python
kernels, which play the same playouts (and says so once in the log), and ``ai.tree`` its
pure-Python tree.  ``-O2`` and no ``-march``: a wheel built here must run on any machine of the
same platform.  ``-ffp-contract=off``: a fused multiply-add, which some platforms' compilers
emit by default, would round the search tree's scores otherwise than Python does.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "ai._fastcore",
            sources=["ai/_fastcore.c"],
            depends=[
                "ai/_fastcore_kernels.h",
                "ai/_fastcore_paths.h",
                "ai/_fastcore_tree.h",
                "rules/_pyint_words.h",
            ],
            # No fused multiply-add: the tree's scores must round as Python's do.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
        # Naked Diagonal's area-check loops (rules/nd_core.py): rules/ never imports ai/.
        Extension(
            "rules._ndcore",
            sources=["rules/_ndcore.c"],
            depends=["rules/_pyint_words.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        # Minefield's glyph mask (rules/minefield.py), which the engine asks after every move.
        Extension(
            "rules._minecore",
            sources=["rules/_minecore.c"],
            depends=["rules/_pyint_words.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
