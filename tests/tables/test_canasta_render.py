"""The partnership Canastas' table rendered server-side from real engine states (cards and tiles): my hand,
never my partner's; the melds by team with their count toward 7 and the canastas; the frozen pile; the buttons
only when the legal moves allow them; my staged melds private until my discard; the go-out question; the
round-end sheet per team."""

import re
from html import unescape
from unittest import mock

import pytest

from engine import games
from tables import reads
from tables.families import presenter_for
from tables.models import Table
from tables.rendering import render_push
from tests.engine.test_canasta_properties import rig
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db

CARDS = games.get("canasta")
TILES = games.get("canasta-tuiles")
CARD_ID = re.compile(r'data-card="([^"]+)"')
ANY_CARD = r"(?<![A-Za-z0-9])(?:(?:10|[2-9AJQK])[SHDC][12]|JK[1-4])(?![A-Za-z0-9])"
ANY_TILE = r"(?<![A-Za-z0-9])(?:[RYBK](?:1[0-3]|[1-9])[ab]|J[12])(?![A-Za-z0-9])"


def _table(player, slug, state, version=5):
    with mock.patch("tables.families.live_slugs", return_value=[slug]):
        table = create_table(player, slug, seats=4, bots={1: 2, 2: 2, 3: 2}, stake=0, start=False)
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=version)
    table.refresh_from_db()
    return table


def _pushes(table):
    seats = reads.seats_of(table.pk)
    return {s.position: render_push(table, seats, s) for s in seats}


def _section(html, testid):
    start = html.index(f'data-testid="{testid}"')
    end = html.index("</section>", start)
    return html[start:end]


# Seat 0 (team A, with seat 2) to draw: a pair of kings for the king on the pile, three 7s, a wild.
MINE = ["KS1", "KH2", "7S1", "7H1", "7D2", "2C1", "9D1", "5S1", "JH1", "QC2", "4D1"]
PARTNER = ["AS1", "AH1", "AD1", "6S1", "6H1", "8C1", "8D1", "10S1", "10H1", "JC1", "QD1"]


def _card_state(**kwargs):
    args = {"current": 0, "phase": "DRAW", "pile": ["9C1", "5D1", "KD1"], "scores": {"A": 0, "B": 0},
            "melds": {"B": [("Q", ["QS1", "QH1", "QD2", "QS2", "QH2", "QC1", "2D1"])]}, **kwargs}
    return rig(CARDS, {0: MINE, 2: PARTNER}, **args)


def test_the_presenter_is_the_partnership_family():
    assert presenter_for(CARDS).folder == presenter_for(TILES).folder == "team_meld"


def test_my_hand_is_drawn_and_my_partners_never(player):
    state = _card_state()
    table = _table(player, "canasta", state)
    pushes = _pushes(table)
    html = pushes[0]
    hand = set(CARD_ID.findall(html))
    assert hand == set(MINE)
    for card in PARTNER + state["hands"][1] + state["hands"][3] + state["stock"]:
        assert card not in re.findall(r'data-card="([^"]+)"|data-tile="([^"]+)"', html)
        assert f'data-card="{card}"' not in html
    # wilds marked and last: the 2 of clubs comes after the kings
    assert html.index('data-card="2C1"') > html.index('data-card="KH2"')
    assert re.search(r'data-card="2C1"[^>]*data-wild', html)
    # the partner across, the opponents left and right, with their counts
    text = re.sub(r"<[^>]+>", "", html)
    assert "Partenaire · Nous" in text and text.count("Adversaire · Eux") == 2
    assert 'aria-label="11 cartes en main"' in html


def test_melds_by_team_with_their_count_and_the_canasta_closed(player):
    state = _card_state(melds={"A": [("7", ["7C1", "7C2", "JK1"])],
                               "B": [("Q", ["QS1", "QH1", "QD2", "QS2", "QH2", "QC1", "2D1"])]})
    state["hands"][0] = [c for c in MINE if c not in ("7S1", "7H1", "7D2")] + []
    html = _pushes(_table(player, "canasta", state))[0]
    us, them = _section(html, "team-us"), _section(html, "team-them")
    assert "Nous" in us and "Eux" in them
    assert 'data-rank="7"' in us and "3/7" in us and 'data-rank="Q"' not in us
    assert 'data-rank="Q"' in them and "7/7" in them and "is-canasta" in them
    assert "Canasta mixte" in them and "1 canasta" in them
    assert "Dames : 7 cartes dont 1 joker" in them
    # opening minimum of this hand, per team: A has melded, B too
    assert "a ouvert" in us


