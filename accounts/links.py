"""Links from a player's pages to the tables app, by URL name only (accounts imports nothing of tables)."""

from django.urls import reverse


def replay_url(table_id: int) -> str:
    """A finished match's replay page (« /tables/<id>/revoir/ »: its rounds)."""
    return reverse("tables:replays", args=[table_id])
