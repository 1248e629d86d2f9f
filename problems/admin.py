from django.contrib import admin

from problems.models import Attempt, DailyProblem, Problem, ProblemRating


@admin.register(Problem)
class ProblemAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "theme", "source", "gap", "unit", "score", "attempts", "solved", "active")
    list_filter = ("game", "theme", "source", "active")
    list_editable = ("active",)
    readonly_fields = ("game", "theme", "seat", "state", "choices", "answer", "unit", "gap", "exact", "why",
                       "fingerprint", "source", "source_table", "mu", "sigma", "score", "attempts", "solved")


@admin.register(DailyProblem)
class DailyProblemAdmin(admin.ModelAdmin):
    list_display = ("day", "game", "problem")
    list_filter = ("game",)
    raw_id_fields = ("problem",)


@admin.register(ProblemRating)
class ProblemRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "score", "attempts", "solved", "updated")
    readonly_fields = ("user", "mu", "sigma", "score", "attempts", "solved")
    search_fields = ("user__username",)


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("user", "problem", "chosen", "correct", "rated", "created")
    readonly_fields = ("user", "problem", "chosen", "correct", "rated", "rating_before", "rating_after")
