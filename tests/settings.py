"""The suite's settings: the site's, with the development environment asked for explicitly (without it the
settings are production's, which refuse a start without a real SECRET_KEY). The servers the tests start inherit
DJANGO_ENV from this process."""

import os

os.environ.setdefault("DJANGO_ENV", "development")

from rummy_site.settings import *  # noqa: E402, F403
