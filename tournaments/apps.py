from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournois"

    def ready(self):
        from tables import signals
        from tournaments import results

        signals.match_finished.connect(results.on_match_finished, dispatch_uid="tournaments.results")
