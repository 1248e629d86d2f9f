from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import Account, EconomySettings, LedgerEntry, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "tokens", "is_bot", "bot_level", "games_played", "is_staff", "date_joined")
    list_filter = ("is_bot", "bot_level", "is_staff", "is_active")
    search_fields = ("username", "email")
    fieldsets = UserAdmin.fieldsets + (
        ("Jeu", {"fields": ("is_bot", "bot_level", "four_colour_deck", "games_played", "games_won")}),
    )

    @admin.display(description="jetons")
    def tokens(self, obj):
        account = getattr(obj, "account", None)
        return account.balance if account else 0


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
