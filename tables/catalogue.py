"""The ten games of the site, and the French rules pages shipped with the code."""

from pathlib import Path

PAGES_DIR = Path(__file__).resolve().parent / "rules_pages"

# slug, French name, min, max, tagline
GAMES = [
    ("thanasis", "Thanasis", 2, 4, "Le rami en main : ferme à 10 points ou moins, brûlé à 101."),
    ("rami", "Rami (13 cartes)", 2, 4, "Six jokers, première pose à 30 points, élimination à 1, 50 ou 100."),
    ("rami40", "Rami 40", 2, 4, "Ouvre avec 40 points et vide ta main avant les autres."),
    ("kalooki", "Kalooki (Rami 51)", 2, 4, "Le rami exigeant : 51 points pour ta première pose."),
    ("rami-traditionnel", "Rami traditionnel", 2, 4, "Le rami de toujours, sans joker."),
    ("gin", "Gin Rami", 2, 4, "Frappe à 10 points ou moins, ou fais Gin !"),
    ("rummikub", "Rummikub", 2, 4, "Des tuiles, des suites et des groupes à réarranger sur la table."),
    ("canasta", "Canasta classique", 4, 4, "Deux équipes, des canastas de sept cartes et des trois rouges."),
    ("canasta-tuiles", "Canasta en équipe (tuiles)", 4, 4, "La Canasta jouée avec des tuiles, en équipes."),
    ("thunee", "Thunee", 4, 4, "Le jeu de plis à deux équipes, de 9 à l'As, avec atout et annonces."),
]


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
    for order, (slug, name, min_p, max_p, tagline) in enumerate(GAMES, start=1):
        game, created = game_model.objects.get_or_create(
            slug=slug,
            defaults={"name": name, "min_players": min_p, "max_players": max_p, "order": order, "tagline": tagline},
        )
        page = read_page(slug)
        if page and not page_model.objects.filter(game=game).exists():
            page_model.objects.create(game=game, **page)
