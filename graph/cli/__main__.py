"""``python -m satiate.graph.cli``: the ``satiate`` command without its entry-point script."""

import sys

from satiate.graph.cli import main

sys.exit(main())
