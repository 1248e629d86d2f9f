"""The ladder against outside play (`python -m bench.ladder`): it measures every match length a game's table
form offers, stores each cell with its interval, and prints the table bench/RESULTS.md and the rules pages show."""

import json

from bench import ladder


def test_the_ladder_covers_every_match_length_the_table_form_offers():
    assert ladder.lengths("gin") == ["1", "100"]
    assert ladder.lengths("rami-traditionnel") == ["1", "100", "250", "500"]
    assert ladder.lengths("thanasis") == [None]
    assert ladder.lengths("thunee") == [None]  # its options are rules, not lengths: whole matches to 12 balls
    assert ladder.lengths("canasta-tuiles") == [None]  # one deal played twice, as the team ladder plays


def test_a_short_ladder_stores_its_cells_and_prints_them(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ladder, "PATH", tmp_path / "ladder.json")
    assert ladder.main(["--games", "gin", "--lengths", "1", "--pairs", "2-0,1-0", "--matches", "4"]) == 0
    stored = json.loads((tmp_path / "ladder.json").read_text())
    cells = stored["gin"]["1"]["cells"]
    assert set(cells) == {"2-0", "1-0"}
    for cell in cells.values():
        assert cell["matches"] == 4 and 0 <= cell["ci95"][0] <= cell["win_rate"] <= cell["ci95"][1] <= 1
    out = capsys.readouterr().out
    assert "| gin | 1 |" in out and "L2 vs Ref" in out


def test_a_cell_played_on_is_the_cell_of_all_its_seeds(tmp_path, monkeypatch):
    """`--extend`: 4 matches, then on to 6, give the cell that 6 matches from seed 0 give."""
    monkeypatch.setattr(ladder, "PATH", tmp_path / "ladder.json")
    args = ["--games", "gin", "--lengths", "1", "--pairs", "2-1"]
    assert ladder.main([*args, "--matches", "4"]) == 0
    assert ladder.main([*args, "--matches", "6", "--extend"]) == 0
    assert ladder.main([*args, "--matches", "6", "--extend"]) == 0  # nothing short any more: unchanged
    played_on = json.loads((tmp_path / "ladder.json").read_text())["gin"]["1"]["cells"]["2-1"]
    monkeypatch.setattr(ladder, "PATH", tmp_path / "whole.json")
    assert ladder.main([*args, "--matches", "6"]) == 0
    whole = json.loads((tmp_path / "whole.json").read_text())["gin"]["1"]["cells"]["2-1"]
    assert played_on == whole and whole["matches"] == 6 and whole["first"] == 0
