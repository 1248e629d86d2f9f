import secrets
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, validate_comma_separated_integer_list
from django.db import models
from django.urls import reverse

from engine import games
from engine.base import name_with
from tables import families, table_types


class Game(models.Model):
    """A game of the catalogue. Slugs are the rules file names and the engine registry keys."""

    slug = models.SlugField(unique=True)
    name = models.CharField("nom", max_length=80)
    tagline = models.CharField("accroche", max_length=200, blank=True)
    min_players = models.PositiveSmallIntegerField("joueurs min.")
    max_players = models.PositiveSmallIntegerField("joueurs max.")
    published = models.BooleanField("publié", default=True)
    order = models.PositiveSmallIntegerField("ordre", default=0)
    # Economy, set by admins.
    stakes = models.CharField(
        "mises autorisées", max_length=200, default="0,10,20,50,100",
        validators=[validate_comma_separated_integer_list],
        help_text="Liste de montants séparés par des virgules (0 = partie amicale).",
    )
    default_stake = models.PositiveIntegerField("mise par défaut", default=10)
    bot_payout_debutant = models.DecimalField("gain contre Débutant (× mise)", max_digits=4, decimal_places=2,
                                              default=Decimal("1.00"), validators=[MinValueValidator(0)])
    bot_payout_confirme = models.DecimalField("gain contre Confirmé (× mise)", max_digits=4, decimal_places=2,
                                              default=Decimal("1.50"), validators=[MinValueValidator(0)])
    bot_payout_expert = models.DecimalField("gain contre Expert (× mise)", max_digits=4, decimal_places=2,
                                            default=Decimal("2.00"), validators=[MinValueValidator(0)])
    abandon_penalty = models.PositiveIntegerField(
        "pénalité d'abandon", default=20, help_text="Jetons perdus en plus de la mise si on quitte en cours de partie."
    )

    class Meta:
        ordering = ["order", "name"]
        verbose_name = "jeu"
        verbose_name_plural = "jeux"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("rules_page", args=[self.slug])

    def clean(self) -> None:
        """The admin's form: the default stake must be one of the stakes offered (the lobby would quietly take
        another)."""
        super().clean()
        try:
            offered = self.allowed_stakes()
        except (TypeError, ValueError):
            return  # the stakes field reports its own error
        if self.default_stake not in offered:
            raise ValidationError({"default_stake": "La mise par défaut doit faire partie des mises autorisées."})

    @property
    def feminine(self) -> bool:
        return self.slug in games.available() and games.get(self.slug).info.feminine

    @property
    def du_name(self) -> str:
        """The name after « de » in a sentence: « du … », or « de la … » for a game its engine calls feminine."""
        return name_with(self.name, self.feminine, "du")

    @property
    def au_name(self) -> str:
        """The name after « à » in a sentence: « au … », or « à la … » for a game its engine calls feminine."""
        return name_with(self.name, self.feminine, "au")

    @property
    def playable(self) -> bool:
        """Playable at a live table now (an engine and bots): the home page offers « Jouer », else « Bientôt »."""
        return self.slug in families.live_slugs()

    def allowed_stakes(self) -> list[int]:
        return sorted({int(x) for x in self.stakes.split(",") if x.strip()})

    def bot_payout(self, level: int) -> Decimal:
        return {1: self.bot_payout_debutant, 2: self.bot_payout_confirme, 3: self.bot_payout_expert}[level]


