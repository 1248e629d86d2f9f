"""Error views Django's defaults do not cover (the pages themselves: templates/400.html … 500.html, 403_csrf.html).

Django's own 403, 404 and 500 views render those templates as they are.
"""

from django.http import HttpResponseBadRequest
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.template import loader


def bad_request(request, exception):
    """urls.handler400. Rendered without the request (Django's view passes it): a 400 may answer a Host header
    that is not allowed, and the layout reads `request.get_host`, which would raise again."""
    return HttpResponseBadRequest(loader.get_template("400.html").render())


def csrf_failure(request, reason: str = ""):
    """settings.CSRF_FAILURE_VIEW: Django's page is partly English and written for developers."""
    return render(request, "403_csrf.html", {"cookies_missing": reason == REASON_NO_CSRF_COOKIE}, status=403)
