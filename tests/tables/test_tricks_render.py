"""The trick table (Thunee) rendered server-side from real engine states: my hand with the playable cards raised,
the others' hands never in a push, each trick card toward its player, trumps shown only once known, the bids and
calls as buttons only when legal, the score sheet in « Nous » / « Eux », the end of a deal, a refused card."""

import random
import re

import pytest

from engine import games
from engine.games import _tricks
from tables import commands, live, reads
from tables.families import presenter_for
from tables.models import Table
from tables.rendering import render_push, table_context
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db

ENGINE = games.get("thunee")
CARD_ID = re.compile(r"(?<![A-Za-z0-9])((?:9|10|J|Q|K|A)[SHDC]1)(?![A-Za-z0-9])")
# A deal where seat 1 leads the ace of hearts and seat 0 (the human) holds one heart only.
HANDS = [
    ["KH1", "9C1", "10C1", "AC1", "QD1", "JD1"],
    ["AH1", "9S1", "10S1", "KS1", "QS1", "JS1"],
    ["9H1", "10H1", "KC1", "QC1", "JC1", "9D1"],
    ["QH1", "JH1", "AS1", "10D1", "KD1", "AD1"],
]


def _table(player, state, version=5):
    table = create_table(player, "thunee", seats=4, bots={1: 1, 2: 1, 3: 1}, stake=0, start=False)
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=version)
    table.refresh_from_db()
    return table


def _pushes(table):
    seats = reads.seats_of(table.pk)
    return {s.position: render_push(table, seats, s) for s in seats}


def _bid_and_name(seed="tricks-render", trump="S"):
    """The first seat asked bids 80, the others pass, it names `trump`: the Thunee window opens."""
    state = ENGINE.new_match(4, {}, seed)
    bidder = ENGINE.to_act(state)[0]
    state, _ = ENGINE.apply(state, bidder, {"action": "bid", "value": 80})
    while state["phase"] == "BIDDING":
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], {"action": "pass"})
    state, _ = ENGINE.apply(state, bidder, {"action": "choose_trump", "suit": trump})
    assert state["phase"] == "THUNEE_WINDOW"
    return state, bidder


def _following(lead=True):
    """Trick 1 with the scripted hands, seat 1 leading; after `lead` seat 1 has played the ace of hearts."""
    state, _ = _bid_and_name()
    while state["phase"] == "THUNEE_WINDOW":
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], {"action": "pass"})
    assert state["phase"] == "PLAY"
    state["hands"] = [list(h) for h in HANDS]
    state.update(leader=1, current=1, trick=[])
    if lead:
        state, _ = ENGINE.apply(state, 1, {"action": "play_card", "card": "AH1"})
    return state


def _allowed(view):
    """The card ids a seat may see: its hand, the trick, the finished tricks, the cards shown in a Jodhi."""
    seen = set(view["hand"]) | set(view["shown"])
    if view["trick"]:
        seen |= {p["card"] for p in view["trick"]["cards"]}
    seen |= {p["card"] for t in view["tricks"] for p in t["cards"]}
    return seen


def test_the_presenter_is_the_trick_familys():
    assert presenter_for(ENGINE).folder == "tricks"


def test_bidding_buttons_only_for_the_seat_asked(player):
    state = ENGINE.new_match(4, {}, "tricks-bids")
    asked = ENGINE.to_act(state)[0]
    pushes = _pushes(_table(player, state))
    html = pushes[asked]
    assert "Enchérir&nbsp;:" in html and '<span class="visually-hidden">Enchérir </span>80</button>' in html
    assert "Enchérir </span>100</button>" in html
    assert ">Passer</button>" in html
    for seat, other in pushes.items():
        if seat != asked:
            assert "Enchérir </span>" not in other and ">Passer</button>" not in other
            assert 'data-action="bid"' not in other
    assert "pas encore choisi" in html  # nobody knows trumps while bidding


