"""« Revoir » that explains (tables.annotations): each human move of a finished match commented once, in Celery
after the match, and stored; the round's three costliest moves marked; the step page only reads them."""

import pytest
from django.urls import reverse

from engine import analysis, games
from tables import annotations, replays, scheduler, services, tasks
from tables.models import MoveComment, Table
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_gin(player, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    enqueue = scheduler._enqueue

    def spy(task, args, countdown=0):
        queued.append((task, args, countdown))
        enqueue(task, args, countdown)

    monkeypatch.setattr(scheduler, "_enqueue", spy)
    with django_capture_on_commit_callbacks(execute=True):
        table = play_out(create_table(player, "gin", seats=2, bots={1: 2}))
    assert table.status == Table.Status.FINISHED
    table.queued = queued
    return table


def human_moves(table: Table) -> list[int]:
    engine = games.get("gin")
    seqs, before = [], None
    for entry, state, _events in services.replay_moves(table):
        previous, before = before, state
        if (previous is not None and entry.seat == 0 and entry.move.get("action") not in annotations.NOT_A_DECISION
                and 0 in engine.to_act(previous)):
            seqs.append(entry.seq)
    return seqs


def test_the_end_of_the_match_queues_its_comments_once_and_late(finished_gin):
    annotate = [q for q in finished_gin.queued if q[0] == scheduler.ANNOTATE_MATCH]
    assert annotate == [(scheduler.ANNOTATE_MATCH, (finished_gin.pk,), 2.0)]  # delayed: not run eagerly in tests
    assert not MoveComment.objects.exists()


def test_every_human_move_is_commented_once_and_the_worst_three_of_each_round_marked(finished_gin):
    tasks.annotate_match.run(finished_gin.pk)
    comments = list(MoveComment.objects.filter(table=finished_gin))
    assert [c.seq for c in comments] == human_moves(finished_gin)
    assert {c.seat for c in comments} == {0}  # the robot's moves are not commented
    for c in comments:
        if c.best_move is None:
            assert c.comment == "" and c.cost is None
            continue
        assert c.cost is not None and c.cost >= 0
        assert c.comment.startswith(("Le robot Expert aurait ", "C'est le coup que le robot Expert")), c.comment
    by_round: dict = {}
    for c in comments:
        by_round.setdefault(c.round, []).append(c)
    for rows in by_round.values():
        worst = [c for c in rows if c.worst]
        assert len(worst) <= 3 and all(c.cost > 0 for c in worst)
        others = [c.cost or 0 for c in rows if not c.worst]
        assert all(c.cost >= max(others, default=0) for c in worst)
        assert len(worst) == min(3, sum(1 for c in rows if (c.cost or 0) > 0))
    # idempotent: run again, nothing added nor changed
    before = list(MoveComment.objects.filter(table=finished_gin).values_list("seq", "cost", "comment", "worst"))
    assert annotations.annotate_match(finished_gin.pk) == 0
    assert list(MoveComment.objects.filter(table=finished_gin).values_list("seq", "cost", "comment", "worst")) == before


def test_the_comment_is_the_engines_analysis_from_the_seats_view(finished_gin):
    tasks.annotate_match.run(finished_gin.pk)
    engine = games.get("gin")
    states = dict(services.replay_steps(finished_gin))
    row = MoveComment.objects.filter(table=finished_gin, best_move__isnull=False).first()
    played = finished_gin.moves.get(seq=row.seq).move
    found = analysis.analyse_state(engine, states[row.seq - 1], 0, played,
                                   analysis.seed_for(finished_gin.seed, row.seq, 0))
    assert (found.best, found.cost) == (row.best_move, row.cost)


def test_a_match_still_played_gets_no_comment(player):
    table = create_table(player, "gin", seats=2, bots={1: 2})
    assert annotations.annotate_match(table.pk) == 0 and not MoveComment.objects.exists()


def test_the_replay_step_shows_the_stored_comment_or_that_it_is_coming(finished_gin, player_client):
    rnd = replays.finished_round(finished_gin, 1)
    index = next(i for i, s in enumerate(rnd.steps) if s.seat == 0 and i > 0
                 and s.seq in human_moves(finished_gin))
    url = reverse("tables:replay", args=[finished_gin.pk, 1]) + f"?etape={index}"
    page = player_client.get(url).content.decode()
    assert "Analyse en cours…" in page
    tasks.annotate_match.run(finished_gin.pk)
    row = MoveComment.objects.get(table=finished_gin, seq=rnd.steps[index].seq)
    MoveComment.objects.filter(pk=row.pk).update(comment="Le robot Expert aurait pioché : ce choix coûte environ "
                                                         "7 % de chances de gagner la partie.", cost=7.0, worst=True)
    page = player_client.get(url).content.decode()
    assert "Analyse en cours…" not in page
    assert 'data-testid="replay-comment"' in page
    assert "ce choix coûte environ 7 % de chances de gagner la partie." in page
    steps = player_client.get(reverse("tables:replay", args=[finished_gin.pk, 1])).content.decode()
    assert f'data-worst-step="{index}"' in steps
