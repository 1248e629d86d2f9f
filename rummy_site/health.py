"""« /sante/ »: the proxy's health check of one daphne process (answering at all is the test: no database
query, so a slow database does not take every process out of the pool at once)."""

import os

from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views.decorators.cache import never_cache


@never_cache
def health(request):
    # SITE_INSTANCE names the process in a cluster (manage.py serve --processes): the cluster's tests read it
    # to know which process answered.
    return HttpResponse(f"ok {os.environ.get('SITE_INSTANCE', '')}".strip(), content_type="text/plain")


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links: the site's icon, not a 404 on every page. Its
    address is read at the request (with the production storage it carries the file's hash)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
