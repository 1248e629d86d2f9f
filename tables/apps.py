from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Jeux et tables"

    def ready(self) -> None:
        from tables import presenters  # the families' presenters register themselves (tables.families)

        presenters.autodiscover()
