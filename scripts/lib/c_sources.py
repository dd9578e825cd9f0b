"""The product's C and C++ sources, as the house-rule scripts read them."""

import os

EXTENSIONS = (".c", ".cpp", ".h", ".hpp")


def c_sources(root, folders):
    """Paths relative to `root` of every C/C++ file under `folders`, sorted per folder."""
    for top in folders:
        for folder, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if name.endswith(EXTENSIONS):
                    yield os.path.relpath(os.path.join(folder, name), root)
