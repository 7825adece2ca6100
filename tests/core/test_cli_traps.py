"""Small traps a newcomer met, each now one clear line and exit 2."""

from __future__ import annotations

import pytest
from cli_checks import bad


@pytest.mark.parametrize("game", [[], ["dingniu"], ["shengji"]], ids=["xianniu", "dingniu",
                                                                      "shengji"])
def test_simulate_into_a_missing_folder_is_refused_and_makes_no_folder(capsys, tmp_path, game):
    target = tmp_path / "missing" / "dir" / "x.json"
    line = bad(capsys, *game, "simulate", "--hands", "100", "--out", str(target), "--quiet")
    assert "does not exist" in line and str(target.parent) in line
    assert not (tmp_path / "missing").exists()


def test_dingniu_advise_without_a_position_says_what_to_give(capsys):
    line = bad(capsys, "dingniu", "advise")
    assert "give the position" in line and "not both" not in line
