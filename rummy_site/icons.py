"""Draws the app's PNG icons from static/icons/app.svg in Chromium (`make static-icons`; the PNGs are
committed).

The manifest (rummy_site/pwa.py) names them: 192 and 512 pixels for « Ajouter à l'écran d'accueil », the 512 one
also as maskable (the card sits inside the safe circle), 180 for iOS's home screen."""

from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent.parent / "static" / "icons"
SIZES = (180, 192, 512)


def main() -> None:
    svg = (HERE / "app.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body>{sized}</body></html>")
            page.add_style_tag(content="body { margin: 0 }")
            page.screenshot(path=str(HERE / f"app-{size}.png"), omit_background=False)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
