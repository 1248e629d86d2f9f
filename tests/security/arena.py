"""Live tables of every playable game, stopped at the interesting moments, for the fuzz and auth tests."""

from dataclasses import dataclass, field

from engine import games
from tables import services
from tables.models import Game, Table
from tests.tables.helpers import create_table


@dataclass
class Spot:
    """One table at one moment: who sits where, who acts, which cards are where."""

    name: str
    table_id: int
    slug: str
    users: dict  # position -> User
    acting: list[int] = field(default_factory=list)
    version: int = 0
    own_cards: dict = field(default_factory=dict)  # position -> hand
    stock: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    legal: list[dict] = field(default_factory=list)  # the acting seat's legal moves

    def __repr__(self) -> str:  # hypothesis prints the drawn spot: its name is enough
        return f"<Spot {self.name} table={self.table_id} v{self.version} acting={self.acting}>"

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))

    @property
    def all_cards(self) -> list[str]:
        return sorted({c for hand in self.own_cards.values() for c in hand} | set(self.stock) | set(self.discard))

    def refresh(self) -> "Spot":
        table = Table.objects.get(pk=self.table_id)
        self.version = table.version
        state = table.state
        if state is None:
            return self
        engine = games.get(self.slug)
        self.acting = engine.to_act(state) if table.status == Table.Status.PLAYING else []
        self.own_cards = {p: list(state["hands"][p]) for p in self.users}
        self.stock = list(state.get("stock") or [])
        self.discard = list(state.get("discard") or [])
        self.legal = engine.legal_moves(state, self.acting[0]) if self.acting else []
        return self


def humans_table(slug: str, users: list, *, options: dict | None = None, stake: int = 10, start: bool = True):
    table = create_table(users[0], slug, seats=len(users), bots={}, stake=stake, options=options, start=False)
    for user in users[1:]:
        services.seat_join(table=table, user=user)
    if start:
        services.table_start(table=table, user=users[0])
    return Table.objects.select_related("game").get(pk=table.pk)


def advance(table: Table, until, max_moves: int = 2000) -> Table:
    """Play the rules' autoplay for whoever acts until `until(state)` holds (or the table stops)."""
    engine = games.get(table.game.slug)
    for _ in range(max_moves):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING or until(table.state):
            return table
        seat = (engine.to_act(table.state) or table.state["active"])[0]
        move = engine.autoplay(table.state, seat)
        outcome = services.play_move(table_id=table.pk, seat=seat, move=move, expected_version=table.version)
        assert outcome.applied, outcome
    raise AssertionError("the table never reached the wanted moment")


def phase_is(*phases):
    return lambda state: state["phase"] in phases


def build_spots(make_player, only: str | None = None) -> list[Spot]:
    """Gin Rami (2 players) and Thanasis (3 players) at each phase, a finished and a waiting table
    (or only the spot named `only`: gin-discard)."""
    alice, bruno, chloe = make_player("alice"), make_player("bruno"), make_player("chloe")
    gin_users = {0: alice, 1: bruno}
    th_users = {0: alice, 1: bruno, 2: chloe}
    spots = []

    def add(name, slug, table, users):
        spots.append(Spot(name, table.pk, slug, users).refresh())

    table = advance(humans_table("gin", [alice, bruno], options={"match": "100"}), phase_is("DISCARD"))
    add("gin-discard", "gin", table, gin_users)
    if only == "gin-discard":
        return spots
    add("gin-upcard", "gin", humans_table("gin", [alice, bruno], options={"match": "100"}), gin_users)
    table = advance(humans_table("gin", [alice, bruno], options={"match": "100"}), phase_is("DRAW"))
    table = advance(table, lambda s: s["phase"] == "DRAW" and s["discard"])
    add("gin-draw", "gin", table, gin_users)
    table = advance(humans_table("gin", [alice, bruno], options={"match": "100"}), phase_is("ROUND_OVER"))
    add("gin-round-over", "gin", table, gin_users)
    table = advance(humans_table("gin", [alice, bruno], options={"match": "1"}), phase_is("MATCH_OVER"))
    add("gin-finished", "gin", table, gin_users)
    add("thanasis-draw", "thanasis", humans_table("thanasis", [alice, bruno, chloe]), th_users)
    table = advance(humans_table("thanasis", [alice, bruno, chloe]), phase_is("DISCARD"))
    add("thanasis-discard", "thanasis", table, th_users)
    waiting = humans_table("thanasis", [alice, bruno], start=False)
    waiting.refresh_from_db()
    spots.append(Spot("thanasis-waiting", waiting.pk, "thanasis", {0: alice, 1: bruno}, version=waiting.version))
    assert Game.objects.filter(slug__in=["gin", "thanasis"]).count() == 2
    return spots
