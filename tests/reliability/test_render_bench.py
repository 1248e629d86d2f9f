"""bench.render, small: it plays a short match, keeps its tables, draws them again from the saved file, and
reports a figure for the same number of moves both times (the figure itself is the benchmark's business)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "bench.render", "--matches", "1", "--moves", "12", "--repeat", "1",
                          *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("RESULT "), out.stdout
    return dict(re.findall(r"(\w+)=(\S+)", last))


def test_the_render_bench_draws_the_tables_it_kept(tmp_path):
    kept = tmp_path / "tables.pickle"
    played = _run("--save", str(kept))
    again = _run("--load", str(kept))
    assert played["moves"] == again["moves"] == "12"
    assert float(played["ms_per_move"]) > 0 and float(again["ms_per_move"]) > 0