def test_a_bid_shows_on_its_seat_and_a_higher_bid_only_is_offered(player):
    state = ENGINE.new_match(4, {}, "tricks-bids")
    first = ENGINE.to_act(state)[0]
    state, _ = ENGINE.apply(state, first, {"action": "bid", "value": 90})
    nxt = ENGINE.to_act(state)[0]
    pushes = _pushes(_table(player, state))
    html = pushes[nxt]
    assert "Enchérir </span>100</button>" in html
    assert "Enchérir </span>80" not in html and "Enchérir </span>90" not in html
    place = "swne"[(first - nxt) % 4]
    assert f'data-testid="bid-{place}">90</p>' in html
    assert "Enchère en cours&nbsp;: <strong>90</strong>" in html


def test_the_bidder_names_trumps_and_then_everyone_sees_them(player):
    state = ENGINE.new_match(4, {}, "tricks-trump")
    bidder = ENGINE.to_act(state)[0]
    state, _ = ENGINE.apply(state, bidder, {"action": "bid", "value": 80})
    while state["phase"] == "BIDDING":
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], {"action": "pass"})
    pushes = _pushes(_table(player, state))
    assert "Choisir l&#39;atout&nbsp;:" in pushes[bidder]
    # a space the button's flex layout keeps (a plain one is dropped: « ♥Cœur »)
    assert 'Choisir l&#39;atout : </span><span aria-hidden="true">♥</span>&nbsp;Cœur</button>' in pushes[bidder]
    for seat, html in pushes.items():
        assert "pas encore choisi" in html
        if seat != bidder:
            assert 'data-action="choose_trump"' not in html
    state, _ = ENGINE.apply(state, bidder, {"action": "choose_trump", "suit": "H"})
    for html in _pushes(_table(player, state)).values():
        assert "Atout&nbsp;: <span class=\"tk-suit red\" aria-hidden=\"true\">♥</span> <strong>cœur</strong>" in html
        assert "Enchère&nbsp;: <strong>80</strong>" in html


def test_the_solo_call_is_offered_to_the_seat_asked_and_voids_the_trumps(player):
    state, _ = _bid_and_name()
    asked = ENGINE.to_act(state)[0]
    pushes = _pushes(_table(player, state))
    assert ">Thunee\u00a0!</button>" in pushes[asked] and ">Passer</button>" in pushes[asked]
    for seat, html in pushes.items():
        if seat != asked:
            assert "Thunee\u00a0!" not in html
    state, _ = ENGINE.apply(state, asked, {"action": "call_thunee"})
    for html in _pushes(_table(player, state)).values():
        assert "la couleur de la première carte de" in html  # trumps unknown to all until the caller leads
        assert 'class="tk-suit' not in html.split('id="table-centre"')[1].split('id="table-hand"')[0]
        assert "<strong>Thunee\u00a0!</strong>" in html


def test_my_hand_raises_the_playable_cards_only(player):
    state = _following()
    pushes = _pushes(_table(player, state))
    html = pushes[0]
    assert re.search(r'class="card tk-card red s-H is-playable[^"]*"[^>]*data-card="KH1"', html)
    for card in HANDS[0][1:]:
        assert re.search(rf'is-dimmed[^"]*"[^>]*data-card="{card}"', html), card
    assert html.count('data-playable="1"') == 1 and html.count('data-playable="0"') == 5
    assert "Les cartes levées sont celles que tu peux jouer." in html
    for seat in (1, 2, 3):  # not their turn: their hands are shown, not playable
        assert "is-playable" not in pushes[seat] and "ws-send hx-vals='{\"kind\": \"move\", \"action\": \"play_card\"" \
            not in pushes[seat]


def test_no_push_holds_another_hand(player):
    state = _following()
    state, _ = ENGINE.apply(state, 0, {"action": "play_card", "card": "KH1"})
    for seat, html in _pushes(_table(player, state)).items():
        view = ENGINE.view(state, seat)
        shown = set(CARD_ID.findall(html))
        assert shown <= _allowed(view), (seat, shown - _allowed(view))
        assert set(view["hand"]) <= shown


