"""bench.push_snapshot, small: the pushes of a short match drawn again by the same code are the same bytes, and a
push that changed is reported (the check behind a restructuring that must change nothing players see)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench.push_snapshot", "--games", "gin,thunee", "--moves", "8", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_same_code_draws_the_same_pushes_and_a_change_is_reported(tmp_path):
    saved = _run("--save", str(tmp_path))
    assert saved.returncode == 0, saved.stdout[-3000:] + saved.stderr[-3000:]
    same = _run("--check", str(tmp_path))
    assert same.returncode == 0, same.stdout[-3000:] + same.stderr[-3000:]
    assert same.stdout.strip().endswith("of 2 games drawn again: 0 differ")

    pushes = json.loads((tmp_path / "pushes.json").read_text(encoding="utf-8"))
    pushes[3]["html"] = pushes[3]["html"].replace("<", "<!-- earlier code -->\n<", 1)
    (tmp_path / "pushes.json").write_text(json.dumps(pushes, ensure_ascii=False), encoding="utf-8")
    changed = _run("--check", str(tmp_path))
    assert changed.returncode == 1
    assert "DIFFERS gin move" in changed.stdout and "1 differ" in changed.stdout
