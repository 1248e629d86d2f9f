"""The contract every game implements, and helpers shared by all of them."""

import pickle
from dataclasses import dataclass, field

from engine import moves

ALL = "all"


def event(kind: str, audience="all", **data) -> dict:
    """An event: what happened and who may see it.

    audience: "all", {"seat": n} or {"team": "A"|"B"}. Data stays JSON-serialisable.
    """
    return {"kind": kind, "audience": audience, **data}


def copy_data(value):
    """A deep copy of a state's plain data (dicts, lists, strings, numbers), as `copy.deepcopy` makes it, about six
    times faster: a view copies the match's history for every seat after every move (tables.rendering)."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def to_seat(seat: int) -> dict:
    return {"seat": seat}


def to_team(team: str) -> dict:
    return {"team": team}


# Team games seat four players, partners face to face: A = seats 0 and 2, B = seats 1 and 3. The one place that
# says so: the engines, the site's tables, points and presenters read it from here.
TEAM_SEATS = {"A": (0, 2), "B": (1, 3)}
TEAM_TABLE_SEATS = 4


def team_of(seat: int) -> str:
    """A seat's team (TEAM_SEATS)."""
    return "A" if seat % 2 == 0 else "B"


def team_index(seat: int) -> int:
    """A seat's team as 0 (A) or 1 (B)."""
    return seat % 2


def partner_of(seat: int, seats_count: int = TEAM_TABLE_SEATS) -> int | None:
    """The seat facing `seat` at a team table, or None at a table of another size."""
    return (seat + 2) % 4 if seats_count == TEAM_TABLE_SEATS else None


def visible_to(evt: dict, seat: int | None) -> bool:
    """Whether `seat` (None = spectator) may see `evt`."""
    audience = evt["audience"]
    if audience == ALL:
        return True
    if seat is None:
        return False
    if "seat" in audience:
        return audience["seat"] == seat
    if "team" in audience:
        return team_of(seat) == audience["team"]
    return False


def private_move(game, before: dict, seat: int | None, move: dict, events: list) -> bool:
    """Whether the move just applied changes nothing the other seats and the spectators may know: the game says so
    (`Game.is_private`: a staged action before its commit) and every event it returned is addressed to its player
    alone. The site pushes such a move to its player only (tables.services), its replays skip it (tables.replays)
    and its match files keep only the staged actions the commit needs (tables.match_file)."""
    if seat is None or not game.is_private(before, seat, move):
        return False
    return all(evt.get("audience") == {"seat": seat} for evt in events)


@dataclass(frozen=True)
class Option:
    """A table option a host may choose, from the game's rules file §8."""

    name: str
    label: str  # French
    choices: tuple  # ((value, French label), ...)
    default: object


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: str  # French name in the UI
    min_players: int
    max_players: int
    default_players: int
    # The catalogue: the game's place in the lists (home page, lobby) and its one-line French pitch.
    order: int = 0
    tagline: str = ""
    # The module of its robots' adapter (engine.bots.<module>.ADAPTER); "" while no robot plays it.
    bots: str = ""
    # The module of its « Problèmes » finder (engine.problems.<module>.FINDER); "" while it has none.
    problems: str = ""
    options: tuple[Option, ...] = field(default_factory=tuple)
    teams: bool = False
    # Site features a rules file may ask for (canasta-tuiles §7–§10): account points won or lost per round
    # played, and the « Joker » button paid from the player's account joker balance.
    account_points_per_round: int = 0
    account_jokers: bool = False
    # The options an Arena table forces (its rules file's Arena format, e.g. three rounds plus tie-breaks);
    # None: the game has no Arena.
    arena_options: dict | None = None
    # The move timers a table may choose (seconds) and the one a new table starts with (each rules file's §8).
    turn_timers: tuple[int, ...] = (15, 30, 60)
    default_turn_timer: int = 30
    feminine: bool = False  # « la Canasta »: the site's sentences say « de la » / « à la » before the name

    def clean_options(self, options: dict | None) -> dict:
        """Options with defaults filled in; unknown keys dropped; bad values -> ValueError."""
        options = options or {}
        cleaned = {}
        for opt in self.options:
            value = options.get(opt.name, opt.default)
            allowed = [v for v, _ in opt.choices]
            if value not in allowed:
                raise ValueError(f"{opt.name}={value!r}")
            cleaned[opt.name] = value
        return cleaned


