"""Thunee's own rules, as data and pure helpers (engine/games/thunee.py is the game): its phases and deal
kinds, its 24-card deck, card order and points (and the Royals order), the bids, the Jodhi values, the options
of §8, the refusal messages, and the helpers the game, its calls (`_thunee_calls.py`), its scoring
(`_thunee_scoring.py`) and its bots read: who leads, Jodhi combinations and values, who may call a Double or
a Khanuck, the autoplay's trumps, the black-jack draw of the first dealer.

The family's pieces (rank orders, follow-suit, tricks, seats) are `_tricks`'s."""

from engine.base import Option, team_of
from engine.errors import IllegalMove
from engine.games import _tricks as tr
from engine.rng import shuffled

BIDDING = "BIDDING"
TRUMP = "TRUMP"
THUNEE_WINDOW = "THUNEE_WINDOW"
PLAY = tr.PLAY
JODHI = "JODHI"
TRICK6_CALLS = "TRICK6_CALLS"
ROUND_OVER = tr.ROUND_OVER
MATCH_OVER = tr.MATCH_OVER

NORMAL = "normal"
THUNEE = "thunee"
BLIND = "blind_thunee"

RANKS = ("9", "10", "J", "Q", "K", "A")
DECK = tuple(f"{r}{s}1" for s in tr.SUITS for r in RANKS)
DECK_SET = frozenset(DECK)
BIDS = (80, 90, 100)
TARGET = 12
PACK_POINTS = 154
SEATS = tr.Seats(4, -1)
TEAMS = tr.TEAMS
BLACK_JACKS = ("JS1", "JC1")

ORDER = tr.RankOrder(
    trump=("J", "9", "A", "10", "K", "Q"),
    plain=("A", "10", "K", "Q", "J", "9"),
    trump_points={"J": 30, "9": 20, "A": 11, "10": 10, "K": 3, "Q": 2},
    plain_points={"J": 0, "9": 0, "A": 11, "10": 10, "K": 3, "Q": 2},
)
ROYALS = ORDER.reversed()

JODHI_VALUES = {frozenset(("K", "Q")): (20, 40), frozenset(("J", "Q", "K")): (30, 50)}
SUIT_FR = tr.SUIT_FR

# §8's `seating` and `turn_timer_s` are the table's own settings (tables.forms), not engine options.
OPTIONS = (
    Option("royals", "Ordre des Royals (inversé)", ((False, "Non"), (True, "Oui")), False),
    Option("blind_thunee", "Thunee aveugle", ((False, "Non"), (True, "Oui")), False),
    Option("first_lead", "Entame du premier pli",
           (("dealer_right", "Le joueur à droite du donneur"), ("highest_bidder", "Le plus offrant")),
           "dealer_right"),
    Option("khanuck_13", "Objectif 13 après un Khanuck", ((False, "Non"), (True, "Oui")), False),
    Option("two_ball_margin", "Gagner avec 2 balles d'avance", ((False, "Non"), (True, "Oui")), False),
    Option("mode_strict", "Mode strict (pas de discussion pendant la donne)", ((True, "Oui"), (False, "Non")),
           True),
)

# §8 `mode_strict`: the phases of a deal, from the first card dealt (the redeal and the last 2 cards happen
# inside `apply`, between these phases) to the deal's score (`ROUND_OVER`, `MATCH_OVER`: the chat opens again).
DEAL_PHASES = frozenset({BIDDING, TRUMP, THUNEE_WINDOW, PLAY, JODHI, TRICK6_CALLS})
STRICT_CHAT = "Mode strict : la discussion est fermée pendant la donne. Elle rouvre dès que la donne est comptée."

ALIASES = {"play": "play_card", "name_trump": "choose_trump", "jodhi": "declare_jodhi"}

