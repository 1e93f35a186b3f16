"""``python -m satiate.graph.cli``: the ``satiate`` command without its entry-point script."""

import sys

from satiate.graph.cli import main

if __name__ == "__main__":  # imported (a tool walking the package), it runs nothing
    sys.exit(main())