def test_trick_cards_lie_toward_their_players(player):
    state = _following()
    state, _ = ENGINE.apply(state, 0, {"action": "play_card", "card": "KH1"})
    pushes = _pushes(_table(player, state))
    # seat 1 led, seat 0 followed: seen from seat 0, seat 1 is on the left; from seat 2, seat 1 is on the right
    assert 'data-trick-card="AH1" data-place="w"' in pushes[0] and 'data-trick-card="KH1" data-place="s"' in pushes[0]
    assert 'data-trick-card="AH1" data-place="e"' in pushes[2] and 'data-trick-card="KH1" data-place="n"' in pushes[2]
    assert 'data-trick-card="AH1" data-place="s"' in pushes[1] and 'data-trick-card="KH1" data-place="e"' in pushes[1]
    assert "As de cœur, joué par" in pushes[0] and "(entame)" in pushes[0]


def test_a_won_trick_goes_to_its_winners_side(player):
    state = _following()
    for seat, card in ((0, "KH1"), (3, "QH1"), (2, "9H1")):
        state, _ = ENGINE.apply(state, seat, {"action": "play_card", "card": card})
    trick = state["tricks"][-1]
    assert trick["winner"] == 1  # the ace of hearts, no trump played
    pushes = _pushes(_table(player, state))
    assert "is-won tk-to-w" in pushes[0] and "is-won tk-to-s" in pushes[1] and "is-won tk-to-e" in pushes[2]
    assert "Pli 1 pour <strong>Eux</strong>" in pushes[0] and "Pli 1 pour <strong>Nous</strong>" in pushes[1]
    assert "Eux&nbsp;: 1 pli" in pushes[0]


def test_a_card_that_does_not_follow_is_refused_with_its_reason(player):
    state = _following()
    table = _table(player, state)
    html = commands.handle_frame(table.pk, player.pk, {"kind": "move", "action": "play_card", "card": "9C1",
                                                       "version": table.version})
    assert 'id="table-error"' in html and "Tu dois fournir à cœur." in html and "Pourquoi" in html
    table.refresh_from_db()
    assert table.state["hands"][0] == HANDS[0]  # nothing changed
    assert commands.handle_frame(table.pk, player.pk, {"kind": "move", "action": "play_card", "card": "KH1",
                                                       "version": table.version}) is None


