from django.contrib import admin

from seasons.models import Membership, Season, SeasonResult, SeasonSettings


@admin.register(SeasonSettings)
class SeasonSettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "months", "promote_percent", "relegate_percent", "min_matches")
    fieldsets = (
        ("Durée", {"fields": ("months",)}),
        ("Tailles visées des ligues", {"fields": ("elite_size", "diamond_size", "gold_size", "silver_size")}),
        ("Entrée d'un nouveau joueur, par sa cote", {"fields": ("elite_score", "diamond_score", "gold_score",
                                                                "silver_score")}),
        ("Montées et descentes", {"fields": ("promote_percent", "relegate_percent", "min_matches")}),
    )

    def has_add_permission(self, request):
        return not SeasonSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons are opened and closed by the site (seasons.services): their dates can be corrected, nothing else."""

    list_display = ("game", "number", "starts_at", "ends_at", "closed_at", "members")
    list_filter = ("game", ("closed_at", admin.EmptyFieldListFilter))
    readonly_fields = ("game", "number", "closed_at", "created")

    def has_add_permission(self, request):
        return False

    @admin.display(description="membres")
    def members(self, obj):
        return obj.memberships.count()


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "season", "tier", "placed_by", "joined_at", "rank", "points", "outcome", "next_tier")
    list_filter = ("season__game", "tier", "outcome", "placed_by")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "season")
    readonly_fields = ("rank", "points", "played", "wins", "outcome", "next_tier")


@admin.register(SeasonResult)
class SeasonResultAdmin(admin.ModelAdmin):
    list_display = ("finished", "season", "user", "table_id", "place", "sides", "points", "won")
    list_filter = ("season__game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "season")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
