"""`.env.example` lists every environment variable the site's code reads, so an operator who copies it misses
none (docs/operations.md explains each)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READ = re.compile(r"(?:os\.environ\.get|os\.getenv|os\.environ\[|env_bool|env_list)"
                  r"""\(?\[?\s*["']([A-Z][A-Z0-9_]+)["']""")
NOT_THE_SITES = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}  # Django's and the tests' own


def variables_read() -> set[str]:
    names = set()
    for folder in ("rummy_site", "tables", "accounts", "problems", "tournaments", "seasons"):
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(READ.findall(path.read_text(encoding="utf-8")))
    return names - NOT_THE_SITES


ASSIGNED = re.compile(r"^(#?)([A-Z][A-Z0-9_]+)=(.*)$")  # `#NAME=`: listed, left to the units (they set it)


def variables_listed() -> set[str]:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    return {match.group(2) for line in lines if (match := ASSIGNED.match(line))}


def test_the_example_reads_the_same_to_systemd_and_to_a_shell():
    """systemd's EnvironmentFile= keeps what follows a value on its line (a `# comment` included) as part of the
    value, and its lines override the unit's own Environment=: no comment after a value, and nothing the units set
    per process (SITE_INSTANCE, READINESS_PORT) assigned here."""
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    assigned = {m.group(2): m.group(3) for line in lines if (m := ASSIGNED.match(line)) and not m.group(1)}
    with_comment = {name: value for name, value in assigned.items() if "#" in value}
    assert not with_comment, with_comment
    unit = (ROOT / "deploy" / "systemd" / "cartes-web@.service").read_text(encoding="utf-8")
    per_process = set(re.findall(r"^Environment=([A-Z_]+)=", unit, flags=re.M))
    assert per_process >= {"SITE_INSTANCE", "READINESS_PORT"}
    assert not per_process & set(assigned), per_process & set(assigned)


def test_every_variable_the_code_reads_is_in_the_example():
    read = variables_read()
    assert {"SECRET_KEY", "DATABASE_URL", "EMAIL_HOST", "SITE_INSTANCE"} <= read  # the scan finds them
    missing = read - variables_listed()
    assert not missing, f"add to .env.example (and docs/operations.md): {sorted(missing)}"


def test_every_variable_listed_is_documented():
    guide = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    undocumented = {name for name in variables_listed() if f"`{name}`" not in guide}
    assert not undocumented, f"explain in docs/operations.md: {sorted(undocumented)}"
