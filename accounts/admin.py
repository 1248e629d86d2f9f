import uuid

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin

from accounts.models import (
    Account,
    Block,
    Counter,
    CounterEntry,
    EconomySettings,
    Friendship,
    JokerMove,
    LedgerEntry,
    MatchRecord,
    Notification,
    PlayerGameStats,
    PointsMove,
    Rating,
    User,
)
from accounts.services import InsufficientJokers, counter_balance, counter_move


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "tokens", "points", "jokers", "is_bot", "bot_level", "games_played",
                    "is_staff", "date_joined", "last_seen")
    list_filter = ("is_bot", "bot_level", "is_staff", "is_active")
    search_fields = ("username", "email")
    fieldsets = UserAdmin.fieldsets + (
        ("Jeu", {"fields": ("is_bot", "bot_level", "four_colour_deck", "games_played", "games_won")}),
        ("E-mails", {"fields": ("mail_turn", "mail_reminder", "mail_invitation")}),
        ("Présence", {"fields": ("last_seen",)}),
    )
    readonly_fields = ("last_seen",)

    @admin.display(description="jetons")
    def tokens(self, obj):
        account = getattr(obj, "account", None)
        return account.balance if account else 0

    @admin.display(description="points de compte")
    def points(self, obj):
        return counter_balance(obj, Counter.Kind.POINTS)

    @admin.display(description="jokers")
    def jokers(self, obj):
        return counter_balance(obj, Counter.Kind.JOKERS)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("created", "user", "kind", "text", "read_at", "mail", "mail_sent_at")
    list_filter = ("kind", "mail")
    search_fields = ("user__username", "text")
    raw_id_fields = ("user",)


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyAdmin):
    """Requests and friendships, written by the players only (accounts.friends)."""

    list_display = ("created", "from_user", "to_user", "accepted")
    list_filter = (("accepted", admin.EmptyFieldListFilter),)
    search_fields = ("from_user__username", "to_user__username")
    raw_id_fields = ("from_user", "to_user")


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("created", "blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("created", "account", "amount", "reason", "counterpart", "table_id")
    list_filter = ("reason", "account__kind", "created")
    search_fields = ("account__user__username", "table_id", "transfer")
    date_hierarchy = "created"


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "balance")
    list_filter = ("kind",)
    search_fields = ("user__username", "table_id")


@admin.register(EconomySettings)
class EconomySettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "starting_grant")

    def has_add_permission(self, request):
        return not EconomySettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


class JokerMoveForm(forms.ModelForm):
    """A grant (positive) or an adjustment (negative) of a player's jokers. The hidden key, drawn when the form
    is shown, makes a form sent twice apply once."""

    user = forms.ModelChoiceField(label="joueur", queryset=User.objects.filter(is_bot=False).order_by("username"))
    key = forms.CharField(widget=forms.HiddenInput, initial=lambda: f"admin:{uuid.uuid4()}")

    class Meta:
        model = JokerMove
        fields = ("amount", "reason", "note")
        labels = {"amount": "nombre de jokers (négatif pour retirer)"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].choices = [(CounterEntry.Reason.GRANT, CounterEntry.Reason.GRANT.label),
                                         (CounterEntry.Reason.ADJUST, CounterEntry.Reason.ADJUST.label)]

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("Indique un nombre de jokers différent de zéro.")
        return amount

    def clean(self):
        cleaned = super().clean()
        user, amount = cleaned.get("user"), cleaned.get("amount")
        if user is not None and amount is not None and counter_balance(user, Counter.Kind.JOKERS) + amount < 0:
            raise forms.ValidationError("Ce joueur n'a pas autant de jokers à retirer.")
        return cleaned


class CounterEntryAdmin(ReadOnlyAdmin):
    kind = ""
    list_display = ("created", "player", "amount", "reason", "table_id", "note", "author")
    list_filter = ("reason", "created")
    search_fields = ("counter__user__username", "table_id", "note")
    date_hierarchy = "created"

    def get_queryset(self, request):
        return super().get_queryset(request).filter(counter__kind=self.kind).select_related("counter__user", "author")

    @admin.display(description="joueur", ordering="counter__user__username")
    def player(self, obj):
        return obj.counter.user


@admin.register(PointsMove)
class PointsMoveAdmin(CounterEntryAdmin):
    """Account points move only at the end of a match (tables.economy): read-only here."""

    kind = Counter.Kind.POINTS


@admin.register(JokerMove)
class JokerMoveAdmin(CounterEntryAdmin):
    """Jokers are granted and adjusted here, through the counter service (one entry, the balance with it)."""

    kind = Counter.Kind.JOKERS
    form = JokerMoveForm

    def has_add_permission(self, request):
        return request.user.has_perm("accounts.add_jokermove")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("accounts.view_jokermove") or self.has_add_permission(request)

    def get_fields(self, request, obj=None):
        return ("user", "amount", "reason", "note", "key") if obj is None else self.list_display

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.list_display

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        try:
            counter_move(user=data["user"], kind=Counter.Kind.JOKERS, amount=data["amount"], reason=data["reason"],
                         note=data["note"], author=request.user, idempotency_key=data["key"])
        except InsufficientJokers as error:
            messages.error(request, error.message)
        # The entry written (or the one a first sending of this form wrote): the admin's log and redirect name it.
        obj.counter, _ = Counter.objects.get_or_create(user=data["user"], kind=Counter.Kind.JOKERS)
        obj.pk = obj.counter.entries.filter(idempotency_key=data["key"]).values_list("pk", flat=True).first()


@admin.register(Counter)
class CounterAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "balance")
    list_filter = ("kind",)
    search_fields = ("user__username",)


@admin.register(MatchRecord)
class MatchRecordAdmin(ReadOnlyAdmin):
    """Written once at a match's end (or by `manage.py backfill_stats`): read only."""

    list_display = ("finished", "user", "game", "table_id", "won", "place", "points", "token_delta", "rated")
    list_filter = ("game", "won", "rated")
    search_fields = ("user__username",)


@admin.register(PlayerGameStats)
class PlayerGameStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "matches", "wins", "rounds", "points", "best_round", "tokens_won", "tokens_lost")
    list_filter = ("game",)
    search_fields = ("user__username",)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "score", "mu", "sigma", "matches", "updated")
    list_filter = ("game",)
    search_fields = ("user__username",)
