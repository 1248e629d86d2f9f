from django import forms
from django.contrib import admin

from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Schedule, Tournament


class TournamentForm(forms.ModelForm):
    """The same checks as a player's creation form (tournaments.services.clean_settings), in French."""

    class Meta:
        model = Tournament
        fields = ("name", "game", "format", "starts_at", "private", "table_size", "options", "turn_timer_s", "rated",
                  "absent", "rounds", "advance", "arena_minutes", "max_entries", "entry_stake", "prizes")

    def clean(self):
        data = super().clean()
        if self.errors or data.get("game") is None:
            return data
        try:
            cleaned = services.clean_settings(
                data["game"], format=data["format"], table_size=data["table_size"], rounds=data["rounds"],
                advance=data["advance"], prizes=data.get("prizes") or [], entry_stake=data["entry_stake"],
                turn_timer_s=data.get("turn_timer_s"), options=data.get("options") or {})
        except TournamentError as error:
            raise forms.ValidationError(error.message) from None
        data.update(cleaned)
        return data


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("user", "partner")
    readonly_fields = ("seed", "eliminated_in")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "game", "format", "status", "starts_at", "entry_stake", "private")
    list_filter = ("status", "format", "game")
    search_fields = ("name",)
    readonly_fields = ("status", "started_at", "finished_at", "created_by", "schedule")
    inlines = [EntryInline]
    fieldsets = (
        (None, {"fields": ("name", "game", "format", "starts_at", "private", "status", "started_at",
                           "finished_at", "created_by", "schedule")}),
        ("Tables", {"fields": ("table_size", "options", "turn_timer_s", "rated", "absent")}),
        ("Formule", {"fields": ("rounds", "advance", "arena_minutes", "max_entries")}),
        ("Jetons", {"fields": ("entry_stake", "prizes")}),
    )

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    list_display = ("name", "every", "weekday", "time", "active", "last_created_for")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "started_at", "finished_at")
    readonly_fields = ("tournament", "number", "finished_at")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "table", "entries", "places")
    readonly_fields = ("tournament", "round", "table", "entries", "places")
