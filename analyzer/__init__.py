"""xianniu: Monte Carlo strategy analysis of the card games of north-west and central China.

One package per game (:mod:`analyzer.xianniu` 掀牛, :mod:`analyzer.dingniu` 顶牛) over a
game-neutral core (:mod:`analyzer.core`) and the report machinery (:mod:`analyzer.report`).
"""

__version__ = "0.1.0"
