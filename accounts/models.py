from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Greatest, Least


class BotLevel(models.IntegerChoices):
    DEBUTANT = 1, "Débutant"
    CONFIRME = 2, "Confirmé"
    EXPERT = 3, "Expert"


class User(AbstractUser):
    """A player. Bots are users flagged `is_bot`, one per level, who can never log in."""

    is_bot = models.BooleanField("robot", default=False)
    bot_level = models.PositiveSmallIntegerField("niveau du robot", choices=BotLevel.choices, null=True, blank=True)
    four_colour_deck = models.BooleanField("jeu à quatre couleurs", default=False)
    turn_sound = models.BooleanField("son quand c'est mon tour", default=False)
    # What the player receives by e-mail (accounts.notifications.MAILED): the slow cases only.
    mail_turn = models.BooleanField("e-mail quand c'est mon tour (partie lente)", default=True)
    mail_reminder = models.BooleanField("e-mail de rappel avant la fin de mon temps", default=True)
    mail_invitation = models.BooleanField("e-mail quand on m'invite à une table", default=True)
    games_played = models.PositiveIntegerField("parties jouées", default=0)
    games_won = models.PositiveIntegerField("parties gagnées", default=0)
    # The last page this player asked for, refreshed at most once a minute (accounts.middleware): his friends see
    # him « en ligne » for a few minutes after it (accounts.friends.ONLINE_WINDOW).
    last_seen = models.DateTimeField("vu le", null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "joueur"
        verbose_name_plural = "joueurs"

    @property
    def pseudo(self) -> str:
        return self.username


class Account(models.Model):
    """A place tokens can be: a player's wallet, the house, or a table's pot."""

    class Kind(models.TextChoices):
        PLAYER = "player", "Joueur"
        HOUSE = "house", "Banque"
        POT = "pot", "Pot de table"
        PRIZES = "prizes", "Cagnotte de tournoi"  # the entry stakes, paid out by rank at the end

    kind = models.CharField("type", max_length=10, choices=Kind.choices)
    user = models.OneToOneField(User, null=True, blank=True, on_delete=models.PROTECT, related_name="account")
    table_id = models.BigIntegerField("table", null=True, blank=True, unique=True)
    tournament_id = models.BigIntegerField("tournoi", null=True, blank=True, unique=True)
    balance = models.BigIntegerField("solde", default=0)  # cache of the sum of its entries, same transaction
    allow_negative = models.BooleanField(default=False)  # only the house may go below zero

    class Meta:
        verbose_name = "compte"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(allow_negative=True) | models.Q(balance__gte=0), name="balance_not_negative"
            ),
            # The house is created lazily (get_or_create): two first uses at once must not make two.
            models.UniqueConstraint(fields=["kind"], condition=models.Q(kind="house"), name="one_house_account"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return f"Joueur {self.user}"
        if self.kind == self.Kind.POT:
            return f"Pot de la table {self.table_id}"
        if self.kind == self.Kind.PRIZES:
            return f"Cagnotte du tournoi {self.tournament_id}"
        return "Banque"


class LedgerEntry(models.Model):
    """One side of a transfer. Append-only: entries are never updated or deleted."""

    class Reason(models.TextChoices):
        GRANT = "grant", "Dotation de départ"
        STAKE = "stake", "Mise"
        WIN = "win", "Gain"
        BOT_PAYOUT = "bot_payout", "Gain contre les robots"
        LOSS = "loss", "Perte contre les robots"
        PENALTY = "penalty", "Pénalité d'abandon"
        REFUND = "refund", "Remboursement"
        ADJUST = "adjust", "Ajustement"

    transfer = models.UUIDField("transfert", db_index=True)
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries", verbose_name="compte")
    counterpart = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="+", verbose_name="contrepartie"
    )
    amount = models.BigIntegerField("montant")
    reason = models.CharField("motif", max_length=20, choices=Reason.choices)
    table_id = models.BigIntegerField("table", null=True, blank=True)
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    created = models.DateTimeField("date", auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "écriture"
        verbose_name_plural = "grand livre"
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["idempotency_key", "account"], name="entry_idempotent_per_account"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount:+d} ({self.get_reason_display()})"


class EconomySettings(models.Model):
    """Site-wide economy, edited by admins (a single row)."""

    starting_grant = models.PositiveIntegerField("dotation de départ", default=1000)

    class Meta:
        verbose_name = "réglages de l'économie"
        verbose_name_plural = "réglages de l'économie"

    def __str__(self) -> str:
        return "Réglages de l'économie"

    @classmethod
    def current(cls) -> "EconomySettings":
        obj, _ = cls.objects.get_or_create(pk=1)
        return obj


