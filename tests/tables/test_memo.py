"""{% memo %} (tables/templatetags/memo.py): a memoised push is byte for byte the push rendered from scratch.

Whole matches of every game with an engine are played with the rules' autoplay; at every step each seat's
push is rendered with the memo on (sharing entries across seats and steps) and off, and must be equal.
"""

import pytest
from django.template import Context, Template

from engine import games
from tables import rendering, services
from tables.models import Seat, Table
from tables.templatetags import memo
from tests.tables.helpers import create_table


@pytest.fixture
def fresh_memo():
    memo.clear()
    memo.enabled = True
    yield memo
    memo.enabled = True
    memo.clear()


def pushes(table_id: int, enabled: bool) -> list[str]:
    memo.enabled = enabled
    table = Table.objects.select_related("game", "host").get(pk=table_id)
    seats = list(table.seats.select_related("user"))
    return [rendering.render_push(table, seats, seat) for seat in seats]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", games.available())
def test_memoised_pushes_equal_fresh_renders(slug, make_player, fresh_memo):
    engine = games.get(slug)
    seats = 4 if engine.info.max_players >= 4 else engine.info.max_players
    users = [make_player(f"p{slug[:6]}{i}") for i in range(seats)]
    table = create_table(users[0], slug, seats=seats, bots={}, start=False)
    for user in users[1:]:
        services.seat_join(table=table, user=user)
    Seat.objects.filter(table=table).update(connections=1)
    assert pushes(table.pk, True) == pushes(table.pk, False)  # waiting table
    services.table_start(table=table, user=users[0])
    for step in range(160):
        table.refresh_from_db()
        assert pushes(table.pk, True) == pushes(table.pk, False), f"{slug}: step {step}"
        if table.status != Table.Status.PLAYING:
            break
        to_act = engine.to_act(table.state)
        seat = to_act[0] if to_act else table.state["active"][0]
        move = engine.autoplay(table.state, seat) if to_act else {"action": "next_round"}
        outcome = services.play_move(table_id=table.pk, seat=seat, move=move, expected_version=table.version)
        assert outcome.applied, outcome
    assert memo.stats["hits"] > 0


def render(source: str, **context) -> str:
    return Template("{% load memo %}" + source).render(Context(context))


def test_key_follows_every_value_read(fresh_memo):
    block = "{% memo %}{{ a.b }}{% if c %}C{% endif %}{% for x in items %}{{ x.n }}{% endfor %}{% endmemo %}"
    template = Template("{% load memo %}" + block)
    assert template.render(Context({"a": {"b": 1}, "c": 0, "items": [{"n": 1}]})) == "11"
    assert template.render(Context({"a": {"b": 2}, "c": 0, "items": [{"n": 1}]})) == "21"
    assert template.render(Context({"a": {"b": 2}, "c": "yes", "items": [{"n": 1}]})) == "2C1"
    assert template.render(Context({"a": {"b": 2}, "c": "other", "items": [{"n": 1}, {"n": 5}]})) == "2C15"
    # Only the truth of c and the n of each item count: the same entry serves.
    hits = memo.stats["hits"]
    assert template.render(Context({"a": {"b": 2}, "c": 1, "items": [{"n": 1, "m": 9}, {"n": 5}]})) == "2C15"
    assert memo.stats["hits"] == hits + 1
    # True and 1 render differently.
    t2 = Template("{% load memo %}{% memo %}{{ v }}{% endmemo %}")
    assert t2.render(Context({"v": 1})) == "1"
    assert t2.render(Context({"v": True})) == "True"


def test_vary_puts_each_version_in(fresh_memo):
    template = Template('{% load memo %}{% memo vary="version" %}<b data-v="{{ version }}">{{ x }}</b>{% endmemo %}')
    assert template.render(Context({"version": 7, "x": "a"})) == '<b data-v="7">a</b>'
    hits = memo.stats["hits"]
    assert template.render(Context({"version": 8, "x": "a"})) == '<b data-v="8">a</b>'
    assert memo.stats["hits"] == hits + 1


@pytest.mark.parametrize("source", [
    '{% memo vary="version" %}{{ version|add:1 }}{% endmemo %}',  # vary used other than plainly
    '{% memo vary="version" %}{% if version %}x{% endif %}{% endmemo %}',
    "{% memo %}{% cycle 'a' 'b' %}{% endmemo %}",  # a tag the analysis does not know
    "{% memo %}{% now 'Y' %}{% endmemo %}",
])
def test_what_the_key_cannot_capture_is_never_cached(source, fresh_memo):
    template = Template("{% load memo %}" + source)
    before = memo.stats["uncached"]
    template.render(Context({"version": 1}))
    template.render(Context({"version": 2}))
    assert memo.stats["uncached"] == before + 2


def test_unfreezable_values_are_rendered_not_cached(fresh_memo):
    class Thing:
        def __str__(self):
            return "thing"

    before = memo.stats["uncached"]
    assert render("{% memo %}{{ t }}{% endmemo %}", t=Thing()) == "thing"
    assert memo.stats["uncached"] == before + 1