class RulesPage(models.Model):
    """The French rules page of a game, editable in admin. `body` is trusted HTML written by staff."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rules")
    title = models.CharField("titre", max_length=120)
    meta_description = models.CharField("méta-description", max_length=200)
    body = models.TextField("contenu (HTML)")
    updated_at = models.DateTimeField("mis à jour", auto_now=True)
    # Digest of the shipped version last written here (tables/rules_pages/): a page still equal to it was not
    # edited in admin, so the next release may replace it. Empty: unknown (kept as it is).
    shipped_digest = models.CharField("version livrée", max_length=64, blank=True, editable=False)

    class Meta:
        verbose_name = "page de règles"
        verbose_name_plural = "pages de règles"

    def __str__(self) -> str:
        return self.title


def engine_for(table: "Table"):
    """The table's game engine. `game_slug`: read with the table on a move's hot path (tables.reads), sparing the
    game's row."""
    return games.get(getattr(table, "game_slug", None) or table.game.slug)


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Table(models.Model):
    """A table: its game, options, seats, and the live match as a snapshot plus an append-only log."""

    class Status(models.TextChoices):
        WAITING = "waiting", "En attente de joueurs"
        PLAYING = "playing", "En cours"
        FINISHED = "finished", "Terminée"
        CANCELLED = "cancelled", "Annulée"

    class Type(models.TextChoices):
        """How the table is filled and paid: friends and robots chosen by the host; a quick start (whoever is
        waiting, then robots); an Arena (fixed match length, an entry stake won or lost)."""

        FRIENDS = "friends", "Entre amis"
        QUICK = "quick", "Partie rapide"
        ARENA = "arena", "Arène"
        TOURNAMENT = "tournament", "Tournoi"  # seated by a tournament's round (its app): no rematch, no lobby
        # « Rejouer à partir d'ici » (tables.practice): a finished match's step played on by one player against
        # robots; private, unpaid, unrated, uncounted, no rematch.
        PRACTICE = "practice", "Entraînement"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tables", verbose_name="jeu")
    host = models.ForeignKey("accounts.User", on_delete=models.PROTECT, related_name="hosted_tables",
                             verbose_name="hôte")
    seats_count = models.PositiveSmallIntegerField("places")
    options = models.JSONField("options", default=dict, blank=True)
    stake = models.PositiveIntegerField("mise", default=0)
    # Seconds at a live table, hours or days at a slow one (« Partie lente »: tables.table_types.SLOW_TURN_TIMERS).
    turn_timer_s = models.PositiveIntegerField("temps par coup (s)", default=30)
    private = models.BooleanField("privée", default=False)
    table_type = models.CharField("type de table", max_length=10, choices=Type.choices, default=Type.FRIENDS)
    # A rated match updates the players' ratings when it ends; the coach is off in rated and Arena matches.
    rated = models.BooleanField("partie classée", default=False)
    # « Conseil » uses allowed per seat and match (0: no coach at this table).
    coach_limit = models.PositiveSmallIntegerField("conseils par joueur et par partie", default=3)
    # Spectators never act; they may write in the chat only where the host allows it.
    spectators_chat = models.BooleanField("les spectateurs peuvent écrire", default=False)
    # How many people watch now (distinct users with a spectator socket open: tables.spectators), read with
    # the table on every push so the seats see it without another query.
    spectators = models.PositiveSmallIntegerField("spectateurs", default=0, editable=False)
    invite_token = models.CharField(max_length=40, unique=True, default=new_invite_token, editable=False)
    status = models.CharField("statut", max_length=10, choices=Status.choices, default=Status.WAITING,
                              db_index=True)
    version = models.PositiveIntegerField(default=0)
    # A move private to its player (a staged action before its commit, engine `Game.is_private`) is pushed to him
    # alone: the other seats and the spectators stay at `public_version`, the version after the last move everyone
    # saw, and `private_seat` is the place whose private moves came after it (None: none did).
    public_version = models.PositiveIntegerField(default=0, editable=False)
    private_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)
    seed = models.CharField(max_length=64, blank=True, editable=False)  # server-side only
    # Playing: the end of the current move's time. Waiting quick start: when robots fill the empty places.
    deadline = models.DateTimeField("fin du coup en cours", null=True, blank=True)
    # A slow table: when the player whose move it is gets his reminder (tables.notices), None once sent.
    remind_at = models.DateTimeField("rappel", null=True, blank=True, editable=False)
    # The current round's latest public events, one entry per move (tables.recent): « what just happened ».
    recent_events = models.JSONField("derniers coups", default=list, blank=True, editable=False)
    settled = models.BooleanField("jetons réglés", default=False)
    # « Revanche » (tables.rematch): the finished table this one plays again, at most one per finished table.
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch",
                                      editable=False, verbose_name="revanche de")
    # Places kept for named players, {"place": user id} (a rematch's players who have not answered yet):
    # tables.services.seat_join gives such a place to its player only.
    reserved = models.JSONField("places réservées", default=dict, blank=True, editable=False)
    created = models.DateTimeField("créée le", auto_now_add=True)
    started_at = models.DateTimeField("commencée le", null=True, blank=True)
    finished_at = models.DateTimeField("terminée le", null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = "table"
        indexes = [
            models.Index(fields=["status", "deadline"], name="table_status_deadline"),  # the move timers
            models.Index(fields=["status", "remind_at"], name="table_status_remind_at"),  # slow tables' reminders
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} — {self.game}"

    def get_absolute_url(self) -> str:
        return reverse("tables:table", args=[self.pk])

    @property
    def slow(self) -> bool:
        """« Partie lente »: a move's time in hours or days."""
        return table_types.is_slow(self.turn_timer_s)

    @property
    def timer_label(self) -> str:
        return table_types.timer_label(self.turn_timer_s)

    def reserved_places(self) -> dict[int, int]:
        """{place: user id} of the places kept for a named player (`reserved`)."""
        return {int(position): user_id for position, user_id in (self.reserved or {}).items()}

    @property
    def starts_when_full(self) -> bool:
        """A quick start and a rematch start by themselves once every place is taken: nobody presses
        « Commencer » (tables.services.match_start_if_full)."""
        return self.table_type == Table.Type.QUICK or self.rematch_of_id is not None

    def version_seen_by(self, position: int | None) -> int:
        """The version the page of the player at `position` shows (None: a spectator): the table's own for the
        player whose private moves are the latest, `public_version` for everyone else (tables.services)."""
        if self.private_seat is None or (position is not None and position == self.private_seat):
            return self.version
        return self.public_version


class Seat(models.Model):
    """A place at a table: a human player or a bot of some level."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField("place")
    user = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.PROTECT,
                             related_name="seats", verbose_name="joueur")
    bot_level = models.PositiveSmallIntegerField("niveau du robot", null=True, blank=True)
    connections = models.PositiveSmallIntegerField("connexions ouvertes", default=0)
    last_seen = models.DateTimeField("vu le", null=True, blank=True)
    left = models.BooleanField("a quitté", default=False)
    hand_order = models.JSONField("ordre de la main", default=list, blank=True)
    coach_uses = models.PositiveSmallIntegerField("conseils utilisés", default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "user"], condition=models.Q(bot_level__isnull=True),
                                    name="seat_user_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.position}"

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    @property
    def connected(self) -> bool:
        return self.is_bot or self.connections > 0


class ServerProcess(models.Model):
    """A web server process (daphne) holding websockets, alive while it beats (`tables.presence`)."""

    id = models.CharField(primary_key=True, max_length=32)
    label = models.CharField("machine et processus", max_length=120, blank=True)
    started = models.DateTimeField("démarré le", auto_now_add=True)
    last_beat = models.DateTimeField("dernier signe de vie", db_index=True)

    class Meta:
        verbose_name = "processus serveur"
        verbose_name_plural = "processus serveur"

    def __str__(self) -> str:
        return self.label or self.id


class SeatPresence(models.Model):
    """The sockets a server process holds open for a seat: what `Seat.connections` sums. When a process dies
    without closing them (kill -9, machine lost), `tables.presence.reap_dead_servers` takes them off."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="presences")
    server = models.CharField(max_length=32, db_index=True)
    sockets = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "server"], name="presence_seat_server_unique")]

    def __str__(self) -> str:
        return f"{self.seat} @{self.server}: {self.sockets}"


