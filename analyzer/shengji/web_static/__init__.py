"""The 双升 table's board script and style (served under /game)."""
