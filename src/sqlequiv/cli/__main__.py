"""``python -m sqlequiv.cli`` (the same as ``python -m sqlequiv``)."""

import sys

from sqlequiv.cli import main

sys.exit(main())
