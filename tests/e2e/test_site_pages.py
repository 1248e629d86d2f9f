import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_and_rules_page_in_a_real_browser(page, live_server, outside_requests, artifacts_dir):
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "Jeux de cartes en ligne" in page.title()
    page.get_by_role("link", name=re.compile("Règles du Gin Rami")).click()
    page.wait_for_url("**/regles/gin/")
    assert "Gin" in page.title()
    assert page.locator("h1").inner_text().strip()
    assert page.locator("table").count() >= 1
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=str(artifacts_dir / "rules-gin-360.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    assert not overflow, "the rules page must not scroll sideways at 360 px"
    assert outside_requests == []
