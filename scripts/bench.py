"""Benchmark the kernels against the reference engine (same as ``xianniu bench``).

Usage: python scripts/bench.py [--rules R] [--json] ...
"""

import sys

from analyzer.cli import main

sys.exit(main(["bench", *sys.argv[1:]]))
