"""Shared helpers (``cli_checks``) live beside this file; make them importable from every
game's test folder."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
