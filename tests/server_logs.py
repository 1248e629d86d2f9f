"""What a server's log says went wrong, without the noise of its own stop."""

import re

# Django's ASGI handler (5.2) leaves the RequestAborted of its disconnect listener unretrieved when the process is
# stopped while a request is in flight (HAProxy's health check): asyncio logs "Task exception was never
# retrieved" with a traceback at exit. The request was being dropped on purpose; nothing went wrong.
STOP_NOISE = re.compile(
    r"Task exception was never retrieved\n"
    r"future: <Task finished name='[^']*' coro=<ASGIHandler\.listen_for_disconnect\(\)[^\n]*\n"
    r"Traceback \(most recent call last\):\n(?:  [^\n]*\n)*"
    r"django\.core\.exceptions\.RequestAborted\n?"
)


def first_traceback(text: str, before: int = 300) -> str:
    """The first traceback of a server's log with the `before` characters that led to it, or "" if none."""
    text = STOP_NOISE.sub("", text)
    if "Traceback" not in text:
        return ""
    start = text.index("Traceback")
    return text[max(0, start - before):][:3000]
