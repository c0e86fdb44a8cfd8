"""`python -m toolcast`: the `toolcast` command."""

import sys

from toolcast.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