def test_the_frozen_pile_is_marked_with_its_size(player):
    state = _card_state(pile=["9C1", "2H1", "5D1", "KD1"], frozen=True)
    html = _pushes(_table(player, "canasta", state))[0]
    pile = html[html.index('data-testid="pile"'):]
    assert 'data-testid="frozen"' in pile and ", gelée" in html
    assert 'data-testid="pile-count">4<' in html


def test_buttons_only_when_legal_and_taking_the_pile_is_one_button(player):
    state = _card_state()
    pushes = _pushes(_table(player, "canasta", state))
    mine, other = pushes[0], pushes[1]
    assert "Piocher" in mine and 'data-cn-act="take_pile"' in mine and "Prendre la pile" in mine
    assert "Partenaire, puis-je sortir\u00a0?" in mine
    assert 'data-cn-act="discard"' not in mine and 'data-cn-act="meld"' not in mine  # not drawn yet
    assert "data-cn-act" not in other and "Piocher</button>" not in other
    assert "1<sup>re</sup> pose&nbsp;: 50&nbsp;pts" in mine


def test_staged_melds_are_mine_until_the_discard(player):
    state = _card_state(phase="MELD", melds={"B": []})
    state, _ = CARDS.apply(state, 0, {"action": "meld", "cards": ["7S1", "7H1", "7D2"]})
    pushes = _pushes(_table(player, "canasta", state))
    mine = pushes[0]
    assert "En préparation, visible par toi seul jusqu'à ta défausse" in mine
    assert "Déposer 7♠ 7♥ 7♦ (15 pts)" in mine and "Première pose : 15 / 50 pts (il en manque 35)" in mine
    us = _section(mine, "team-us")
    assert "is-staged" in us and 'data-cn-meld="' in us
    assert "Annuler" in mine and 'data-cn-act="discard"' in mine
    for seat in (1, 2, 3):
        assert "7♠ 7♥ 7♦" not in pushes[seat] and 'data-rank="7"' not in _section(pushes[seat], "team-them"
                                                                                   if seat % 2 else "team-us")


def test_the_partner_is_asked_and_answers_with_two_buttons(player):
    state = _card_state(current=2)  # my partner (a robot here) asks me
    state, _ = CARDS.apply(state, 2, {"action": "ask_go_out"})
    pushes = _pushes(_table(player, "canasta", state))
    mine = pushes[0]
    assert 'data-testid="go-out-question"' in mine and "« Partenaire, puis-je sortir&nbsp;? »" in mine
    assert '"answer": "yes"' in mine and ">Oui<" in mine and ">Non<" in mine
    assert "demande s'il peut sortir…" in mine  # on the partner's seat
    assert "te demande s'il peut sortir : réponds « Oui » ou « Non »." in unescape(mine)  # the status line
    assert 'data-testid="go-out-question"' not in pushes[1]


def test_the_round_end_sheet_per_team(player):
    state = _card_state(phase="MELD", current=0,
                        melds={"A": [("K", ["KC1", "KC2", "KD1", "KD2", "KH1", "KS2", "2S1"])], "B": []},
                        pile=["9C1"])
    state["hands"][0] = ["5S1", "5H1", "5D1", "9D1"]
    state["turn"]["drew"] = True
    state, _ = CARDS.apply(state, 0, {"action": "meld", "cards": ["5S1", "5H1", "5D1"]})
    state, _ = CARDS.apply(state, 0, {"action": "discard", "card": "9D1"})
    assert state["phase"] in ("ROUND_OVER", "MATCH_OVER")
    html = _pushes(_table(player, "canasta", state))[0]
    sheet = html[html.index('data-testid="round-sheet"'):]
    for line in ("Combinaisons posées", "Primes de canasta", "3 rouges", "Prime de sortie", "Cartes restées en main",
                 "Total de la manche"):
        assert line in sheet
    assert "Tu es sorti" in html and 'data-testid="celebrate"' in html
    # the headline says what happened for the reader's side: celebrated by the team that went out only
    table = _table(player, "canasta", state, version=6)
    pushes = _pushes(table)
    for us in (0, 2):
        assert 'data-testid="celebrate">Canasta ! Nous sortons !<' in pushes[us]
    for them in (1, 3):
        assert 'data-testid="celebrate"' not in pushes[them] and "Canasta !" not in pushes[them]
        assert 'data-testid="going-out">Eux sortent !<' in pushes[them]
    spectator = render_push(table, reads.seats_of(table.pk), None)
    assert 'data-testid="going-out">Équipe A sort !<' in spectator and "Nous sortons" not in spectator
    teams = state["last_round"]["teams"]
    assert f'data-testid="round-total-us">{teams["A"]["total"]}<' in html
    assert f'data-testid="round-total-them">{teams["B"]["total"]}<' in html


