"""``xianniu shengji replay``: golden records replay to their results; bad records exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.cli import main

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("shengji_*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_result(path, capsys):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert main(["shengji", "replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "shengji" and out["finished"]
    assert out["result"] == record["result"]
    assert out["actions"] == len(record["actions"]) == len(out["lines"])


def test_text_output_names_the_result(capsys):
    assert main(["shengji", "replay", str(GOLDEN[0])]) == 0
    assert "result: attackers' points" in capsys.readouterr().out


def _one_line_error(args, capsys) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("xianniu: error:")
    return err[0]


def test_illegal_action_is_named_by_its_index(tmp_path, capsys):
    record = json.loads(GOLDEN[0].read_text(encoding="utf-8"))
    plays = [i for i, a in enumerate(record["actions"]) if a["action"] == "play"]
    i = plays[1]  # a follow: make it come from the wrong seat
    record["actions"][i]["seat"] = (record["actions"][i]["seat"] + 1) % 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert f"action {i}: " in _one_line_error(["shengji", "replay", str(bad)], capsys)


@pytest.mark.parametrize("text", ["{not json", '{"format": "xianniu-shengji-record"}', "[]"])
def test_malformed_files_exit_2(tmp_path, text, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    _one_line_error(["shengji", "replay", str(bad)], capsys)


def test_missing_file_exits_2(tmp_path, capsys):
    _one_line_error(["shengji", "replay", str(tmp_path / "none.json")], capsys)
