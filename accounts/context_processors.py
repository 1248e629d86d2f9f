from accounts.notifications import bell_context
from accounts.services import user_balance


def wallet(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"my_tokens": lambda: user_balance(user), "bell": lambda: bell_context(user.pk)}