def name_with(name: str, feminine: bool, form: str) -> str:
    """A game's name after « de » or « à » in a French sentence: « du Rami », « de la Canasta classique »,
    « au Rami », « à la Canasta classique » (form: "du" or "au")."""
    article = {"du": ("du", "de la"), "au": ("au", "à la")}[form][feminine]
    return f"{article} {name}"


class Game:
    """Base class. Subclasses implement the rules; states are plain JSON dicts.

    Every method is pure: none mutates the state it receives.
    """

    info: GameInfo
    # The parameters a move may carry ({name: engine.moves spec}); a family adds its own.
    move_shape: dict = moves.BASE_SHAPE
    # The family of games this one belongs to: the site draws its table with that family's presenter and pieces.
    family: str = ""
    # The French words of the family's action buttons and of what the acting player is asked in each phase.
    action_labels: dict = {}
    phase_hints: dict = {"ROUND_OVER": "Manche terminée.", "MATCH_OVER": "Partie terminée."}
    # Statistics (`match_stats`): whether a lower round score is the better one (penalty points, as in most
    # rummies) and the French names of the family's counters, in display order.
    stats_low_is_better: bool = True
    stats_labels: dict = {"rounds_won": "Manches gagnées"}

    # « Meilleure disposition » (engine.coach.dispositions): a family whose round end counts the cards left in
    # hand as they are sets a method `disposition(hand) -> {"melds", "deadwood", "points"}`, the solver's best
    # arrangement of that hand. None: the round end already shows every hand arranged (or no melds at all).
    disposition = None

    # « Pourquoi ? » next to a refused move: the section of the game's rules page that explains a refusal, by the
    # IllegalMove's code: the id of a heading of tables/rules_pages/<slug>.html. A code not listed: the page's top.
    rule_sections: dict = {}

    @property
    def slug(self) -> str:
        return self.info.slug

    def rule_section(self, code: str) -> str:
        """The id of the rules page's section that explains the refusal `code` ("": none in particular)."""
        return self.rule_sections.get(code, "")

    def action_label(self, action: str, view: dict) -> str:
        """The button's French label for `action` at this moment (a game may name a special case)."""
        return self.action_labels.get(action, "")

    def clean_move(self, move) -> dict:
        """`move` checked against `move_shape` (known parameters, types, sizes, storable text) and reduced to
        it; raises IllegalMove. The table service applies and logs only the cleaned move."""
        return moves.clean(move, self.move_shape)

    def new_match(self, seats: int, options: dict, seed: str) -> dict:
        raise NotImplementedError

    def to_act(self, state: dict) -> list[int]:
        """Seats that must act now (several during simultaneous decisions)."""
        raise NotImplementedError

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        """Every move `seat` may make now; [] when it is not this seat's decision.

        Moves with free parameters (e.g. a knock arrangement, a meld) are listed
        in a canonical form; `apply` may accept other equivalent forms.
        """
        raise NotImplementedError

    def apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list[dict]]:
        """(new_state, events); raises IllegalMove and leaves `state` untouched."""
        raise NotImplementedError

    def is_private(self, before: dict, seat: int, move: dict) -> bool:
        """Whether `move`, just applied by `seat` to `before`, changes nothing any other seat or a spectator may
        know (a staged action before its commit: a lay-down, a lay-off, an undo, a proposal of the table). The
        table service then pushes that move to `seat` alone: the others learn neither when nor how often he
        stages. Its events must then all be addressed to `seat` alone. Default: False (every seat sees it)."""
        return False

    def view(self, state: dict, seat: int) -> dict:
        """All that `seat` may know, nothing more."""
        raise NotImplementedError

    def public_view(self, state: dict) -> dict:
        """What a spectator may know."""
        raise NotImplementedError

    def result(self, state: dict) -> dict | None:
        """None while the match goes on; then {"winners": [...], "ranking": [...], ...}."""
        raise NotImplementedError

    def autoplay(self, state: dict, seat: int) -> dict:
        """The move the rules' autoplay policy (§9) makes for `seat` (timeout, disconnection)."""
        raise NotImplementedError

    def autoplay_waits(self, state: dict) -> bool:
        """Whether, with nobody at the table (no robot, no player connected), the rules want the table to wait
        for a player to come back rather than autoplay this decision (Thunee's bidding: four autoplay passes would
        redeal for ever)."""
        return False

    def chat_closed(self, state: dict) -> str | None:
        """Why the players may not write in the table chat now (a French sentence the site shows in place of the
        chat form and answers to a refused line), or None when the chat is open. The default: always open. A
        game whose rules close the chat at some moments (Thunee's `mode_strict` during a deal) says so here."""
        return None

    def with_joker_balances(self, state: dict, balances: dict[int, int]) -> dict:
        """The state knowing each seat's account joker balance (`info.account_jokers` games; the table service
        passes the humans' balances when the match starts). A `joker_taken` event tells the service to debit one."""
        return state

    def leave(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        """The seat abandons the match (§9 "Leaving")."""
        raise NotImplementedError

    # -- statistics (read by the site once a match is over; pure, like the rest of the contract)

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        """(`seat`'s points in this `history` row, or None when it did not play that round; its counters).

        The default reads the contract's history rows: `points` per seat (a list) or per team (a dict keyed
        "A"/"B"), a void round scores nothing, and `winner` (or `closer`) wins the round."""
        if row.get("void"):
            return None, {}
        points = row.get("points")
        if isinstance(points, dict):
            value = points.get(team_of(seat))
        elif isinstance(points, list) and seat < len(points):
            value = points[seat]
        else:
            value = None
        if value is None:
            return None, {}
        won = row.get("winner", row.get("closer")) == seat
        return int(value), ({"rounds_won": 1} if won else {})

    def match_places(self, state: dict, result: dict) -> dict[int, int]:
        """{seat: place} (1 = first; equal places are ties): the winners share the first place; a team game
        has two places; the others follow the result's `ranking`."""
        seats = int(state.get("seats") or len(state.get("scores") or []))
        winners = [w for w in result.get("winners") or [] if 0 <= w < seats]
        if self.info.teams:
            won = {team_of(w) for w in winners}
            return {s: 1 if team_of(s) in won else 2 for s in range(seats)}
        places = dict.fromkeys(winners, 1)
        rest = [s for s in result.get("ranking") or [] if s not in places and 0 <= s < seats]
        rest += [s for s in range(seats) if s not in places and s not in rest]
        base = 2 if winners else 1
        for index, s in enumerate(rest):
            places[s] = base + index
        return places

    def match_stats(self, state: dict, result: dict) -> dict[int, dict]:
        """Per seat, once the match is over: {"rounds", "points" (sum of its round scores), "best_round"
        (its best round score, by `stats_low_is_better`; None without a round), "counters" (the family's
        counts, named in `stats_labels`), "place"}."""
        places = self.match_places(state, result)
        stats = {s: {"rounds": 0, "points": 0, "best_round": None, "counters": {}, "place": places[s]}
                 for s in places}
        better = min if self.stats_low_is_better else max
        for row in state.get("history") or []:
            for seat, entry in stats.items():
                value, counters = self.round_stats(row, seat)
                for name, count in counters.items():
                    entry["counters"][name] = entry["counters"].get(name, 0) + count
                if value is None:
                    continue
                entry["rounds"] += 1
                entry["points"] += value
                entry["best_round"] = value if entry["best_round"] is None else better(entry["best_round"], value)
        return stats
