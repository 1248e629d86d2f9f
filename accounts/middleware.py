"""`last_seen`: when a logged-in player last asked for a page (his friends see him « en ligne »: accounts.friends)."""

from accounts.friends import seen


class LastSeenMiddleware:
    """After AuthenticationMiddleware. Writes at most once a minute per player (accounts.friends.SEEN_EVERY); a
    visitor without a session costs nothing (no session, no user read)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not user.is_bot:
            seen(user)
        return response
