"""The games of the site as the engine declares them, and the French rules pages shipped with the code."""

import hashlib
from pathlib import Path

from engine import games

PAGES_DIR = Path(__file__).resolve().parent / "rules_pages"


def entries() -> list[tuple[str, str, int, int, str]]:
    """(slug, French name, fewest and most players, tagline) of every game, in catalogue order: what the engine's
    `GameInfo` says (engine.games)."""
    infos = [games.get(slug).info for slug in games.available()]
    return [(i.slug, i.name, i.min_players, i.max_players, i.tagline) for i in infos]


def read_page(slug: str) -> dict | None:
    """Parse tables/rules_pages/<slug>.html: 'title:' and 'description:' lines, '---', then HTML."""
    path = PAGES_DIR / f"{slug}.html"
    if not path.exists():
        return None
    head, _, body = path.read_text(encoding="utf-8").partition("\n---\n")
    meta = {}
    for line in head.splitlines():
        key, _, value = line.partition(":")
        meta[key.strip()] = value.strip()
    return {"title": meta.get("title", slug), "meta_description": meta.get("description", ""), "body": body.strip()}


def seed(game_model, page_model) -> None:
    """Create missing games and rules pages (used by the data migration and by test set-up)."""
    for order, (slug, name, min_p, max_p, tagline) in enumerate(entries(), start=1):
        game, created = game_model.objects.get_or_create(
            slug=slug,
            defaults={"name": name, "min_players": min_p, "max_players": max_p, "order": order, "tagline": tagline},
        )
        page = read_page(slug)
        if page and not page_model.objects.filter(game=game).exists():
            page_model.objects.create(game=game, **page)


def digest(page: dict) -> str:
    """Fingerprint of a rules page's content (title, description, body)."""
    text = "\0".join((page["title"], page["meta_description"], page["body"]))
    return hashlib.sha256(text.encode()).hexdigest()


def page_content(page) -> dict:
    return {"title": page.title, "meta_description": page.meta_description, "body": page.body}


def sync_pages(game_model, page_model, *, overwrite: bool = False) -> list[tuple[str, str]]:
    """Bring the rules pages up to the versions shipped in tables/rules_pages/ (each release: init_site).

    A page nobody edited in admin since it was shipped (its content still matches `shipped_digest`) is
    replaced by the new version; a page edited in admin, or whose origin is unknown, is kept unless
    `overwrite`. Returns (slug, what happened) for every game with a shipped page."""
    report = []
    for game in game_model.objects.filter(slug__in=[g[0] for g in entries()]):
        shipped = read_page(game.slug)
        if shipped is None:
            continue
        new = digest(shipped)
        page = page_model.objects.filter(game=game).first()
        if page is None:
            page_model.objects.create(game=game, shipped_digest=new, **shipped)
            report.append((game.slug, "created"))
            continue
        current = digest(page_content(page))
        if current == new:
            if page.shipped_digest != new:
                page_model.objects.filter(pk=page.pk).update(shipped_digest=new)
            report.append((game.slug, "current"))
            continue
        if page.shipped_digest and current == page.shipped_digest:
            status = "updated"
        elif overwrite:
            status = "overwritten"
        else:
            report.append((game.slug, "kept"))
            continue
        for field, value in shipped.items():
            setattr(page, field, value)
        page.shipped_digest = new
        page.save()
        report.append((game.slug, status))
    return report
