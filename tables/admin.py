from django.contrib import admin

from tables.models import Game, RulesPage


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