class Counter(models.Model):
    """A player's balance of something that is not tokens: account points (a score won and lost at the tables)
    or jokers (spent by a game's « Joker » button). Not in the token ledger: points are not conserved (a win
    against robots creates them) and neither is worth tokens; the cached balance follows the append-only
    `CounterEntry` journal in the same transaction, as the token ledger does."""

    class Kind(models.TextChoices):
        POINTS = "points", "Points de compte"
        JOKERS = "jokers", "Jokers"

    user = models.ForeignKey(User, on_delete=models.PROTECT, related_name="counters", verbose_name="joueur")
    kind = models.CharField("type", max_length=10, choices=Kind.choices)
    balance = models.BigIntegerField("solde", default=0)  # cache of the sum of its entries, same transaction

    class Meta:
        verbose_name = "compteur"
        verbose_name_plural = "compteurs (points, jokers)"
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_counter_per_kind"),
            # Points may fall below zero (a losing streak); a joker balance never does.
            models.CheckConstraint(condition=models.Q(kind="points") | models.Q(balance__gte=0),
                                   name="jokers_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} de {self.user}"


class CounterEntry(models.Model):
    """One move of a counter. Append-only: entries are never updated or deleted; the idempotency key makes a
    retried settlement, move or admin form apply once."""

    class Reason(models.TextChoices):
        WIN = "win", "Partie gagnée"
        LOSS = "loss", "Partie perdue"
        GRANT = "grant", "Dotation"
        ADJUST = "adjust", "Ajustement"
        SPENT = "spent", "Joker utilisé"

    counter = models.ForeignKey(Counter, on_delete=models.PROTECT, related_name="entries", verbose_name="compteur")
    amount = models.BigIntegerField("montant")
    reason = models.CharField("motif", max_length=10, choices=Reason.choices)
    table_id = models.BigIntegerField("table", null=True, blank=True)
    note = models.CharField("note", max_length=200, blank=True)
    author = models.ForeignKey(User, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                               verbose_name="saisi par")
    idempotency_key = models.CharField(max_length=120)
    created = models.DateTimeField("date", auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "mouvement de compteur"
        verbose_name_plural = "mouvements de compteurs"
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["counter", "idempotency_key"], name="counter_entry_idempotent"),
        ]

    def __str__(self) -> str:
        return f"{self.counter}: {self.amount:+d} ({self.get_reason_display()})"


class JokerMove(CounterEntry):
    """The joker entries, for their admin page (grants and adjustments)."""

    class Meta:
        proxy = True
        verbose_name = "mouvement de jokers"
        verbose_name_plural = "jokers : dotations et ajustements"


class PointsMove(CounterEntry):
    """The account-points entries, for their read-only admin page."""

    class Meta:
        proxy = True
        verbose_name = "mouvement de points"
        verbose_name_plural = "points de compte (journal)"


class MatchRecord(models.Model):
    """One player's line of one finished match, written once when the match ends (unique per player and table:
    a retried settlement or a second backfill adds nothing). The game is its catalogue slug: accounts does not
    know the tables app."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="match_records", verbose_name="joueur")
    table_id = models.BigIntegerField("table")
    game = models.CharField("jeu", max_length=40)
    finished = models.DateTimeField("terminée le")
    position = models.PositiveSmallIntegerField("place à la table")
    place = models.PositiveSmallIntegerField("classement")
    won = models.BooleanField("gagnée")
    rounds = models.PositiveIntegerField("manches jouées", default=0)
    points = models.BigIntegerField("points marqués", default=0)
    best_round = models.IntegerField("meilleure manche", null=True, blank=True)
    counters = models.JSONField("compteurs du jeu", default=dict, blank=True)
    token_delta = models.BigIntegerField("jetons gagnés ou perdus", default=0)
    rated = models.BooleanField("classée", default=False)
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        verbose_name = "partie d'un joueur"
        verbose_name_plural = "parties des joueurs"
        ordering = ["-finished", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "table_id"], name="match_record_once")]
        indexes = [models.Index(fields=["user", "-finished"], name="match_record_recent"),
                   models.Index(fields=["table_id"], name="match_record_table")]

    def __str__(self) -> str:
        return f"{self.user} · table {self.table_id}"


class PlayerGameStats(models.Model):
    """A player's totals in one game: the sums of his match records, kept up to date as each is written."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="game_stats", verbose_name="joueur")
    game = models.CharField("jeu", max_length=40)
    matches = models.PositiveIntegerField("parties jouées", default=0)
    wins = models.PositiveIntegerField("parties gagnées", default=0)
    rounds = models.PositiveIntegerField("manches jouées", default=0)
    points = models.BigIntegerField("points marqués", default=0)
    best_round = models.IntegerField("meilleure manche", null=True, blank=True)
    counters = models.JSONField("compteurs du jeu", default=dict, blank=True)
    tokens_won = models.BigIntegerField("jetons gagnés", default=0)
    tokens_lost = models.BigIntegerField("jetons perdus", default=0)

    class Meta:
        verbose_name = "statistiques par jeu"
        verbose_name_plural = "statistiques par jeu"
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_stats_once")]

    def __str__(self) -> str:
        return f"{self.user} · {self.game}"

    @property
    def average_points(self) -> float | None:
        return self.points / self.rounds if self.rounds else None


