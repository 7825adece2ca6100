"""郑州双升's web table: none yet (issue 29 builds it).

Every game package has the same parts (``analyzer.core.registry.PARTS``); this one is
where the 双升 table will live, as the other games' ``web.py`` hold theirs. Until it is
built there is no table to serve: :data:`GAME` is None.
"""

from __future__ import annotations

GAME = None  # no web table yet (issue 29)
