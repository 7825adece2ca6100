"""Compile every kernel the commands use, once, so that later runs start warm (cache=True).

Usage: python scripts/warmup.py   (the same as ``xianniu warmup``)
"""

import sys

from analyzer.cli import main

if __name__ == "__main__":  # the warm-up's worker processes import this file again
    sys.exit(main(["warmup", *sys.argv[1:]]))
