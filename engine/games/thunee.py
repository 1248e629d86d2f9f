"""Thunee (../shared/rules/thunee.md): four players in two teams, 24 cards, bids of 80–100 card points for
the right to name trumps, six tricks, Jodhi, Thunee, Double, Khanuck; the match is played in balls.

Seats: team A = 0 and 2, team B = 1 and 3. Everything turns counter-clockwise: next(i) = i − 1 (mod 4).

Phases (`phase`): `BIDDING` → `TRUMP` → `THUNEE_WINDOW` → `PLAY` (with `JODHI` after tricks 1 and 3 and
`TRICK6_CALLS` after trick 5 in normal deals) → `ROUND_OVER` (between deals, `next_round`) or `MATCH_OVER`.
The rules' `REDEAL`, `DEAL_2` and `SCORE` steps need no decision: they happen inside `apply` (events
`redeal`, `deal`, `deal_over`).

`chat_closed` (§8 `mode_strict`, on by default): the table chat is closed in every phase of a deal (`BIDDING`
to `TRICK6_CALLS`: from the first card dealt to the deal's score) and open in `ROUND_OVER` and `MATCH_OVER`.

Moves (action ids of the rules file; `legal_moves` lists them in this form):

- `BIDDING`: `{"action": "bid", "value": 80 | 90 | 100}`, `{"action": "pass"}`,
  `{"action": "call_blind_thunee"}` (option `blind_thunee`);
- `TRUMP`: `{"action": "choose_trump", "suit": "S" | "H" | "D" | "C"}` (the highest bidder);
- `THUNEE_WINDOW`: `{"action": "call_thunee"}`, `{"action": "pass"}`;
- `PLAY`: `{"action": "play_card", "card": "JS1"}`;
- `JODHI`: `{"action": "declare_jodhi", "cards": ["KH1", "QH1"]}` (any number), `{"action": "jodhi_done"}`;
- `TRICK6_CALLS`: `{"action": "call_double"}`, `{"action": "call_khanuck"}`, `{"action": "pass"}`;
- `ROUND_OVER`: `{"action": "next_round"}` (any seat).

`apply` also takes the aliases `play` (= `play_card`), `name_trump` (= `choose_trump`) and `jodhi`
(= `declare_jodhi`). `leave` keeps the seat in play (§9: a bot plays it for the rest of the match) and
lists it in `left`.

`to_act`: the one seat asked (`current`), or in `JODHI` both players of the team that won the trick until
each has sent `jodhi_done` (simultaneous decision); [] between deals and at the end.

View keys (`view(state, seat)`; `public_view` is the same with `seat` None, `hand` [] and nothing private):

- `game`, `seats` (4), `options`, `phase`, `round` and `deal` (the deal number from 1; a redeal keeps it);
- `seat`, `team` ("A" / "B"), `partner`: me (None in `public_view`);
- `dealer`, `eldest` (dealer − 1), `direction` ("ccw"), `current`, `to_act`;
- `first_dealer`: `{seat, dealt, jack}`, the black-jack draw (`dealt` cards face up before the jack of suit
  `jack`);
- `players`: per seat `{seat, team, hand_count, hidden_count, left}` (`hidden_count`: a blind-Thunee
  caller's 2 unseen cards);
- `hand`: my cards by suit S, H, D, C, each suit in its rank order (trump order for trumps), highest first;
  `hidden_count`: my unseen blind-Thunee cards (2 until trick 5), never their ids;
- `playable`: the cards I may play now ([] when I am not to play); `legal`: `legal_moves` for me;
- `trick`: the trick being played `{leader, cards: [{seat, card}], number}` (None outside play);
- `tricks`: every finished trick of the deal `{number, leader, cards, winner, team, points}` (all were
  played face up); `last_trick`: the last of them or None; `tricks_won`: `{"A": n, "B": n}`;
- `bids`: the bidding so far `[{seat, action: "bid" | "pass" | "blind_thunee", value}]`; `high`: the
  highest bid so far `{seat, value}` or None; `bid`, `bidder`, `declarers`: the contract once bidding is
  over (None in a blind Thunee; kept in a Thunee, where it is void);
- `kind`: "normal" | "thunee" | "blind_thunee"; `caller`: the Thunee caller or None;
- `trump`: the trump suit once set (named by the bidder, or the Thunee caller's first lead), else None;
  `trump_known`; `trump_hidden` (always False: these rules never keep trumps secret); `named_trump`: the
  suit the bidder named (kept for display when a Thunee voids it);
- `jodhis`: declared Jodhis `[{seat, team, suit, cards, points, after_trick}]` (shown to all); `shown`:
  their cards still in a hand; `jodhi_window`: `{after_trick, team, done: [seats]}` during `JODHI`;
- `call`: the trick-6 call `{kind: "double" | "khanuck", seat, team}` or None; `calls`: the deal's calls in
  order `[{kind, seat, team, points?, cards?}]` (thunee, blind_thunee, jodhi, double, khanuck);
- `points`: card points captured this deal `{"A", "B"}`; `jodhi_points`: `{"A", "B"}`;
- `balls`: `{"A", "B"}`; `target` (12; 13 after a Khanuck with `khanuck_13`); `scores`: balls per seat;
- `last_deal` (`ROUND_OVER` / `MATCH_OVER`, else None): `{round, dealer, kind, bidder, bid, declarers,
  trump, caller, call, points, jodhi_points, tricks_won, outcome, team, balls_won, balls, reason}`
  (`team` the team that scored `balls_won`; `reason` a French sentence); `last_round`: the same (the
  contract's name);
- `history`: one row per deal played, `last_deal` without `declarers`, `jodhi_points`, `tricks_won`,
  `reason`;
- `left`: seats that left (played by bots); `result`: the result once the match is over;
- `stock_count` (cards not yet dealt), `discard_top` None, `discard_pile` [], `arrangement` None: the card
  family's keys.

`outcome`: `made` / `set` (normal), `thunee_made` / `thunee_failed`, `blind_thunee_made` / `blind_thunee_failed`,
`double_made` / `double_failed`, `khanuck_made` / `khanuck_failed`.

Events (audience "all" unless told): `deal` {round, dealer, cards: 4 | 2, seats, redeal}, `bid` {seat,
value}, `bid_pass`, `blind_thunee`, `redeal`, `contract` {seat, value, team}, `trump` {seat, suit, by:
"bidder" | "lead"}, `thunee`, `thunee_pass`, `play` {seat, card, trick}, `trick` {number, winner, team,
points, cards}, `jodhi_window` {after_trick, team}, `jodhi` {seat, team, suit, cards, points, after_trick},
`jodhi_done`, `call_pass`, `double` / `khanuck` {seat, team}, `blind_cards` {seat, cards} (to the caller
only) and `blind_revealed` {seat, count}, `deal_over` (the `last_deal` summary, `kind` as `deal_kind`),
`match_over` {winners, team, balls}, `left`.

State keys besides the contract's: `seed`, `options`, `dealer`, `current`, `hands`, `stock` (cards still to
deal; never in a view), `blind` (the blind-Thunee caller's 2 unseen cards until trick 5), `shuffles`
(redeals of this deal), `bids`, `high`, `passed`, `bid`, `bidder`, `declarers`, `kind`, `caller`, `trump`,
`named_trump`, `queue` (seats still to ask in a window), `leader`, `trick`, `tricks`, `points`, `jodhis`,
`jodhi_window`, `call`, `calls`, `balls`, `target`, `first_dealer`, `last_deal`, `left`, `result`.
"""

