"""Thunee (../shared/rules/thunee.md): four players in two teams, 24 cards, bids of 80–100 card points for
the right to name trumps, six tricks, Jodhi, Thunee, Double, Khanuck; the match is played in balls.

One game of the trick-taking family: `Thunee` is a `TrickGame` (engine/games/_tricks.py), which holds the team
seats (team A = 0 and 2, team B = 1 and 3; everything turns counter-clockwise: next(i) = i − 1 (mod 4)),
dealing in turn, the trump suit, who leads, following suit, playing a card, winning a trick, the trick display
of the view and the phases `PLAY`, `ROUND_OVER`, `MATCH_OVER`. Thunee adds its own layer:

- this module: the game (`GameInfo`, labels, hints, rules-page sections, statistics), the black-jack draw of
  the first dealer, its deal (4 cards, bidding, then 2 more; a blind-Thunee caller's 2 unseen cards), the
  under-trump rule (a void player may not under-trump his partner's winning trump), the Thunee caller's
  first lead naming trumps, what each trick leads to (Jodhi windows, the trick-6 calls, a Thunee's early
  end), its view keys and `mode_strict`;
- `_thunee_rules.py`: phases, deal kinds, deck, card order and points (`ORDER`, `ROYALS`), bids, Jodhi
  values, options, messages and the pure helpers (Jodhi combinations, who may call, the autoplay's trumps);
- `_thunee_calls.py` (`ThuneeCalls`, mixed in): bidding and redeal, naming trumps, the Thunee window and
  blind Thunee, Jodhi declarations, Double and Khanuck;
- `_thunee_scoring.py`: the deal's count in balls and the match to 12 (or its target).

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
from engine.base import GameInfo, copy_data, event, team_of, to_seat
from engine.games import _thunee_scoring as scoring
from engine.games import _tricks as tr
from engine.games._thunee_calls import ThuneeCalls
from engine.games._thunee_rules import (
    ALIASES,
    BIDDING,
    BIDS,
    BLACK_JACKS,
    BLIND,
    DEAL_PHASES,
    DECK,
    DECK_SET,
    JODHI,
    JODHI_VALUES,
    MATCH_OVER,
    MESSAGES,
    NORMAL,
    OPTIONS,
    ORDER,
    PACK_POINTS,
    PLAY,
    RANKS,
    ROUND_OVER,
    ROYALS,
    SEATS,
    STRICT_CHAT,
    SUIT_FR,
    TARGET,
    TEAMS,
    THUNEE,
    THUNEE_WINDOW,
    TRICK6_CALLS,
    TRUMP,
    autoplay_trump,
    balls_fr,
    can_double,
    can_khanuck,
    eldest,
    first_dealer,
    illegal,
    jodhi_options,
    jodhi_value,
    normal_leader,
    order_of,
    other,
    team_jodhis,
    team_name,
    trick6_callers,
)

lowest_card = tr.lowest_card  # §9: the autoplay's card, the family's lowest-ranked legal card


class Thunee(ThuneeCalls, tr.TrickGame):
    info = GameInfo(slug="thunee", name="Thunee", min_players=4, max_players=4, default_players=4,
                    options=OPTIONS, teams=True, order=10, bots="engine.bots.thunee", problems="thunee",
                    tagline="Le jeu de plis à deux équipes, de 9 à l'As, avec atout et annonces.")
    rule_sections = {
        "not_your_turn": "tour-de-jeu",
        **dict.fromkeys(("bad_bid", "bid_too_low", "bid_closed"), "encheres"),
        "no_blind_thunee": "thunee-aveugle",
        "bad_suit": "atout",
        **dict.fromkeys(("must_follow", "no_under_trump"), "jouer-un-pli"),
        **dict.fromkeys(("bad_jodhi", "jodhi_used", "not_in_jodhi_window", "jodhi_done"), "jodhi"),
        **dict.fromkeys(("no_double", "no_khanuck"), "double-khanuck"),
    }
    stats_labels = {"rounds_won": "Donnes gagnées (équipe)"}
    move_shape = {
        **tr.TrickGame.move_shape,
        "value": tr.IntChoice(BIDS),
        "suit": moves.Text(1),
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
        **tr.TrickGame.phase_hints,
        BIDDING: "Enchéris (80, 90, 100) ou passe.",
        TRUMP: "Choisis la couleur d'atout.",
        THUNEE_WINDOW: "Annonce un Thunee (tous les plis à toi seul) ou passe.",
        JODHI: "Annonce tes Jodhi (Roi + Dame, Valet + Dame + Roi) ou termine.",
        TRICK6_CALLS: "Annonce un Double ou un Khanuck, ou passe.",
    }
    deck = DECK
    order = ORDER
    seating = SEATS
    messages = MESSAGES
    aliases = ALIASES
    trick_phases = frozenset({PLAY, JODHI, TRICK6_CALLS})  # the trick stays on the table in the call windows
    deal_lists = ("stock", "blind", "bids", "passed", "queue", "trick", "tricks", "jodhis", "calls")

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        """A deal scores balls for one team only: the balls it won, 0 for the other."""
        if "team" not in row:
            return None, {}
        won = row["team"] == team_of(seat)
        return (int(row.get("balls_won") or 0) if won else 0), ({"rounds_won": 1} if won else {})

    def card_order(self, state: dict) -> tr.RankOrder:
        """§8 `royals`: the reversed order (Q, K, 10, A, 9, J in trumps), the same card points."""
        return order_of(state)

    def fork(self, state: dict) -> dict:
        new = super().fork(state)
        if state["jodhi_window"] is not None:
            window = dict(state["jodhi_window"])
            window["done"] = list(window["done"])
            new["jodhi_window"] = window
        return new

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

    def _new_deal(self, state: dict) -> list[dict]:
        state["shuffles"] = 0
        state["last_deal"] = None
        return self._deal_four(state)

    def _deal_four(self, state: dict, redeal: bool = False) -> list[dict]:
        """§3: shuffle, 4 cards each counter-clockwise from the eldest, then bidding (mutates `state`)."""
        order = self._shuffle_and_deal(state, f"d{state['round']}:s{state['shuffles']}", 4)
        state.update({
            "phase": BIDDING, "current": order[0], "blind": [],
            "bids": [], "high": None, "passed": [], "bid": None, "bidder": None, "declarers": None,
            "kind": NORMAL, "caller": None, "trump": None, "named_trump": None, "queue": [],
            "leader": None, "trick": [], "tricks": [], "points": {"A": 0, "B": 0}, "jodhis": [],
            "jodhi_window": None, "call": None, "calls": [],
        })
        return [event("deal", round=state["round"], dealer=state["dealer"], cards=4, seats=order, redeal=redeal)]

    def _deal_two(self, new: dict) -> list[dict]:
        """§3 DEAL_2: 2 more cards each (a blind-Thunee caller's face down, unseen until trick 5)."""
        receivers = list(new["hands"])
        if new["kind"] == BLIND:
            receivers[new["caller"]] = new["blind"]
        order = self._deal(new, 2, receivers)
        events = [event("deal", round=new["round"], dealer=new["dealer"], cards=2, seats=order, redeal=False)]
        if new["kind"] == BLIND:
            return events + self._start_play(new, new["caller"])
        new["phase"] = TRUMP
        new["current"] = new["bidder"]
        return events

    def _start_play(self, new: dict, leader: int) -> list[dict]:
        new["queue"] = []
        return super()._start_play(new, leader)

    # -- who acts, the cards

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] == JODHI:
            window = state["jodhi_window"]
            return [s for s in TEAMS[window["team"]] if s not in window["done"]]
        return super().to_act(state)

    def _void_rule(self, state: dict, seat: int, allowed: list[str]) -> list[str]:
        """§5: void in the led suit, a player may not under-trump his partner's winning trump unless he holds
        nothing but trumps."""
        trump = state["trump"]
        best = self.winning_play(state)
        if trump is None or team_of(best["seat"]) != team_of(seat) or tr.suit(best["card"]) != trump:
            return allowed
        if all(tr.suit(c) == trump for c in state["hands"][seat]):
            return allowed
        order = self.card_order(state)
        top = order.position(best["card"], trump)
        return [c for c in allowed if tr.suit(c) != trump or order.position(c, trump) < top]

    def _void_refusal(self, state: dict, seat: int, card: str):
        return illegal("no_under_trump")

    def _lead_events(self, new: dict, seat: int, card: str) -> list[dict]:
        """§4: a Thunee caller's first lead names trumps."""
        if new["trump"] is not None:
            return []
        new["trump"] = tr.suit(card)
        return [event("trump", seat=seat, suit=new["trump"], by="lead")]

    def _after_trick(self, new: dict, done: dict) -> list[dict]:
        """A Thunee ends with the first trick the caller loses; a blind caller takes up his 2 cards after trick
        4; a normal deal opens the Jodhi window after tricks 1 and 3 and the trick-6 calls after trick 5."""
        number, winner, team = done["number"], done["winner"], done["team"]
        events = []
        if new["kind"] != NORMAL:
            if winner != new["caller"] or number == 6:
                return self._score(new)
            if number == 4 and new["kind"] == BLIND:
                caller = new["caller"]
                new["hands"][caller].extend(new["blind"])
                events.append(event("blind_cards", to_seat(caller), seat=caller, cards=list(new["blind"])))
                events.append(event("blind_revealed", seat=caller, count=len(new["blind"])))
                new["blind"] = []
            new["current"] = winner
            return events
        if number == 6:
            return self._score(new)
        if number in (1, 3):
            new["phase"] = JODHI
            new["current"] = None
            new["jodhi_window"] = {"after_trick": number, "team": team, "done": []}
            return [event("jodhi_window", after_trick=number, team=team)]
        if number == 5:
            return self._open_trick6(new)
        new["current"] = winner
        return events

    def _score(self, new: dict) -> list[dict]:
        return scoring.score(new)

    def autoplay_waits(self, state: dict) -> bool:
        """§9: four disconnected seats would pass and redeal for ever: the table waits in the bidding."""
        return state["phase"] == BIDDING

    # -- views

    table_words = {
        "match": "Balles", "match_one": "balle", "match_many": "balles",
        "match_caption": "Balles de la partie et points de la donne, par équipe",
        "history_caption": "Balles marquées à chaque donne, la plus récente en haut",
        "bonus": "Points annoncés", "shown": "montrée en Jodhi",
        "score_note": "L'équipe qui prend l'enchère doit ramasser au moins autant de points de cartes (154 dans le"
                      " jeu) ; chaque donne rapporte des balles à une seule équipe.",
    }

    def scoreboard(self, view: dict) -> dict:
        """The family's score sheet read from Thunee's keys: balls to the target, Jodhis announced and shown."""
        last = view.get("last_deal")
        return {"match": view.get("balls") or {}, "target": view.get("target"),
                "bonus": view.get("jodhi_points") or {}, "shown": view.get("jodhis") or (),
                "deal": None if not last else {"match": last.get("balls") or {}, "won": last.get("balls_won"),
                                               "bonus": last.get("jodhi_points") or {}},
                "history_won": [row.get("balls_won") for row in view.get("history") or ()]}

    def player_view(self, state: dict, seat: int) -> dict:
        hidden = len(state["blind"]) if seat == state["caller"] and state["kind"] == BLIND else 0
        return {"seat": seat, "team": team_of(seat), "hand_count": len(state["hands"][seat]),
                "hidden_count": hidden, "left": seat in state["left"]}

    def game_view(self, state: dict, seat: int | None, order: tr.RankOrder) -> dict:
        in_hands = {c for h in state["hands"] for c in h}
        over = state["phase"] in (ROUND_OVER, MATCH_OVER)
        return {
            "first_dealer": dict(state["first_dealer"]),
            "hidden_count": len(state["blind"]) if seat is not None and seat == state["caller"] else 0,
            "bids": [dict(b) for b in state["bids"]],
            "high": dict(state["high"]) if state["high"] else None,
            "bid": state["bid"], "bidder": state["bidder"], "declarers": state["declarers"],
            "kind": state["kind"], "caller": state["caller"],
            "named_trump": state["named_trump"],
            "jodhis": copy_data(state["jodhis"]),
            "shown": tr.sorted_hand([c for j in state["jodhis"] for c in j["cards"] if c in in_hands],
                                    state["trump"], order),
            "jodhi_window": copy_data(state["jodhi_window"]),
            "call": copy_data(state["call"]),
            "calls": copy_data(state["calls"]),
            "jodhi_points": {t: team_jodhis(state, t) for t in TEAMS},
            "balls": dict(state["balls"]), "target": state["target"],
            "last_deal": copy_data(state["last_deal"]) if over else None,
            "last_round": copy_data(state["last_deal"]) if over else None,
        }


GAME = Thunee()


def playable(state: dict, seat: int) -> list[str]:
    """§5: the cards `seat` may play now (his turn in PLAY), else []."""
    return GAME.playable(state, seat)


__all__ = [
    "ALIASES", "BIDDING", "BIDS", "BLACK_JACKS", "BLIND", "DEAL_PHASES", "DECK", "DECK_SET", "GAME", "JODHI",
    "JODHI_VALUES", "MATCH_OVER", "MESSAGES", "NORMAL", "OPTIONS", "ORDER", "PACK_POINTS", "PLAY", "RANKS",
    "ROUND_OVER", "ROYALS", "SEATS", "STRICT_CHAT", "SUIT_FR", "TARGET", "TEAMS", "THUNEE", "THUNEE_WINDOW",
    "TRICK6_CALLS", "TRUMP", "Thunee", "autoplay_trump", "balls_fr", "can_double", "can_khanuck", "eldest",
    "first_dealer", "illegal", "jodhi_options", "jodhi_value", "lowest_card", "normal_leader", "order_of", "other",
    "playable", "team_jodhis", "team_name", "trick6_callers",
]
