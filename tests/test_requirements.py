"""The lock files (docs/operations.md, « Dependencies »): requirements/runtime.txt pins the site's dependencies with
their hashes and holds no test tool, requirements/dev.txt adds the tools at the same runtime versions, and
`make run` installs the first one only. No database."""

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
RUNTIME_DEPENDENCIES = [Requirement(text) for text in PROJECT["dependencies"]]
TEST_DEPENDENCIES = [Requirement(text) for text in PROJECT["optional-dependencies"]["test"]]
TEST_TOOLS = {"pytest", "pytest-django", "pytest-asyncio", "pytest-playwright", "playwright", "hypothesis", "ruff",
              "import-linter", "grimp", "pluggy", "iniconfig", "aiosmtpd"}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})*)\s*$")


def pins(name: str) -> dict[str, tuple[Version, int]]:
    """{package: (version, number of hashes)} of a lock file, its continuation lines joined and comments dropped."""
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8").replace("\\\n", " ")
    found = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"requirements/{name}: not a hashed pin: {line[:120]}"
        found[canonicalize_name(match[1])] = (Version(match[2]), match[3].count("--hash="))
    return found


RUNTIME = pins("runtime.txt")
DEV = pins("dev.txt")


def test_the_lock_files_are_read():
    assert {"django", "channels", "daphne", "psycopg-binary", "twisted"} <= RUNTIME.keys()
    assert {"pytest", "ruff", "hypothesis"} <= DEV.keys()


@pytest.mark.parametrize("lock", [RUNTIME, DEV], ids=["runtime.txt", "dev.txt"])
def test_every_pin_has_its_hashes(lock):
    assert lock and all(hashes >= 1 for _version, hashes in lock.values())


@pytest.mark.parametrize("requirement", RUNTIME_DEPENDENCIES, ids=str)
def test_every_runtime_dependency_is_pinned_in_runtime_txt_within_its_range(requirement):
    name = canonicalize_name(requirement.name)
    assert name in RUNTIME, f"{name} is not in requirements/runtime.txt: run `make lock`"
    version, _hashes = RUNTIME[name]
    assert requirement.specifier.contains(version, prereleases=True), (name, str(version), str(requirement))


@pytest.mark.parametrize("requirement", TEST_DEPENDENCIES, ids=str)
def test_every_test_dependency_is_pinned_in_dev_txt_within_its_range(requirement):
    name = canonicalize_name(requirement.name)
    assert name in DEV, f"{name} is not in requirements/dev.txt: run `make lock`"
    assert requirement.specifier.contains(DEV[name][0], prereleases=True), (name, str(DEV[name][0]))


def test_no_test_tool_is_in_the_runtime_lock():
    tools = TEST_TOOLS | {canonicalize_name(requirement.name) for requirement in TEST_DEPENDENCIES}
    assert not tools & RUNTIME.keys(), sorted(tools & RUNTIME.keys())


def test_dev_txt_has_every_runtime_pin_at_the_same_version():
    differ = {name: (str(version), str(DEV[name][0]) if name in DEV else None)
              for name, (version, _hashes) in RUNTIME.items() if name not in DEV or DEV[name][0] != version}
    assert not differ, differ


def test_channels_redis_is_held_to_the_minor_version_whose_internals_the_site_overrides():
    """rummy_site/redis_layer.py overrides private parts of channels_redis.pubsub: the range stays within 4.3."""
    (requirement,) = [r for r in RUNTIME_DEPENDENCIES if canonicalize_name(r.name) == "channels-redis"]
    assert requirement.specifier.contains("4.3.0") and not requirement.specifier.contains("4.4.0")
    version = RUNTIME["channels-redis"][0]
    assert (version.major, version.minor) == (4, 3), version


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_installs_the_runtime_lock_and_make_test_the_dev_lock(tmp_path):
    """A dry run (`make -n`) on a venv that does not exist shows what each command would install."""
    def plan(target):
        result = subprocess.run(["make", "-n", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    for target in ("run", "db", "cluster", "setup-runtime"):
        commands = plan(target)
        assert "pip install -q --require-hashes -r requirements/runtime.txt" in commands, commands
        assert "requirements/dev.txt" not in commands, commands
    for target in ("test", "lint", "setup"):
        commands = plan(target)
        assert "pip install -q --require-hashes -r requirements/dev.txt" in commands, commands