from engine import moves
from engine.base import Game, GameInfo, Option, copy_data, event, team_of, to_seat
from engine.errors import IllegalMove
from engine.games import _tricks as tr
from engine.rng import shuffled

BIDDING = "BIDDING"
TRUMP = "TRUMP"
THUNEE_WINDOW = "THUNEE_WINDOW"
PLAY = "PLAY"
JODHI = "JODHI"
TRICK6_CALLS = "TRICK6_CALLS"
ROUND_OVER = "ROUND_OVER"
MATCH_OVER = "MATCH_OVER"

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
TEAMS = {"A": (0, 2), "B": (1, 3)}
BLACK_JACKS = ("JS1", "JC1")

ORDER = tr.RankOrder(
    trump=("J", "9", "A", "10", "K", "Q"),
    plain=("A", "10", "K", "Q", "J", "9"),
    trump_points={"J": 30, "9": 20, "A": 11, "10": 10, "K": 3, "Q": 2},
    plain_points={"J": 0, "9": 0, "A": 11, "10": 10, "K": 3, "Q": 2},
)
ROYALS = ORDER.reversed()

JODHI_VALUES = {frozenset(("K", "Q")): (20, 40), frozenset(("J", "Q", "K")): (30, 50)}
SUIT_FR = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}

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
    "bad_move": "Coup invalide.",
    "unknown_action": "Action inconnue.",
    "bad_seat": "Place inconnue.",
    "match_over": "La partie est terminée.",
    "round_over": "La donne est terminée.",
    "round_not_over": "La donne n'est pas terminée.",
    "not_your_turn": "Ce n'est pas ton tour.",
    "wrong_phase": "Ce coup n'est pas possible maintenant.",
    "bad_bid": "Une enchère vaut 80, 90 ou 100.",
    "bid_too_low": "Tu dois annoncer plus que l'enchère en cours.",
    "bid_closed": "Personne ne peut enchérir au-dessus de 100 : passe ou annonce un Thunee aveugle.",
    "no_blind_thunee": "Le Thunee aveugle n'est pas prévu à cette table.",
    "bad_suit": "Couleur inconnue.",
    "bad_card": "Carte invalide.",
    "unknown_card": "Carte inconnue.",
    "card_not_in_hand": "Tu n'as pas cette carte.",
    "must_follow": "Tu dois fournir.",
    "no_under_trump": "Tu ne peux pas sous-couper ton partenaire tant que tu as une autre carte.",
    "not_in_jodhi_window": "Tu ne peux pas annoncer de Jodhi maintenant.",
    "bad_jodhi": "Un Jodhi, c'est Roi + Dame ou Valet + Dame + Roi d'une même couleur, dans ta main.",
    "jodhi_used": "Une de ces cartes a déjà servi dans un Jodhi.",
    "jodhi_done": "Tu as déjà fini tes annonces de Jodhi.",
    "no_double": "Le Double demande que ton équipe ait pris les cinq premiers plis.",
    "no_khanuck": "Le Khanuck demande un Jodhi annoncé par ton équipe.",
    "no_decision": "Tu n'as rien à jouer maintenant.",
}


def illegal(code: str, message: str | None = None) -> IllegalMove:
    return IllegalMove(code, message or MESSAGES[code])


def other(team: str) -> str:
    return "B" if team == "A" else "A"


