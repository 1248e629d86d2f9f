"""Benchmarks that print figures. They run throwaway sites on this machine: with the development settings
(rummy_site/settings.py refuses a production start without a real SECRET_KEY)."""

import os

os.environ.setdefault("DJANGO_ENV", "development")
