"""« Ajouter à l'écran d'accueil »: Chromium reads the site's web app manifest and finds nothing missing to
install it (its own installability check, through the DevTools protocol), with the site's name, colours and
icons. A profile on disk, as a phone's browser has: Chromium never offers to install from a private window."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_chromium_finds_the_site_installable(browser_type, browser_type_launch_args, live_server, tmp_path):
    context = browser_type.launch_persistent_context(str(tmp_path / "profile"), **browser_type_launch_args)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"], manifest["errors"]
        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        parsed = page.evaluate("async () => (await fetch('/manifest.webmanifest')).json()")
        assert parsed["name"] == "Cartes & Rami" and parsed["display"] == "standalone" and parsed["lang"] == "fr"
        assert parsed["theme_color"] == page.locator('meta[name="theme-color"]').get_attribute("content")
        for icon in parsed["icons"]:
            response = page.request.get(live_server.url + icon["src"])
            assert response.ok and response.headers["content-type"] == "image/png"
    finally:
        context.close()
