"""``python -m skillgrant``: the same command line as the ``skillgrant`` console script."""

from .cli.entry import main

if __name__ == "__main__":
    main()
