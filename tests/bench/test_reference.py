"""The reference opponents (bench.reference, level 0 of `python -m bench.bots`): a few short matches against
level 1 through the bench's own match functions, every move the reference chose taken from the legal list, and
every match played to its end (no exception, no illegal move, no stall). No database."""

import pytest

from bench import bots, reference

# (game, match option, matches, move cap): one-round matches where the game has the option.
CASES = [
    ("thunee", None, 2, 3000),
    ("thanasis", None, 2, 1500),
    ("rami", "1", 2, 1500),
    ("rami40", "1", 2, 1500),
    ("kalooki", "1", 2, 1500),
    ("rami-traditionnel", "1", 2, 1500),
]


@pytest.fixture
def chosen(monkeypatch):
    """Every (slug, legal, move) the reference decides, seen through the function the bench calls."""
    seen = []
    real = reference.choose

    def spy(slug, view, legal, rng):
        move = real(slug, view, legal, rng)
        seen.append((slug, legal, move))
        return move

    monkeypatch.setattr(reference, "choose", spy)
    return seen


@pytest.mark.parametrize(("slug", "limit", "matches", "cap"), CASES, ids=[c[0] for c in CASES])
def test_reference_plays_legal_moves_to_the_end(chosen, slug, limit, matches, cap):
    assert slug in reference.MODULES
    options = bots.match_options(slug, limit)
    worker = bots.play_whole_team_match if slug in bots.WHOLE_MATCH_TEAM_GAMES else bots.play_match
    for index in range(matches):  # the reference on each side once: the strong level's seat alternates
        result = worker((slug, index, 1, reference.REFERENCE, options, None, cap))
        assert not result["stalled"], f"{slug} match {index} not over after {result['steps']} moves"
    assert chosen, "the reference never had to decide"
    for game, legal, move in chosen:
        assert game == slug
        assert move in legal, f"{slug}: {move} is not among the legal moves {legal}"
    actions = {move["action"] for _, legal, move in chosen if len(legal) > 1}
    assert actions - {"pass", "draw_stock", "jodhi_done"}, f"{slug}: the reference only ever passed or drew"
