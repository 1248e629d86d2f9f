from django.contrib.auth.backends import ModelBackend


class HumanOnlyBackend(ModelBackend):
    """Bots are users too, but nobody can log in as one."""

    def user_can_authenticate(self, user) -> bool:
        return not getattr(user, "is_bot", False) and super().user_can_authenticate(user)