def team_name(team: str) -> str:
    return f"l'équipe {team}"


def balls_fr(n: int) -> str:
    return f"+{n} balle" + ("s" if n > 1 else "")


# ---------------------------------------------------------------- rules helpers

def order_of(state: dict) -> tr.RankOrder:
    return ROYALS if state["options"]["royals"] else ORDER


def eldest(state: dict) -> int:
    return SEATS.next(state["dealer"])


def normal_leader(state: dict) -> int:
    if state["options"]["first_lead"] == "highest_bidder" and state["bidder"] is not None:
        return state["bidder"]
    return eldest(state)


def winning_play(state: dict) -> dict | None:
    plays = state["trick"]
    if not plays:
        return None
    seat = tr.trick_winner(plays, state["trump"], order_of(state))
    return next(p for p in plays if p["seat"] == seat)


def playable(state: dict, seat: int) -> list[str]:
    """§5: the cards `seat` may play now (his turn in PLAY), else []."""
    if state["phase"] != PLAY or state["current"] != seat:
        return []
    hand = state["hands"][seat]
    plays = state["trick"]
    if not plays:
        return list(hand)
    trump = state["trump"]
    led = tr.suit(plays[0]["card"])
    allowed = tr.follow_suit(hand, led)
    if any(tr.suit(c) == led for c in hand):
        return allowed
    best = winning_play(state)
    if trump is None or team_of(best["seat"]) != team_of(seat) or tr.suit(best["card"]) != trump:
        return allowed
    if all(tr.suit(c) == trump for c in hand):
        return allowed
    order = order_of(state)
    top = order.position(best["card"], trump)
    return [c for c in allowed if tr.suit(c) != trump or order.position(c, trump) < top]


def refusal(state: dict, seat: int, card: str) -> IllegalMove:
    """Why `card` (held) may not be played: not following, or under-trumping the partner."""
    led = tr.suit(state["trick"][0]["card"])
    if any(tr.suit(c) == led for c in state["hands"][seat]):
        return illegal("must_follow", f"Tu dois fournir à {SUIT_FR[led]}.")
    return illegal("no_under_trump")


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


def lowest_card(legal: list[str], trump: str | None, order: tr.RankOrder) -> str:
    """§9: the lowest-ranked card, every non-trump below every trump; ties S, H, D, C."""
    return min(legal, key=lambda c: (tr.suit(c) == trump, -order.position(c, trump),
                                     tr.SUITS.index(tr.suit(c))))


# ---------------------------------------------------------------- state copies

_DEAL_LISTS = ("stock", "blind", "bids", "passed", "queue", "trick", "tricks", "jodhis", "calls")


def fork(state: dict) -> dict:
    """A copy of `state` sharing only what no move changes in place (finished tricks, bids, history rows)."""
    new = dict(state)
    new["hands"] = [list(h) for h in state["hands"]]
    for key in _DEAL_LISTS:
        new[key] = list(state[key])
    new["points"] = dict(state["points"])
    if state["jodhi_window"] is not None:
        window = dict(state["jodhi_window"])
        window["done"] = list(window["done"])
        new["jodhi_window"] = window
    return new


# ---------------------------------------------------------------- the game

