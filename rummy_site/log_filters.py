"""Ordinary bad requests (4xx) log one short warning line, at most a few per minute of each kind.

Django logs a request it answers 400 for a SuspiciousOperation (a bad Host header, more than 1,000 POST
fields, a body over the size limit…) as an ERROR with the exception's full traceback on
`django.security.<ExceptionName>`, and every other 4xx (404, 403, BadRequest) as a WARNING on `django.request`,
also with the exception attached. None of these is a fault of the site, and anyone can send them by the
thousand to fill the logs. `BadRequestLines` (settings.LOGGING, on those loggers) turns each into one WARNING
line without traceback and lets through at most `per_minute` lines per kind (the logger's name and the status)
in each minute; the first line of the next minute says how many were left out. 5xx records pass unchanged.

It is a logger filter, not a handler filter, because a handler filter would leave the records as they are for
every other handler (and a logger's filter sees only what is logged on that very logger: settings.LOGGING
names each `django.security.*` logger, `SECURITY_LOGGERS`).
"""

import logging
import threading
from time import monotonic

# Every logger Django writes bad requests to: one per SuspiciousOperation subclass, and CSRF failures.
SECURITY_LOGGERS = (
    "django.security.DisallowedHost",
    "django.security.DisallowedModelAdminLookup",
    "django.security.DisallowedModelAdminToField",
    "django.security.DisallowedRedirect",
    "django.security.InvalidSessionKey",
    "django.security.RequestDataTooBig",
    "django.security.SuspiciousFileOperation",
    "django.security.SuspiciousMultipartForm",
    "django.security.SuspiciousOperation",
    "django.security.SuspiciousSession",
    "django.security.TooManyFieldsSent",
    "django.security.TooManyFilesSent",
    "django.security.csrf",
)
BAD_REQUEST_LOGGERS = ("django.request", "django.security", *SECURITY_LOGGERS)

WINDOW_SECONDS = 60.0


class BadRequestLines(logging.Filter):
    def __init__(self, per_minute: int = 5):
        super().__init__()
        self.per_minute = per_minute
        self._lock = threading.Lock()
        self._windows: dict[tuple[str, int], list] = {}  # kind -> [window start, lines let through, left out]

    def reset(self) -> None:
        with self._lock:
            self._windows.clear()

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if not record.name.startswith("django.security") and not (isinstance(status, int) and 400 <= status < 500):
            return True  # a 5xx (or anything else): as it is, with its traceback
        kind = (record.name, status if isinstance(status, int) else 0)
        now = monotonic()
        with self._lock:
            window = self._windows.get(kind)
            if window is None or now - window[0] >= WINDOW_SECONDS:
                left_out = window[2] if window else 0
                window = self._windows[kind] = [now, 0, 0]
            else:
                left_out = 0
            if window[1] >= self.per_minute:
                window[2] += 1
                return False
            window[1] += 1
        message = record.getMessage()
        if left_out:
            message += f" ({left_out} more like this in the previous minute, not logged)"
        record.msg, record.args = message, None
        record.exc_info = record.exc_text = record.stack_info = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True
