"""The documentation stays a door and a set of pages that hold together (issue 33): the README short, its first
commands the two that CI and newcomers rely on, every relative link alive, no runaway prose lines, and the
ladder table of bench/RESULTS.md what `python -m bench.ladder --table` prints. No database."""

import re
from pathlib import Path

import pytest

from bench import ladder

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RESULTS = ROOT / "bench" / "RESULTS.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
PROSE_PAGES = [README, *DOCS]  # the pages whose prose lines are checked
LINKED_PAGES = [README, *DOCS, RESULTS]  # the pages whose relative links are checked

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
CODE_SPAN = re.compile(r"`[^`]*`")
MAX_PROSE_LINE = 200


def page_lines(path: Path) -> list[tuple[int, str, bool]]:
    """(line number, text, inside a fenced code block) for each line of a Markdown page."""
    lines, fenced = [], False
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(text):
            lines.append((number, text, True))
            fenced = not fenced
            continue
        lines.append((number, text, fenced))
    return lines


def relative_links(path: Path) -> list[tuple[int, str]]:
    """The page's link targets that are neither absolute URLs nor anchors in the page itself."""
    found = []
    for number, text, fenced in page_lines(path):
        if fenced:
            continue
        prose = CODE_SPAN.sub("", text)
        targets = INLINE_LINK.findall(prose)
        reference = REFERENCE_LINK.match(prose)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            found.append((number, target))
    return found


def first_code_block(path: Path) -> str:
    block, inside = [], False
    for _number, text, _fenced in page_lines(path):
        if FENCE.match(text):
            if inside:
                return "\n".join(block)
            inside = True
            continue
        if inside:
            block.append(text)
    return "\n".join(block)


def test_the_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move the detail into docs/"


def test_the_readmes_first_code_block_is_the_two_commands():
    block = first_code_block(README)
    assert "make run" in block and "make test" in block, block


def test_the_pages_checked_are_there():
    names = {path.relative_to(ROOT).as_posix() for path in LINKED_PAGES}
    assert {"README.md", "bench/RESULTS.md", "docs/manual.md", "docs/operations.md", "docs/architecture.md",
            "docs/adding-a-game.md", "docs/testing.md", "docs/rules-decisions.md",
            "docs/decisions/README.md"} <= names


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file_that_exists(page):
    broken = []
    for number, target in relative_links(page):
        path = target.split("#", 1)[0].split("?", 1)[0]
        if not (page.parent / path).exists():
            broken.append(f"{page.relative_to(ROOT)}:{number}: {target}")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("page", PROSE_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_prose_line_runs_away(page):
    long = [f"{page.relative_to(ROOT)}:{number}: {len(text)} characters"
            for number, text, fenced in page_lines(page)
            if not fenced and not text.lstrip().startswith("|") and len(text) > MAX_PROSE_LINE]
    assert not long, "\n".join(long)


def test_the_results_ladder_table_is_what_the_ladder_prints():
    """bench/RESULTS.md keeps the table as `python -m bench.ladder --table` prints it from bench/ladder.json:
    after a ladder run, paste the new output there."""
    lines = RESULTS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if text.startswith("| game | length |"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    assert "\n".join(lines[start:end]) == ladder.table(ladder.load())


def test_the_link_finder_finds_links(tmp_path):
    """The checks above see links in every form the pages use, and skip URLs, anchors and code."""
    sample = tmp_path / "sample.md"
    sample.write_text("See [a](docs/a.md#x) and [b](https://example.org) and [c](#here).\n"
                      "`[d](not/a/link.md)`\n```\n[e](in/code.md)\n```\n[f]: ../f.md\n", encoding="utf-8")
    assert relative_links(sample) == [(1, "docs/a.md#x"), (6, "../f.md")]
