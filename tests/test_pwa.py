"""The web app manifest (rummy_site/pwa.py): the site installs on a phone with its French name, its colours and
icons of the sizes it states."""

import struct
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "static"

pytestmark = pytest.mark.django_db


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_site_with_icons_of_the_sizes_it_states(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert (data["name"], data["lang"], data["display"], data["start_url"]) == ("Cartes & Rami", "fr",
                                                                                 "standalone", "/tables/")
    sizes = set()
    for icon in data["icons"]:
        width, height = (int(x) for x in icon["sizes"].split("x"))
        assert png_size(STATIC / icon["src"].removeprefix("/static/")) == (width, height)
        sizes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes


def test_every_page_links_the_manifest_and_the_home_screen_icon(client):
    html = client.get("/regles/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'rel="apple-touch-icon" href="/static/icons/app-180.png"' in html
