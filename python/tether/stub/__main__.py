"""``python -m tether.stub``: the stub generator's command line (see ``tether.stub.cli``)."""
import sys

from .cli import __main__ as _main

sys.exit(_main())
