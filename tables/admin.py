from django.contrib import admin

from tables.models import ChatMute, Game, ImportedMatch, RulesPage, Table


class RulesPageInline(admin.StackedInline):
    model = RulesPage
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "min_players", "max_players", "published", "order", "stakes", "default_stake",
                    "abandon_penalty")
    list_editable = ("published", "order")
    list_filter = ("published",)
    search_fields = ("name", "slug")
    fieldsets = (
        (None, {"fields": ("slug", "name", "tagline", "min_players", "max_players", "published", "order")}),
        ("Économie", {"fields": ("stakes", "default_stake", "bot_payout_debutant", "bot_payout_confirme",
                                 "bot_payout_expert", "abandon_penalty")}),
    )
    inlines = [RulesPageInline]


@admin.register(RulesPage)
class RulesPageAdmin(admin.ModelAdmin):
    list_display = ("title", "game", "updated_at")
    list_filter = ("game", "updated_at")
    search_fields = ("title", "body", "meta_description")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Tables are written by the table services only (moves, seats, money): admins read them here."""

    list_display = ("__str__", "table_type", "status", "seats_count", "stake", "private", "host", "created")
    list_filter = ("table_type", "status", "game")
    search_fields = ("id", "host__username")
    date_hierarchy = "created"
    fields = ("game", "table_type", "host", "seats_count", "options", "stake", "turn_timer_s", "private", "status",
              "version", "settled", "created", "started_at", "finished_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    """« Masquer sa discussion »: written by the players only (tables.chat), read here."""

    list_display = ("created", "table", "user", "muted")
    search_fields = ("table__id", "user__username", "muted__username")
    raw_id_fields = ("table", "user", "muted")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ImportedMatch)
class ImportedMatchAdmin(admin.ModelAdmin):
    """« Importer une partie »: written by the players only (tables.exports); an admin may read or delete one."""

    list_display = ("__str__", "owner", "game", "created")
    list_filter = ("game",)
    search_fields = ("owner__username",)
    raw_id_fields = ("owner",)
    fields = ("owner", "game", "created", "document")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
