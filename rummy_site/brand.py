"""The site's own name, where code writes it (the base template writes it too): it is a brand, not a game, so the
game-neutral apps (tables/) take it from here."""

SITE_NAME = "Cartes & Rami"
SITE_SLUG = "cartes-et-rami"  # in the exported match files' format name (tables.match_file, docs/export-format.md)
