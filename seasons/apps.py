from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Saisons et ligues"

    def ready(self):
        from seasons import services
        from tables import signals

        signals.match_finished.connect(services.on_match_finished, dispatch_uid="seasons.results")
