"""The systemd units of deploy/systemd/ pass `systemd-analyze verify` (installed at /srv/cartes, as the operator's
guide says: checked here with this clone standing for /srv/cartes and its current release), and each process
reads the one env file."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
ANALYZE = shutil.which("systemd-analyze")


def installed(tmp_path: Path) -> list[Path]:
    """The units as installed, /srv/cartes/current (the running release) and /srv/cartes being this clone, and
    /etc/cartes a folder of the test."""
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "cartes.env").write_text((ROOT / ".env.example").read_text(encoding="utf-8"), encoding="utf-8")
    (etc / "haproxy.cfg").write_text((ROOT / "deploy" / "haproxy.cfg").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "units"
    out.mkdir()
    paths = []
    for unit in sorted(UNITS.iterdir()):
        text = unit.read_text(encoding="utf-8").replace("/srv/cartes/current", str(ROOT))
        text = text.replace("/srv/cartes", str(ROOT)).replace("/etc/cartes", str(etc))
        name = unit.name.replace("@.service", "@8001.service")  # a template is verified through an instance
        (out / name).write_text(text, encoding="utf-8")
        paths.append(out / name)
    return paths


def test_the_units_pass_systemd_analyze_verify(tmp_path):
    if ANALYZE is None:
        if os.environ.get("E2E_REQUIRED"):  # CI (.ci/run installs it)
            pytest.fail("systemd-analyze is missing: apt-get install systemd")
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    paths = installed(tmp_path)
    result = subprocess.run([ANALYZE, "verify", "--man=no", *map(str, paths)], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if line.strip() and "Failed to connect to bus" not in line]
    assert result.returncode == 0 and not problems, "\n".join(problems)


def test_every_process_restarts_and_reads_the_one_env_file():
    for unit in UNITS.glob("*.service"):
        text = unit.read_text(encoding="utf-8")
        assert "EnvironmentFile=/etc/cartes/cartes.env" in text, unit.name
        if unit.name not in ("cartes-clearsessions.service", "cartes-backup.service"):  # oneshots, run by timers
            assert "Restart=always" in text, unit.name
        if "User=" in text:
            assert "User=cartes" in text, unit.name