class SpectatorPresence(models.Model):
    """The spectator sockets a server process holds open for a user at a table (tables.spectators); taken off
    with the process's seat presences when it stops beating (tables.presence.reap_dead_servers)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="spectator_presences")
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="+")
    server = models.CharField(max_length=32, db_index=True)
    sockets = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user", "server"],
                                               name="spectator_table_user_server_unique")]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.user_id} @{self.server}: {self.sockets}"


class TableMove(models.Model):
    """The append-only move log. Replaying it from the table's seed rebuilds the snapshot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    move = models.JSONField()
    actor = models.CharField(max_length=10, default="player")  # player, bot, autoplay, system
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="move_seq_unique")]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.move}"


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE)
    text = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class ChatMute(models.Model):
    """« Masquer sa discussion »: `user` does not see the chat lines of `muted` at this table (tables.chat); at
    every table, a player he blocked is hidden from him anyway (accounts.Block)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_mutes")
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="+", verbose_name="joueur")
    muted = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="+", verbose_name="masque")
    created = models.DateTimeField("le", auto_now_add=True)

    class Meta:
        verbose_name = "discussion masquée"
        verbose_name_plural = "discussions masquées"
        constraints = [
            models.UniqueConstraint(fields=["table", "user", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~models.Q(user=models.F("muted")), name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.user} masque {self.muted} (table {self.table_id})"


class MoveComment(models.Model):
    """« Revoir »'s comment on a player's move of a finished match (tables.annotations, computed once in Celery
    after the match): what the Expert robot would have played there and what the move played cost, in the Expert's
    own figure (engine.analysis). `worst`: one of the round's three costliest moves."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="move_comments")
    seq = models.PositiveIntegerField()  # the commented move's number in the log (TableMove.seq)
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveIntegerField()
    best_move = models.JSONField(null=True, blank=True)  # None: nothing to decide (one legal move)
    cost = models.FloatField(null=True, blank=True)  # None: the Expert gives no figure for this move
    unit = models.CharField(max_length=10, default="points")  # or "percent" (engine.analysis)
    comment = models.CharField(max_length=300, blank=True)  # French; "" when there was nothing to decide
    worst = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="move_comment_unique")]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.comment}"


class ImportedMatch(models.Model):
    """A match file a player imported (« Importer une partie », tables.exports): its document, replayed by the
    engine each time its rounds are shown with « Revoir »'s pages. Seen by the player who imported it, no one
    else."""

    owner = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="imported_matches",
                              verbose_name="importée par")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", verbose_name="jeu")
    document = models.JSONField("document")
    created = models.DateTimeField("importée le", auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = "partie importée"
        verbose_name_plural = "parties importées"

    def __str__(self) -> str:
        return f"Partie importée {self.pk} — {self.game}"

    def get_absolute_url(self) -> str:
        return reverse("tables:imported", args=[self.pk])
