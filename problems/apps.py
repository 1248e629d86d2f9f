from django.apps import AppConfig


class ProblemsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "problems"
    verbose_name = "Problèmes"

    def ready(self) -> None:
        from problems import signals  # noqa: F401  (finished matches feed the collection)