MESSAGES = {
    **tr.MESSAGES,  # the family's: a move's form, the turn, the phase, the cards, following suit
    "bad_bid": "Une enchère vaut 80, 90 ou 100.",
    "bid_too_low": "Tu dois annoncer plus que l'enchère en cours.",
    "bid_closed": "Personne ne peut enchérir au-dessus de 100 : passe ou annonce un Thunee aveugle.",
    "no_blind_thunee": "Le Thunee aveugle n'est pas prévu à cette table.",
    "bad_suit": "Couleur inconnue.",
    "no_under_trump": "Tu ne peux pas sous-couper ton partenaire tant que tu as une autre carte.",
    "not_in_jodhi_window": "Tu ne peux pas annoncer de Jodhi maintenant.",
    "bad_jodhi": "Un Jodhi, c'est Roi + Dame ou Valet + Dame + Roi d'une même couleur, dans ta main.",
    "jodhi_used": "Une de ces cartes a déjà servi dans un Jodhi.",
    "jodhi_done": "Tu as déjà fini tes annonces de Jodhi.",
    "no_double": "Le Double demande que ton équipe ait pris les cinq premiers plis.",
    "no_khanuck": "Le Khanuck demande un Jodhi annoncé par ton équipe.",
}

other = tr.other


def illegal(code: str, message: str | None = None) -> IllegalMove:
    return IllegalMove(code, message or MESSAGES[code])


def team_name(team: str) -> str:
    return f"l'équipe {team}"


def balls_fr(n: int) -> str:
    return f"+{n} balle" + ("s" if n > 1 else "")


def order_of(state: dict) -> tr.RankOrder:
    return ROYALS if state["options"]["royals"] else ORDER


def eldest(state: dict) -> int:
    return SEATS.next(state["dealer"])


def normal_leader(state: dict) -> int:
    if state["options"]["first_lead"] == "highest_bidder" and state["bidder"] is not None:
        return state["bidder"]
    return eldest(state)


def jodhi_options(state: dict, seat: int) -> list[list[str]]:
    """Jodhi combinations `seat` may declare now: cards in hand, none already declared, trump order."""
    used = {c for j in state["jodhis"] for c in j["cards"]}
    hand = set(state["hands"][seat])
    out = []
    for s in tr.SUITS:
        for ranks in (("K", "Q"), ("J", "Q", "K")):
            combo = [f"{r}{s}1" for r in ranks]
            if set(combo) <= hand and not set(combo) & used:
                out.append(combo)
    return out


def jodhi_value(combo: list[str], trump: str | None) -> int:
    plain, in_trumps = JODHI_VALUES[frozenset(tr.rank(c) for c in combo)]
    return in_trumps if tr.suit(combo[0]) == trump else plain


def team_jodhis(state: dict, team: str) -> int:
    return sum(j["points"] for j in state["jodhis"] if j["team"] == team)


def can_double(state: dict, seat: int) -> bool:
    team = team_of(seat)
    return len(state["tricks"]) == 5 and all(t["team"] == team for t in state["tricks"])


def can_khanuck(state: dict, seat: int) -> bool:
    return any(j["team"] == team_of(seat) for j in state["jodhis"])


def trick6_callers(state: dict, leader: int) -> list[int]:
    return [s for s in SEATS.order_from(leader) if can_double(state, s) or can_khanuck(state, s)]


def autoplay_trump(hand: list[str], order: tr.RankOrder) -> str:
    """§9: the longest suit; tie: the higher card points as trumps; tie: S, H, D, C."""
    def key(s):
        mine = [c for c in hand if tr.suit(c) == s]
        return (-len(mine), -sum(order.points(c, s) for c in mine), tr.SUITS.index(s))
    return min(tr.SUITS, key=key)


def first_dealer(seed: str) -> dict:
    """§2: cards dealt face up one at a time counter-clockwise from seat 0; the first black jack deals."""
    deck = shuffled(DECK, seed, "first-dealer")
    seat = 0
    for dealt, card in enumerate(deck):
        if card in BLACK_JACKS:
            return {"seat": seat, "dealt": dealt, "jack": tr.suit(card)}
        seat = SEATS.next(seat)
    raise AssertionError("a deck without black jacks")  # pragma: no cover