def _deal_over(seed="tricks-deal"):
    state = ENGINE.new_match(4, {}, seed)
    rng = random.Random(seed)
    bid = False
    while state["phase"] not in ("ROUND_OVER", "MATCH_OVER"):
        seat = ENGINE.to_act(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        move = next((m for m in moves if m["action"] == "bid"), None) if not bid else None
        bid = bid or move is not None
        calm = [m for m in moves if m["action"] not in ("bid", "call_thunee", "call_double", "call_khanuck",
                                                         "call_blind_thunee")]
        state, _ = ENGINE.apply(state, seat, move or rng.choice(calm or moves))
    return state


def test_the_score_sheet_and_the_end_of_a_deal(player):
    state = _deal_over()
    last = state["last_deal"]
    pushes = _pushes(_table(player, state))
    html = pushes[0]
    us, them = ("A", "B")
    assert "Fin de la donne 1" in html and f"Enchère&nbsp;: <strong>{last['bid']}</strong>" in html
    # the engine names « l'équipe A / B »; seat 0 (team A, « Nous ») reads « ton équipe » / « l'équipe adverse »
    mine = last["reason"].replace("l'équipe A", "ton équipe").replace("l'équipe B", "l'équipe adverse")
    assert mine.replace("'", "&#39;") in html, mine
    outcome = re.search(r'data-testid="deal-outcome">([^<]*)<', html).group(1)
    assert not re.search(r"[ée]quipe [AB]\b", outcome), outcome
    table = _table(player, state, version=6)
    spectator = render_push(table, reads.seats_of(table.pk), None)
    assert last["reason"].replace("'", "&#39;") in spectator and "ton équipe" not in spectator
    assert f'data-testid="balls-us"><strong>{state["balls"][us]}</strong>' in html
    assert f'data-testid="balls-them"><strong>{state["balls"][them]}</strong>' in html
    assert f'data-testid="deal-points-us">{last["points"][us]}' in html
    assert f'data-testid="deal-points-them">{last["points"][them]}' in html
    assert sum(int(re.search(rf'data-testid="deal-tricks-{t}">(\d)', html).group(1)) for t in ("us", "them")) == 6
    assert ">Donne suivante</button>" in html
    assert "(en 12)" in html
    winner_word = "Nous" if last["team"] == us else "Eux"
    assert f"<strong>{winner_word}</strong>&nbsp;: +{last['balls_won']} balle" in html
    other = pushes[1]  # the other team reads the same deal the other way round
    assert f'data-testid="balls-us"><strong>{state["balls"][them]}</strong>' in other
    assert "<tr><th scope=\"row\">1</th>" in html  # the deal's row in the history


def test_another_trick_game_fills_the_score_sheet_with_its_own_words(player, monkeypatch):
    """The family's pieces name no game's units: a game scored in points to 1,000, with no announcements, gets
    « Points » where Thunee says « Balles », and its own deal-end line."""

    class PointsGame(type(ENGINE)):
        table_words = _tricks.TrickGame.table_words

        def scoreboard(self, view):
            board = _tricks.TrickGame.scoreboard(self, view)
            return {**board, "target": 1000, "deal": {**board["deal"], "won": 162}}

    monkeypatch.setitem(games._registry(), "thunee", PointsGame())
    state = _deal_over()
    html = _pushes(_table(player, state))[0]
    sheet = html.split('id="table-scores"', 1)[1].split('id="table-', 1)[0]
    centre = html.split('id="table-centre"', 1)[1].split('id="table-', 1)[0]
    deal_end = html.split('id="table-round-end"', 1)[1].split('id="table-', 1)[0]
    outcome = re.search(r'<p class="tk-outcome" data-testid="deal-outcome">[^<]*</p>', deal_end).group(0)
    for piece in (sheet, centre, deal_end.replace(outcome, "")):  # the outcome is the engine's sentence
        assert "Balle" not in piece and "balle" not in piece and "Jodhi" not in piece and "154" not in piece
    us = state["scores"][0]
    row = '<th scope="row">Points <span class="tk-target">(en 1000)</span></th><td data-testid="balls-us">'
    assert f"{row}<strong>{us}</strong>" in sheet
    assert "Points de la partie et points de la donne, par équipe" in sheet
    assert f"Points&nbsp;: Nous <strong>{us}</strong>" in centre
    assert '<th scope="col">Points</th></tr>' in deal_end and "&nbsp;: +162 points.</p>" in deal_end


def test_every_push_is_the_pieces_of_the_page(player):
    state = _deal_over("tricks-memo")
    table = _table(player, state)
    seats = reads.seats_of(table.pk)
    for seat in seats:
        context = table_context(table, seats, seat)
        assert render_push(table, seats, seat) == "\n".join(live.render_part(p, context) for p in live.PARTS)


def test_the_timer_plays_my_seat_through_a_whole_match_with_robots(player):
    """The generic autoplay (a timer run out) and the robots play a Thunee match to its end: every push
    renders, and the score sheet ends with a team at the target."""
    from tests.tables.helpers import play_out

    table = create_table(player, "thunee", seats=4, bots={1: 1, 2: 2, 3: 1}, stake=0)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    state = table.state
    assert max(state["balls"].values()) >= state["target"]
    pushes = _pushes(table)
    html = pushes[0]
    assert "Partie terminée" in html and f'<strong>{state["balls"]["A"]}</strong>' in html
    winners = ENGINE.result(state)["winners"]
    loser = next(position for position in pushes if position not in winners)
    assert re.search(r"<strong>[^<]+</strong> et <strong>[^<]+</strong> gagnent la partie\.", pushes[loser])
    assert '<ul class="ranking">' in html and '<ol class="ranking">' not in html  # teams, not four places


def test_a_waiting_table_page_draws_the_free_seats(player, player_client):
    table = create_table(player, "thunee", seats=4, bots={1: 1}, stake=0, start=False)
    page = player_client.get(f"/tables/{table.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "css/tricks.css" in html and "les quatre places seront prises" in html
    seats = html.split('id="table-opponents"')[1].split('id="table-centre"')[0]
    assert seats.count('class="seat seat-free"') == 2 and "Robot Débutant" in seats


def test_a_spectator_sees_the_trick_and_no_hand(player):
    state = _following()
    table = _table(player, state)
    html = render_push(table, reads.seats_of(table.pk), None)
    assert set(CARD_ID.findall(html)) == {"AH1"}
    assert "Équipe A" in html and "Nous" not in html.split('id="table-scores"')[1]


def test_a_declaration_window_waits_for_both_players_in_one_sentence(player):
    state = _following()
    for seat, card in ((0, "KH1"), (3, "QH1"), (2, "9H1")):
        state, _ = ENGINE.apply(state, seat, {"action": "play_card", "card": card})
    assert sorted(ENGINE.to_act(state)) == [1, 3]  # the team that took trick 1 may declare
    html = _pushes(_table(player, state))[0]
    status = html.split('class="status-main">')[1].split("</p>")[0]
    assert status.count("Au tour de") == 1 and " et " in status and status.endswith(", qui réfléchissent…")


def test_the_jodhi_buttons_show_the_cards_and_read_their_names(player):
    state = _following()
    for seat, card in ((0, "KH1"), (3, "QH1"), (2, "9H1")):
        state, _ = ENGINE.apply(state, seat, {"action": "play_card", "card": card})
    html = _pushes(_table(player, state))[1]  # seat 1 took trick 1 and holds the king and queen of trumps
    group = re.search(r'<div class="tk-choice" role="group" aria-label="Jodhi".*?</div>', html, re.S).group(0)
    assert '<span class="tk-choice-label">Jodhi&nbsp;:</span>' in group
    assert ('<span class="visually-hidden">Jodhi</span><span aria-hidden="true">R♠ D♠</span>'
            '<span class="visually-hidden"> : Roi de pique et Dame de pique</span></button>') in group
    assert " : Valet de pique, Dame de pique et Roi de pique</span>" in group
    visible = re.sub(r'<span class="visually-hidden">.*?</span>', "", group)
    assert visible.count("Jodhi") == 2  # the group's aria-label and its label, not again on each button


def test_passing_is_the_primary_button_and_a_call_the_secondary_one(player):
    """A newcomer is not nudged toward the riskiest move: « Passer » is yellow, « Thunee ! » plain; the « ! » of a
    call never breaks onto a line of its own (a no-break space before it, as French typography wants)."""
    state, _ = _bid_and_name()
    asked = ENGINE.to_act(state)[0]
    html = _pushes(_table(player, state))[asked]
    actions = html[html.index('id="table-actions"'):]
    thunee = re.search(r'<button [^>]*>Thunee\u00a0!</button>', actions).group(0)
    passer = re.search(r'<button [^>]*>Passer</button>', actions).group(0)
    assert 'class="button secondary"' in thunee and 'class="button"' in passer
    assert ENGINE.action_label("call_double", {}) == "Double\u00a0!"
    for slug in games.available():  # every game's buttons: « Je ferme ! », « Partenaire, puis-je sortir ? »…
        engine = games.get(slug)
        for action, label in engine.action_labels.items():
            assert not re.search(r" [!?:;]", label), (slug, action, label)
