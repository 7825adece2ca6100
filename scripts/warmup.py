"""Compile every kernel the commands use, once, so that later runs start warm (cache=True).

Usage: python scripts/warmup.py   (the same as ``xianniu warmup``)
"""

import sys

from analyzer.cli import main

sys.exit(main(["warmup", *sys.argv[1:]]))
