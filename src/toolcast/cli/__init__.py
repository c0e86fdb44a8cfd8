"""The `toolcast` command line (its entry point is toolcast.cli.main:main)."""


def main(argv=None):
    """Run `toolcast` (kept for entry points that name `toolcast.cli:main`)."""
    from toolcast.cli.main import main as run

    return run(argv)
