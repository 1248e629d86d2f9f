"""`<id64:…>` in a URL: an id that fits the id columns (signed 64-bit integers).

A longer number names no row, so the route does not match (a 404 page over HTTP, 4404 on a websocket) before
any SQL sees it: the raw queries of tables/reads.py hand it to the driver, and SQLite's raises OverflowError on
an integer beyond 64 bits.
"""

from django.urls import register_converter

ID_MAX = 2**63 - 1


class Id64Converter:
    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError("id out of range")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(Id64Converter, "id64")