def test_the_tile_game_draws_tiles_and_its_joker_button(player):
    state = rig(TILES, {}, current=0, phase="DRAW", scores={"A": 0, "B": 0},
                melds={"B": [("2", ["R2a", "Y2a", "B2a", "K2a", "R2b", "Y2b", "B2b"])]})
    state = TILES.with_joker_balances(state, {0: 2})
    html = _pushes(_table(player, "canasta-tuiles", state))[0]
    assert set(CARD_ID.findall(html)) == set(state["hands"][0])
    assert 'class="tile tile-' in html and 'aria-label="Tuile ' in html
    assert "Joker (solde\u00a0: 2)" in html and 'data-testid="joker-balance">2<' in html
    assert "Canasta de 2 propre" in _section(html, "team-them")
    assert 'aria-label="11 tuiles en main"' in html
    assert "Partie en 3 manches" in html


def test_no_push_holds_another_hand_or_the_stock(player):
    for game, slug, pattern in ((CARDS, "canasta", ANY_CARD), (TILES, "canasta-tuiles", ANY_TILE)):
        state = rig(game, {}, current=0, phase="DRAW", scores={"A": 0, "B": 0})
        Table.objects.all().delete()
        pushes = _pushes(_table(player, slug, state))
        for seat, html in pushes.items():
            seen = set(re.findall(pattern, html))
            hidden = set(state["stock"]) | {p for s, hand in enumerate(state["hands"]) if s != seat for p in hand}
            assert not seen & hidden, (slug, seat, seen & hidden)


def test_a_waiting_table_and_a_spectator_are_drawn(player):
    with mock.patch("tables.families.live_slugs", return_value=["canasta"]):
        table = create_table(player, "canasta", seats=4, bots={1: 2}, stake=0, start=False)
    seats = reads.seats_of(table.pk)
    html = render_push(table, seats, seats[0])
    assert "La donne commencera dès que toutes les places seront prises." in html and "Place libre" in html
    state = _card_state()
    table = _table(player, "canasta", state)
    spectator = render_push(table, reads.seats_of(table.pk), None)
    assert "data-cn-act" not in spectator and not CARD_ID.findall(spectator)
    assert 'data-testid="team-us"' in spectator and 'data-testid="team-them"' in spectator
    # a spectator sits on no side: the teams are named, as on the seats
    assert "Équipe A" in _section(spectator, "team-us") and "Équipe B" in _section(spectator, "team-them")
    assert ">Nous<" not in spectator and ">Eux<" not in spectator


def test_a_refused_move_shows_its_french_reason_and_changes_nothing(player):
    from tables import services

    state = _card_state(phase="MELD", melds={"B": []})
    state, _ = CARDS.apply(state, 0, {"action": "meld", "cards": ["7S1", "7H1", "7D2"]})
    table = _table(player, "canasta", state)
    outcome = services.play_move(table_id=table.pk, seat=0, move={"action": "discard", "card": "4D1"},
                                 expected_version=table.version)
    table.refresh_from_db()
    assert table.state == state and table.version == 5
    seats = reads.seats_of(table.pk)
    html = render_push(table, seats, seats[0], error=outcome.error.message)
    assert 'id="table-error"' in html and "Première pose insuffisante : 15 points, il en faut 50." in html


