"""`python -m toolcast`: the `toolcast` command."""

import sys

from toolcast.cli.main import main

sys.exit(main())
