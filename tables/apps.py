from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Jeux et tables"

    def ready(self) -> None:
        # Both need the models loaded: the families' presenters register themselves (tables.families), and the
        # Celery tasks, which tables.scheduler sends by name, are registered in every process (run eagerly in tests).
        from tables import presenters, tasks  # noqa: F401

        presenters.autodiscover()
