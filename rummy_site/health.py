"""« /sante/ »: the proxy's health check of one daphne process (answering at all is the test: no database
query, so a slow database does not take every process out of the pool at once)."""

import os

from django.http import HttpResponse
from django.views.decorators.cache import never_cache


@never_cache
def health(request):
    # SITE_INSTANCE names the process in a cluster (manage.py serve --processes): the cluster's tests read it
    # to know which process answered.
    return HttpResponse(f"ok {os.environ.get('SITE_INSTANCE', '')}".strip(), content_type="text/plain")
