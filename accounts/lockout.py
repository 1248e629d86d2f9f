"""Login limits (django-axes): failures are counted per username and per client address, for the site's login,
the admin's and the password change; past the limit, those forms answer the lock-out page.

While a lock-out holds, no password is checked at all (the views ask `locked_out` before their form, and Axes's
backend refuses before any other backend): the answer is the same whatever was typed. An admin sees the
attempts and lifts a lock-out by deleting them (Admin → « Axes », or `manage.py axes_reset_username`)."""

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.shortcuts import render


def locked_out(request, username) -> bool:
    """Whether this address, or this username, is locked out (`username` as typed: anything, or None)."""
    username = username if isinstance(username, str) else None
    return not AxesProxyHandler.is_allowed(request, {settings.AXES_USERNAME_FORM_FIELD: username})


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: the page every locked-out attempt gets, the same bytes for every password."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)