class Thunee(Game):
    info = GameInfo(slug="thunee", name="Thunee", min_players=4, max_players=4, default_players=4,
                    options=OPTIONS, teams=True, order=10, bots="engine.bots.thunee",
                    tagline="Le jeu de plis à deux équipes, de 9 à l'As, avec atout et annonces.")
    family = "tricks"
    rule_sections = {
        "not_your_turn": "tour-de-jeu",
        **dict.fromkeys(("bad_bid", "bid_too_low", "bid_closed"), "encheres"),
        "no_blind_thunee": "thunee-aveugle",
        "bad_suit": "atout",
        **dict.fromkeys(("must_follow", "no_under_trump"), "jouer-un-pli"),
        **dict.fromkeys(("bad_jodhi", "jodhi_used", "not_in_jodhi_window", "jodhi_done"), "jodhi"),
        **dict.fromkeys(("no_double", "no_khanuck"), "double-khanuck"),
    }
    stats_low_is_better = False
    stats_labels = {"rounds_won": "Donnes gagnées (équipe)"}

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        """A deal scores balls for one team only: the balls it won, 0 for the other."""
        if "team" not in row:
            return None, {}
        won = row["team"] == team_of(seat)
        return (int(row.get("balls_won") or 0) if won else 0), ({"rounds_won": 1} if won else {})
    move_shape = {
        **moves.BASE_SHAPE,
        "value": tr.IntChoice(BIDS),
        "suit": moves.Text(1),
        "card": moves.CARD,
        "cards": moves.ListOf(moves.CARD, 3),
    }
    action_labels = {
        "bid": "Enchérir",
        "pass": "Passer",
        "call_blind_thunee": "Thunee aveugle\u00a0!",
        "choose_trump": "Choisir l'atout",
        "call_thunee": "Thunee\u00a0!",
        "play_card": "Jouer",
        "declare_jodhi": "Jodhi",
        "jodhi_done": "Fini",
        "call_double": "Double\u00a0!",
        "call_khanuck": "Khanuck\u00a0!",
        "next_round": "Donne suivante",
    }
    phase_hints = {
        **Game.phase_hints,
        "ROUND_OVER": "Donne terminée.",
        BIDDING: "Enchéris (80, 90, 100) ou passe.",
        TRUMP: "Choisis la couleur d'atout.",
        THUNEE_WINDOW: "Annonce un Thunee (tous les plis à toi seul) ou passe.",
        PLAY: "Joue une carte.",
        JODHI: "Annonce tes Jodhi (Roi + Dame, Valet + Dame + Roi) ou termine.",
        TRICK6_CALLS: "Annonce un Double ou un Khanuck, ou passe.",
    }
    deck = DECK

    # -- match and deals

    def new_match(self, seats: int, options: dict, seed: str) -> dict:
        if isinstance(seats, bool) or seats != 4:
            raise ValueError(f"seats={seats!r}")
        if not isinstance(seed, str) or not seed:
            raise ValueError("seed")
        state = {
            "game": self.slug, "seats": 4, "options": self.info.clean_options(options), "seed": seed,
            "phase": None, "round": 0, "active": [0, 1, 2, 3], "scores": [0, 0, 0, 0], "history": [],
            "dealer": None, "current": None, "hands": [[], [], [], []], "stock": [], "blind": [],
            "shuffles": 0, "balls": {"A": 0, "B": 0}, "target": TARGET, "last_deal": None, "left": [],
            "result": None, "first_dealer": first_dealer(seed),
        }
        self._start_deal(state, state["first_dealer"]["seat"])
        return state

    def chat_closed(self, state: dict) -> str | None:
        """§8 `mode_strict` (on by default): no table chat from the first card dealt to the deal's score."""
        if state.get("options", {}).get("mode_strict", True) and state.get("phase") in DEAL_PHASES:
            return STRICT_CHAT
        return None

    def _start_deal(self, state: dict, dealer: int) -> list[dict]:
        state["round"] += 1
        state["dealer"] = dealer
        state["shuffles"] = 0
        state["last_deal"] = None
        return self._deal_four(state)

    def _deal_four(self, state: dict, redeal: bool = False) -> list[dict]:
        """§3: shuffle, 4 cards each counter-clockwise from the eldest, then bidding (mutates `state`)."""
        deck = shuffled(DECK, state["seed"], f"d{state['round']}:s{state['shuffles']}")
        order = SEATS.order_from(eldest(state))
        hands = [[], [], [], []]
        for _ in range(4):
            for s in order:
                hands[s].append(deck.pop())
        state.update({
            "phase": BIDDING, "current": order[0], "hands": hands, "stock": deck, "blind": [],
            "bids": [], "high": None, "passed": [], "bid": None, "bidder": None, "declarers": None,
            "kind": NORMAL, "caller": None, "trump": None, "named_trump": None, "queue": [],
            "leader": None, "trick": [], "tricks": [], "points": {"A": 0, "B": 0}, "jodhis": [],
            "jodhi_window": None, "call": None, "calls": [],
        })
        return [event("deal", round=state["round"], dealer=state["dealer"], cards=4, seats=order, redeal=redeal)]

    def _deal_two(self, new: dict) -> list[dict]:
        order = SEATS.order_from(eldest(new))
        for _ in range(2):
            for s in order:
                card = new["stock"].pop()
                if new["kind"] == BLIND and s == new["caller"]:
                    new["blind"].append(card)
                else:
                    new["hands"][s].append(card)
        events = [event("deal", round=new["round"], dealer=new["dealer"], cards=2, seats=order, redeal=False)]
        if new["kind"] == BLIND:
            return events + self._start_play(new, new["caller"])
        new["phase"] = TRUMP
        new["current"] = new["bidder"]
        return events

    def _start_play(self, new: dict, leader: int) -> list[dict]:
        new["phase"] = PLAY
        new["queue"] = []
        new["leader"] = leader
        new["current"] = leader
        return []

    # -- contract: who acts, what is legal

    def to_act(self, state: dict) -> list[int]:
        phase = state["phase"]
        if phase == JODHI:
            window = state["jodhi_window"]
            return [s for s in TEAMS[window["team"]] if s not in window["done"]]
        if phase in (ROUND_OVER, MATCH_OVER) or state["current"] is None:
            return []
        return [state["current"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == MATCH_OVER or not isinstance(seat, int) or not 0 <= seat < 4:
            return []
        if phase == ROUND_OVER:
            return [{"action": "next_round"}]
        if seat not in self.to_act(state):
            return []
        if phase == BIDDING:
            high = state["high"]["value"] if state["high"] else 0
            out = [{"action": "bid", "value": v} for v in BIDS if v > high]
            out.append({"action": "pass"})
            if state["options"]["blind_thunee"]:
                out.append({"action": "call_blind_thunee"})
            return out
        if phase == TRUMP:
            return [{"action": "choose_trump", "suit": s} for s in tr.SUITS]
        if phase == THUNEE_WINDOW:
            return [{"action": "call_thunee"}, {"action": "pass"}]
        if phase == PLAY:
            return [{"action": "play_card", "card": c}
                    for c in tr.sorted_hand(playable(state, seat), state["trump"], order_of(state))]
        if phase == JODHI:
            out = [{"action": "declare_jodhi", "cards": combo} for combo in jodhi_options(state, seat)]
            return out + [{"action": "jodhi_done"}]
        if phase == TRICK6_CALLS:
            out = [{"action": "call_double"}] if can_double(state, seat) else []
            if can_khanuck(state, seat):
                out.append({"action": "call_khanuck"})
            return out + [{"action": "pass"}]
        return []

    def apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list[dict]]:
        if not isinstance(move, dict):
            raise illegal("bad_move")
        action = move.get("action")
        action = ALIASES.get(action, action) if isinstance(action, str) else action
        handler = getattr(self, f"_do_{action}", None) if isinstance(action, str) else None
        if handler is None:
            raise illegal("unknown_action")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise illegal("bad_seat")
        if action == "leave":
            return self.leave(state, seat)
        phase = state["phase"]
        if phase == MATCH_OVER:
            raise illegal("match_over")
        if action == "next_round":
            if phase != ROUND_OVER:
                raise illegal("round_not_over")
            return self._do_next_round(state, seat, move)
        if phase == ROUND_OVER:
            raise illegal("round_over")
        if seat not in self.to_act(state):
            raise illegal("not_your_turn")
        return handler(state, seat, move)

    # -- bidding

    def _do_bid(self, state, seat, move):
        self._phase(state, BIDDING)
        value = move.get("value")
        if isinstance(value, bool) or value not in BIDS:
            raise illegal("bad_bid")
        high = state["high"]
        if high and high["value"] == BIDS[-1]:
            raise illegal("bid_closed")
        if high and value <= high["value"]:
            raise illegal("bid_too_low", f"Tu dois annoncer plus que {high['value']}.")
        new = fork(state)
        new["high"] = {"seat": seat, "value": value}
        new["bids"].append({"seat": seat, "action": "bid", "value": value})
        return new, [event("bid", seat=seat, value=value)] + self._next_bidder(new, seat)

    def _do_pass(self, state, seat, move):
        if state["phase"] == THUNEE_WINDOW:
            new = fork(state)
            new["queue"].pop(0)
            events = [event("thunee_pass", seat=seat)]
            if new["queue"]:
                new["current"] = new["queue"][0]
                return new, events
            return new, events + self._start_play(new, normal_leader(new))
        if state["phase"] == TRICK6_CALLS:
            new = fork(state)
            new["queue"].pop(0)
            events = [event("call_pass", seat=seat)]
            if new["queue"]:
                new["current"] = new["queue"][0]
                return new, events
            return new, events + self._start_play(new, new["leader"])
        self._phase(state, BIDDING)
        new = fork(state)
        new["passed"].append(seat)
        new["bids"].append({"seat": seat, "action": "pass", "value": None})
        return new, [event("bid_pass", seat=seat)] + self._next_bidder(new, seat)

    def _do_call_blind_thunee(self, state, seat, move):
        self._phase(state, BIDDING)
        if not state["options"]["blind_thunee"]:
            raise illegal("no_blind_thunee")
        new = fork(state)
        new["bids"].append({"seat": seat, "action": "blind_thunee", "value": None})
        new.update({"kind": BLIND, "caller": seat, "high": None, "bid": None, "bidder": None,
                    "declarers": None})
        new["calls"].append({"kind": BLIND, "seat": seat, "team": team_of(seat)})
        return new, [event("blind_thunee", seat=seat)] + self._deal_two(new)

    def _next_bidder(self, new: dict, seat: int) -> list[dict]:
        """§4 BIDDING end: back to the high bidder (the others passed), all four passed, or a closed 100."""
        passed = new["passed"]
        if len(passed) == 4:
            new["shuffles"] += 1
            return [event("redeal", round=new["round"], dealer=new["dealer"])] + self._deal_four(new, redeal=True)
        nxt = SEATS.next(seat)
        while nxt in passed:
            nxt = SEATS.next(nxt)
        high = new["high"]
        closed = high and high["value"] == BIDS[-1] and not new["options"]["blind_thunee"]
        if high and (nxt == high["seat"] or closed):
            new["bid"] = high["value"]
            new["bidder"] = high["seat"]
            new["declarers"] = team_of(high["seat"])
            return [event("contract", seat=high["seat"], value=high["value"], team=new["declarers"])] + \
                self._deal_two(new)
        new["current"] = nxt
        return []

    # -- trumps and the Thunee window

    def _do_choose_trump(self, state, seat, move):
        self._phase(state, TRUMP)
        suit = move.get("suit")
        if suit not in tr.SUITS:
            raise illegal("bad_suit")
        new = fork(state)
        new["trump"] = suit
        new["named_trump"] = suit
        new["phase"] = THUNEE_WINDOW
        new["queue"] = SEATS.order_from(normal_leader(new))
        new["current"] = new["queue"][0]
        return new, [event("trump", seat=seat, suit=suit, by="bidder")]

    def _do_call_thunee(self, state, seat, move):
        self._phase(state, THUNEE_WINDOW)
        new = fork(state)
        new.update({"kind": THUNEE, "caller": seat, "trump": None})
        new["calls"].append({"kind": THUNEE, "seat": seat, "team": team_of(seat)})
        return new, [event("thunee", seat=seat)] + self._start_play(new, seat)

    # -- play

    def _do_play_card(self, state, seat, move):
        self._phase(state, PLAY)
        card = move.get("card")
        if not isinstance(card, str):
            raise illegal("bad_card")
        if card not in DECK_SET:
            raise illegal("unknown_card")
        if card not in state["hands"][seat]:
            raise illegal("card_not_in_hand")
        if card not in playable(state, seat):
            raise refusal(state, seat, card)
        new = fork(state)
        new["hands"][seat].remove(card)
        events = []
        if not new["trick"] and new["trump"] is None:
            new["trump"] = tr.suit(card)  # §4: a Thunee caller's first lead names trumps
            events.append(event("trump", seat=seat, suit=new["trump"], by="lead"))
        new["trick"].append({"seat": seat, "card": card})
        events.append(event("play", seat=seat, card=card, trick=len(new["tricks"]) + 1))
        if len(new["trick"]) < 4:
            new["current"] = SEATS.next(seat)
            return new, events
        return new, events + self._close_trick(new)

    def _close_trick(self, new: dict) -> list[dict]:
        order = order_of(new)
        plays = new["trick"]
        winner = tr.trick_winner(plays, new["trump"], order)
        points = tr.trick_points(plays, new["trump"], order)
        team = team_of(winner)
        done = {"number": len(new["tricks"]) + 1, "leader": new["leader"], "cards": plays,
                "winner": winner, "team": team, "points": points}
        new["tricks"].append(done)
        new["points"][team] += points
        new["trick"] = []
        new["leader"] = winner
        number = done["number"]
        events = [event("trick", number=number, winner=winner, team=team, points=points, cards=plays)]
        if new["kind"] != NORMAL:
            if winner != new["caller"] or number == 6:
                return events + self._score(new)
            if number == 4 and new["kind"] == BLIND:
                caller = new["caller"]
                new["hands"][caller].extend(new["blind"])
                events.append(event("blind_cards", to_seat(caller), seat=caller, cards=list(new["blind"])))
                events.append(event("blind_revealed", seat=caller, count=len(new["blind"])))
                new["blind"] = []
            new["current"] = winner
            return events
        if number == 6:
            return events + self._score(new)
        if number in (1, 3):
            new["phase"] = JODHI
            new["current"] = None
            new["jodhi_window"] = {"after_trick": number, "team": team, "done": []}
            return events + [event("jodhi_window", after_trick=number, team=team)]
        if number == 5:
            return events + self._open_trick6(new)
        new["current"] = winner
        return events

    def _open_trick6(self, new: dict) -> list[dict]:
        callers = trick6_callers(new, new["leader"])
        if not callers:
            return self._start_play(new, new["leader"])
        new["phase"] = TRICK6_CALLS
        new["queue"] = callers
        new["current"] = callers[0]
        return []

    # -- Jodhi, Double, Khanuck

    def _do_declare_jodhi(self, state, seat, move):
        self._phase(state, JODHI, "not_in_jodhi_window")
        chosen = move.get("cards")
        if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
            raise illegal("bad_jodhi")
        hand = state["hands"][seat]
        if len(set(chosen)) != len(chosen) or not set(chosen) <= set(hand):
            raise illegal("bad_jodhi")
        suits = {tr.suit(c) for c in chosen}
        if len(suits) != 1 or frozenset(tr.rank(c) for c in chosen) not in JODHI_VALUES:
            raise illegal("bad_jodhi")
        used = {c for j in state["jodhis"] for c in j["cards"]}
        if set(chosen) & used:
            raise illegal("jodhi_used")
        combo = tr.sorted_hand(chosen, state["trump"], ORDER)
        points = jodhi_value(combo, state["trump"])
        new = fork(state)
        entry = {"seat": seat, "team": team_of(seat), "suit": tr.suit(combo[0]), "cards": combo,
                 "points": points, "after_trick": state["jodhi_window"]["after_trick"]}
        new["jodhis"].append(entry)
        new["calls"].append({"kind": "jodhi", "seat": seat, "team": entry["team"], "points": points,
                             "cards": combo})
        return new, [event("jodhi", **entry)]

    def _do_jodhi_done(self, state, seat, move):
        self._phase(state, JODHI)
        new = fork(state)
        window = new["jodhi_window"]
        window["done"].append(seat)
        events = [event("jodhi_done", seat=seat)]
        if self.to_act(new):
            return new, events
        new["jodhi_window"] = None
        return new, events + self._start_play(new, new["leader"])

    def _do_call_double(self, state, seat, move):
        self._phase(state, TRICK6_CALLS)
        if not can_double(state, seat):
            raise illegal("no_double")
        return self._trick6_call(state, seat, "double")

    def _do_call_khanuck(self, state, seat, move):
        self._phase(state, TRICK6_CALLS)
        if not can_khanuck(state, seat):
            raise illegal("no_khanuck")
        return self._trick6_call(state, seat, "khanuck")

    def _trick6_call(self, state, seat, kind):
        new = fork(state)
        call = {"kind": kind, "seat": seat, "team": team_of(seat)}
        new["call"] = call
        new["calls"].append(dict(call))
        if kind == "khanuck" and new["options"]["khanuck_13"]:
            new["target"] = max(new["target"], 13)
        return new, [event(kind, seat=seat, team=call["team"])] + self._start_play(new, new["leader"])

    # -- scoring

    def _score(self, new: dict) -> list[dict]:
        """§6: exactly one team scores balls; then the match end of §7 (mutates the forked `new`)."""
        team, balls, outcome, reason = self._outcome(new)
        jodhi_points = {t: team_jodhis(new, t) for t in TEAMS}
        tricks_won = {t: sum(1 for x in new["tricks"] if x["team"] == t) for t in TEAMS}
        new["balls"] = dict(new["balls"])
        new["balls"][team] += balls
        new["scores"] = [new["balls"][team_of(s)] for s in range(4)]
        summary = {
            "round": new["round"], "dealer": new["dealer"], "kind": new["kind"], "bidder": new["bidder"],
            "bid": new["bid"], "declarers": new["declarers"], "trump": new["trump"], "caller": new["caller"],
            "call": copy_data(new["call"]), "points": dict(new["points"]), "jodhi_points": jodhi_points,
            "tricks_won": tricks_won, "outcome": outcome, "team": team, "balls_won": balls,
            "balls": dict(new["balls"]), "reason": reason,
        }
        new["last_deal"] = summary
        row = {k: copy_data(v) for k, v in summary.items() if k not in ("declarers", "jodhi_points",
                                                                         "tricks_won", "reason")}
        new["history"] = new["history"] + [row]
        new["current"] = None
        new["queue"] = []
        told = {("deal_kind" if k == "kind" else k): v for k, v in copy_data(summary).items()}
        events = [event("deal_over", **told)]
        winner = self._match_winner(new, summary)
        if winner is None:
            new["phase"] = ROUND_OVER
            return events
        new["phase"] = MATCH_OVER
        winners = list(TEAMS[winner])
        losers = list(TEAMS[other(winner)])
        new["result"] = {"winners": winners, "ranking": winners + losers, "scores": list(new["scores"]),
                         "balls": dict(new["balls"]), "team": winner, "target": new["target"],
                         "reason": "target"}
        return events + [event("match_over", winners=winners, team=winner, balls=dict(new["balls"]))]

    def _outcome(self, new: dict) -> tuple[str, int, str, str]:
        """(scoring team, balls, outcome id, French reason) of the deal just finished."""
        tricks = new["tricks"]
        if new["kind"] in (THUNEE, BLIND):
            caller = new["caller"]
            team = team_of(caller)
            blind = new["kind"] == BLIND
            name = "Thunee aveugle" if blind else "Thunee"
            if len(tricks) == 6 and all(t["winner"] == caller for t in tricks):
                balls = 4 if blind else 2
                return team, balls, f"{new['kind']}_made", \
                    f"{name} réussi : six plis sur six. {balls_fr(balls)} pour {team_name(team)}."
            balls = 8 if blind else 4
            lost = tricks[-1]["number"]
            return other(team), balls, f"{new['kind']}_failed", \
                f"{name} chuté : le pli {lost} est pris par un autre joueur. " \
                f"{balls_fr(balls)} pour {team_name(other(team))}."
        call = new["call"]
        last = tricks[-1]["team"]
        if call and call["kind"] == "double":
            team = call["team"]
            if last == team:
                return team, 2, "double_made", f"Double réussi : {team_name(team)} prend les six plis. " \
                                               f"{balls_fr(2)} pour {team_name(team)}."
            return other(team), 4, "double_failed", \
                f"Double chuté : {team_name(other(team))} prend le dernier pli. " \
                f"{balls_fr(4)} pour {team_name(other(team))}."
        if call and call["kind"] == "khanuck":
            team = call["team"]
            jk = team_jodhis(new, team)
            po = new["points"][other(team)]
            if last != team:
                return other(team), 4, "khanuck_failed", \
                    f"Khanuck chuté : {team_name(other(team))} prend le dernier pli. " \
                    f"{balls_fr(4)} pour {team_name(other(team))}."
            if po < jk + 10:
                return team, 3, "khanuck_made", \
                    f"Khanuck réussi : dernier pli, et {team_name(other(team))} n'a que {po} points " \
                    f"(moins de {jk} + 10). {balls_fr(3)} pour {team_name(team)}."
            return other(team), 4, "khanuck_failed", \
                f"Khanuck chuté : {team_name(other(team))} a {po} points, pas moins de {jk} + 10. " \
                f"{balls_fr(4)} pour {team_name(other(team))}."
        team = new["declarers"]
        pd = new["points"][team]
        jd = team_jodhis(new, team)
        detail = f"{pd + jd} points ({pd} en plis + {jd} de Jodhi)" if jd else f"{pd} points"
        if pd + jd >= new["bid"]:
            return team, 1, "made", f"Contrat réussi : {team_name(team)} a {detail} pour {new['bid']} " \
                                    f"annoncés. {balls_fr(1)} pour {team_name(team)}."
        return other(team), 1, "set", f"Contrat chuté : {team_name(team)} n'a que {detail} pour " \
                                      f"{new['bid']} annoncés. {balls_fr(1)} pour {team_name(other(team))}."

    def _match_winner(self, new: dict, summary: dict) -> str | None:
        """§7: the target reached (and a 2-ball lead with `two_ball_margin`); the tie-break on the deal's
        card points plus Jodhis if both teams qualify (unreachable when one team scores per deal)."""
        balls = new["balls"]
        margin = 2 if new["options"]["two_ball_margin"] else 0
        ready = [t for t in TEAMS if balls[t] >= new["target"] and balls[t] - balls[other(t)] >= margin]
        if len(ready) <= 1:
            return ready[0] if ready else None
        deal_points = {t: summary["points"][t] + summary["jodhi_points"][t] for t in TEAMS}
        if deal_points["A"] == deal_points["B"]:
            return summary["team"]
        return max(TEAMS, key=lambda t: deal_points[t])

    # -- between deals, leaving, autoplay

    def _do_next_round(self, state, seat, move):
        new = dict(state)
        return new, self._start_deal(new, SEATS.next(state["dealer"]))

    def _do_leave(self, state, seat, move):  # dispatched in apply
        return self.leave(state, seat)

    def leave(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        """§9 Leaving: a bot plays the seat for the rest of the match; the state only notes it."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise illegal("bad_seat")
        if state["phase"] == MATCH_OVER or seat in state["left"]:
            return dict(state), []
        new = dict(state)
        new["left"] = state["left"] + [seat]
        return new, [event("left", seat=seat)]

    def autoplay_waits(self, state: dict) -> bool:
        """§9: four disconnected seats would pass and redeal for ever: the table waits in the bidding."""
        return state["phase"] == BIDDING

    def autoplay(self, state: dict, seat: int) -> dict:
        """§9: pass, never bid or call; trumps by length; `jodhi_done`; the lowest-ranked legal card."""
        phase = state["phase"]
        if phase == ROUND_OVER:
            return {"action": "next_round"}
        if phase == MATCH_OVER or seat not in self.to_act(state):
            raise illegal("no_decision")
        if phase in (BIDDING, THUNEE_WINDOW, TRICK6_CALLS):
            return {"action": "pass"}
        if phase == TRUMP:
            return {"action": "choose_trump", "suit": autoplay_trump(state["hands"][seat], order_of(state))}
        if phase == JODHI:
            return {"action": "jodhi_done"}
        card = lowest_card(playable(state, seat), state["trump"], order_of(state))
        return {"action": "play_card", "card": card}

    def result(self, state: dict) -> dict | None:
        if state["phase"] != MATCH_OVER or state["result"] is None:
            return None
        return copy_data(state["result"])

    def _phase(self, state: dict, phase: str, code: str = "wrong_phase") -> None:
        if state["phase"] != phase:
            raise illegal(code)

    # -- views

    def public_view(self, state: dict) -> dict:
        return self._view(state, None)

    def view(self, state: dict, seat: int) -> dict:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise illegal("bad_seat")
        return self._view(state, seat)

    def _view(self, state: dict, seat: int | None) -> dict:
        order = order_of(state)
        trump = state["trump"]
        phase = state["phase"]
        tricks = copy_data(state["tricks"])
        in_hands = {c for h in state["hands"] for c in h}
        over = phase in (ROUND_OVER, MATCH_OVER)
        blind_count = len(state["blind"])
        me_playable = playable(state, seat) if seat is not None else []
        return {
            "game": state["game"], "seats": 4, "options": dict(state["options"]), "phase": phase,
            "round": state["round"], "deal": state["round"],
            "seat": seat, "team": team_of(seat) if seat is not None else None,
            "partner": (seat + 2) % 4 if seat is not None else None,
            "dealer": state["dealer"], "eldest": eldest(state), "direction": "ccw",
            "current": state["current"], "to_act": self.to_act(state),
            "first_dealer": dict(state["first_dealer"]),
            "players": [
                {"seat": s, "team": team_of(s), "hand_count": len(state["hands"][s]),
                 "hidden_count": blind_count if s == state["caller"] and state["kind"] == BLIND else 0,
                 "left": s in state["left"]}
                for s in range(4)
            ],
            "hand": tr.sorted_hand(state["hands"][seat], trump, order) if seat is not None else [],
            "hidden_count": blind_count if seat is not None and seat == state["caller"] else 0,
            "playable": tr.sorted_hand(me_playable, trump, order),
            "legal": self.legal_moves(state, seat) if seat is not None else [],
            "trick": None if phase not in (PLAY, JODHI, TRICK6_CALLS) else {
                "leader": state["leader"], "cards": [dict(p) for p in state["trick"]],
                "number": len(state["tricks"]) + 1},
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "tricks_won": {t: sum(1 for x in state["tricks"] if x["team"] == t) for t in TEAMS},
            "bids": [dict(b) for b in state["bids"]],
            "high": dict(state["high"]) if state["high"] else None,
            "bid": state["bid"], "bidder": state["bidder"], "declarers": state["declarers"],
            "kind": state["kind"], "caller": state["caller"],
            "trump": trump, "trump_known": trump is not None, "trump_hidden": False,
            "named_trump": state["named_trump"],
            "jodhis": copy_data(state["jodhis"]),
            "shown": tr.sorted_hand([c for j in state["jodhis"] for c in j["cards"] if c in in_hands], trump, order),
            "jodhi_window": copy_data(state["jodhi_window"]),
            "call": copy_data(state["call"]),
            "calls": copy_data(state["calls"]),
            "points": dict(state["points"]),
            "jodhi_points": {t: team_jodhis(state, t) for t in TEAMS},
            "balls": dict(state["balls"]), "target": state["target"], "scores": list(state["scores"]),
            "last_deal": copy_data(state["last_deal"]) if over else None,
            "last_round": copy_data(state["last_deal"]) if over else None,
            "history": copy_data(state["history"]),
            "left": list(state["left"]),
            "result": self.result(state),
            "stock_count": len(state["stock"]), "discard_top": None, "discard_pile": [], "arrangement": None,
        }


def first_dealer(seed: str) -> dict:
    """§2: cards dealt face up one at a time counter-clockwise from seat 0; the first black jack deals."""
    deck = shuffled(DECK, seed, "first-dealer")
    seat = 0
    for dealt, card in enumerate(deck):
        if card in BLACK_JACKS:
            return {"seat": seat, "dealt": dealt, "jack": tr.suit(card)}
        seat = SEATS.next(seat)
    raise AssertionError("a deck without black jacks")  # pragma: no cover


GAME = Thunee()

__all__ = ["GAME", "DECK", "ORDER", "ROYALS", "Thunee", "playable"]