class Rating(models.Model):
    """A player's OpenSkill rating in one game (Plackett-Luce: mu, sigma); `score` = mu - 3 sigma, the
    conservative estimate the leaderboard sorts by. Robots are not rated here: they play at the published,
    fixed rating of their level (engine/bots/strength.json)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings", verbose_name="joueur")
    game = models.CharField("jeu", max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    score = models.FloatField("cote")
    matches = models.PositiveIntegerField("parties classées", default=0)
    updated = models.DateTimeField("mise à jour", auto_now=True)

    class Meta:
        verbose_name = "cote"
        verbose_name_plural = "cotes (classement)"
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_once")]
        indexes = [models.Index(fields=["game", "-score"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} · {self.game}: {self.score:.1f}"


class Notification(models.Model):
    """Something that happened for a player away from his page: his turn in a slow table, an invitation, a friend
    request, a rematch offer, a match result. One per player and event (`key`), so an event told twice is told
    once; the bell counts the unread ones (accounts.notifications). Never holds a hidden card: its text is
    written by the site, never copied from a game's state."""

    class Kind(models.TextChoices):
        TURN = "turn", "À toi de jouer"
        REMINDER = "reminder", "Rappel avant la fin du temps"
        INVITATION = "invitation", "Invitation à une table"
        FRIEND_REQUEST = "friend_request", "Demande d'ami"
        REMATCH = "rematch", "Revanche proposée"
        RESULT = "result", "Résultat de partie"
        TOURNAMENT = "tournament", "Tournoi"

    class Mail(models.TextChoices):
        NONE = "", "Pas d'e-mail"
        PENDING = "pending", "À envoyer"
        SENT = "sent", "Envoyé"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications", verbose_name="joueur")
    kind = models.CharField("type", max_length=20, choices=Kind.choices)
    text = models.CharField("texte", max_length=200)
    url = models.CharField("lien", max_length=200)
    key = models.CharField("événement", max_length=100)
    created = models.DateTimeField("créée le", auto_now_add=True)
    read_at = models.DateTimeField("lue le", null=True, blank=True)
    mail = models.CharField("e-mail", max_length=10, choices=Mail.choices, default=Mail.NONE, blank=True)
    # A sender's claim on the e-mail (accounts.tasks): another sender leaves it alone until the lease runs out.
    mail_claimed_at = models.DateTimeField(null=True, blank=True, editable=False)
    mail_sent_at = models.DateTimeField("e-mail envoyé le", null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "notification"
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_event")]
        indexes = [
            models.Index(fields=["user", "read_at"], name="notification_unread"),
            models.Index(fields=["mail", "mail_claimed_at"], name="notification_mail_pending",
                         condition=models.Q(mail="pending")),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.text}"


class Friendship(models.Model):
    """A friend request (`accepted` empty) or, once the other accepted it, a friendship: one row per pair of
    players whoever asked (accounts.friends), gone when either removes the other or blocks him."""

    from_user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friend_requests_sent",
                                  verbose_name="demandée par")
    to_user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friend_requests_received",
                                verbose_name="demandée à")
    created = models.DateTimeField("demandée le", auto_now_add=True)
    accepted = models.DateTimeField("acceptée le", null=True, blank=True)

    class Meta:
        verbose_name = "amitié"
        verbose_name_plural = "amitiés et demandes d'ami"
        ordering = ["-created", "-id"]
        constraints = [
            # One row per pair, whichever way round: two players asking each other at once make one request.
            models.UniqueConstraint(Least("from_user", "to_user"), Greatest("from_user", "to_user"),
                                    name="friendship_once_per_pair"),
            models.CheckConstraint(condition=~models.Q(from_user=models.F("to_user")), name="friendship_not_self"),
        ]
        indexes = [models.Index(fields=["to_user", "accepted"], name="friendship_to_user")]

    def __str__(self) -> str:
        link = "ami de" if self.accepted else "demande à"
        return f"{self.from_user} {link} {self.to_user}"


class Block(models.Model):
    """`blocker` blocked `blocked`: no friend request nor invitation from him, no seat at each other's private
    tables, and none of his chat lines reach the blocker's pages (accounts.friends, tables.chat)."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made", verbose_name="joueur")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+", verbose_name="a bloqué")
    created = models.DateTimeField("le", auto_now_add=True)

    class Meta:
        verbose_name = "blocage"
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} a bloqué {self.blocked}"
