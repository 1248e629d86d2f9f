"""Reading what the server sends a client: French error messages, full views, table snapshots."""

import html
import re

from django.db.models import Sum

from accounts.models import Account
from tables.models import ChatMessage, Seat, Table, TableMove

_ERROR = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)
_TAG = re.compile(r"<[^>]+>")
_FRENCH_WORDS = re.compile(
    r"\b(tu|ta|ton|tes|te|la|le|les|un|une|des|du|de|pas|ce|cette|cet|ne|est|au|aux|en|on|et|ou|trop|plus|"
    r"coup|carte|cartes|place|partie|manche|table|message|action|inconnue|invalide|invalides|illisible|"
    r"combinaison|combinaisons|pioche|défausse|jetons|attends|doucement)\b",
    re.I,
)
_ENGLISH = re.compile(r"\b(error|exception|traceback|invalid|unknown|none|null|true|false|keyerror|typeerror|"
                      r"not found|server|bad request|forbidden)\b", re.I)


def error_message(page: str) -> str:
    """The player-facing error in a reply ("" when the error slot is empty or absent)."""
    match = _ERROR.search(page)
    if not match:
        return ""
    text = html.unescape(_TAG.sub(" ", match.group(1)))
    text = text.replace("Pourquoi ?", " ").replace("Pourquoi\xa0?", " ")
    return " ".join(text.split()).lstrip("! ").strip()


def is_french(message: str) -> bool:
    return bool(message) and bool(_FRENCH_WORDS.search(message)) and not _ENGLISH.search(message)


def is_full_view(page: str) -> bool:
    return 'id="table-status"' in page and 'id="table-hand"' in page


def assert_french_error_or_resync(page: str) -> str:
    """A reply to a refused frame: a French error, or the full current view (a resync). Returns the message."""
    assert isinstance(page, str) and page, "a refused frame is always answered"
    message = error_message(page)
    if message:
        assert is_french(message), f"not a French message for players: {message!r}"
    else:
        assert is_full_view(page), f"neither an error nor a full view: {page[:300]!r}"
    return message


def table_snapshot(table_id: int) -> dict:
    """Everything a refused frame must leave as it was."""
    table = Table.objects.get(pk=table_id)
    return {
        "status": table.status,
        "version": table.version,
        "state": table.state,
        "moves": TableMove.objects.filter(table_id=table_id).count(),
        "seats": list(Seat.objects.filter(table_id=table_id).values_list("position", "left", "user_id")),
        "tokens": Account.objects.aggregate(total=Sum("balance"))["total"],
        "balances": dict(Account.objects.values_list("pk", "balance")),
        "chat": ChatMessage.objects.filter(table_id=table_id).count(),
    }