@pytest.mark.parametrize(("pile", "frozen", "reason"), [
    (["9C1", "5D1", "6D1"], False, "il faut dans ta main deux cartes naturelles du même rang"),  # no 6 in hand
    (["9C1", "5D1", "2S2"], False, "La pile est bloquée : la carte du dessus ne se prend pas."),  # a wild on top
])
def test_a_pile_i_cannot_take_shows_its_button_disabled_with_the_reason(player, pile, frozen, reason):
    state = _card_state(pile=pile, frozen=frozen)
    pushes = _pushes(_table(player, "canasta", state))
    mine = pushes[0]
    button = re.search(r'<button[^>]*data-cn-act="take_pile"[^>]*>Prendre la pile</button>', mine).group(0)
    assert 'aria-disabled="true"' in button and reason in unescape(button)
    assert "data-cn-top" not in button  # nothing a click could send
    assert 'data-cn-act="take_pile"' not in pushes[1] and 'data-cn-act="take_pile"' not in pushes[2]


def test_the_reason_is_for_the_player_to_draw_only_and_names_no_card(player):
    state = _card_state(pile=["9C1", "5D1", "6D1"])
    view = CARDS.view(state, 0)
    assert view["pile"]["refusal"] and not re.search(ANY_CARD, view["pile"]["refusal"])
    assert CARDS.view(state, 2)["pile"].get("refusal") is None  # my partner does not draw now
    assert "refusal" not in CARDS.view(state, None)["pile"]  # a spectator
    # With a pair for the top card the button stays live, whatever the engine's canonical take finds: the server
    # judges the melds the player chooses (test_buttons_only_when_legal_and_taking_the_pile_is_one_button).
    with_pair = _pushes(_table(player, "canasta", _card_state()))[0]
    button = re.search(r'<button[^>]*data-cn-act="take_pile"[^>]*>', with_pair)
    assert "aria-disabled" not in button.group(0)


def test_a_staged_meld_of_black_threes_counts_no_way_to_a_canasta(player):
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(CARDS, {0: ["3S1", "3C1", "3S2", "5S1", "6D1"]}, current=0, phase="MELD",
                melds={"A": [("K", canasta)]}, scores={"A": 0, "B": 0})
    state, _ = CARDS.apply(state, 0, {"action": "meld", "cards": ["3S1", "3C1", "3S2"]})
    us = _section(_pushes(_table(player, "canasta", state))[0], "team-us")
    threes = us[us.index('data-rank="3"'):]
    threes = threes[:threes.index("data-meld=", threes.index("data-meld=") + 1)] if threes.count("data-meld=") > 1 \
        else threes
    assert '<span class="cn-count">3</span>' in threes
    assert "/7" not in threes and "cn-meter" not in threes and "pour une canasta" not in threes


@pytest.mark.parametrize(("balance", "jokers_in_stock", "reason"), [
    (2, False, "Il n'y a plus de joker dans la pioche."),
    (0, True, "Tu n'as plus de joker sur ton compte."),
])
def test_the_joker_button_is_disabled_with_its_reason(player, balance, jokers_in_stock, reason):
    """Rules §9: no joker tile left in the stock, or none on the account: the button is there, disabled, and says
    why (as « Prendre la pile »); a click sends nothing."""
    state = rig(TILES, {}, current=0, phase="DRAW", scores={"A": 0, "B": 0})
    jokers = [p for p in state["stock"] if TILES.P.rank[p] == TILES.P.joker_rank]
    if not jokers_in_stock:
        state["stock"] = [p for p in state["stock"] if p not in jokers]
    else:
        assert jokers
    state = TILES.with_joker_balances(state, {0: balance})
    pushes = _pushes(_table(player, "canasta-tuiles", state))
    button = re.search(r'<button[^>]*>Joker \(solde\u00a0: \d+\)</button>', pushes[0]).group(0)
    assert 'aria-disabled="true"' in button and f'data-reason="{reason}"' in unescape(button)
    assert "ws-send" not in button and "hx-vals" not in button
    assert f"(solde\u00a0: {balance})" in button
    for seat in (1, 2, 3):  # not at their draw: no Joker button at all
        assert "Joker (solde" not in pushes[seat]


def test_the_joker_button_is_live_with_a_joker_and_a_balance(player):
    state = rig(TILES, {}, current=0, phase="DRAW", scores={"A": 0, "B": 0})
    state = TILES.with_joker_balances(state, {0: 1})
    html = _pushes(_table(player, "canasta-tuiles", state))[0]
    button = re.search(r'<button[^>]*>Joker \(solde\u00a0: 1\)</button>', html).group(0)
    assert "aria-disabled" not in button and '"take_joker"' in unescape(button)
