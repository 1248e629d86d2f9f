"""The coach's words for the tile rummy (Rummikub): what to lay from the rack, when to draw or pass."""

from engine.narration.words import plural


def reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    if action == "end_turn" and move.get("table") is not None:
        before = set(view.get("rack") or view.get("hand") or [])
        on_table = {t for group in move.get("table") or [] for t in (group if isinstance(group, list) else [])}
        placed = len(before & on_table)
        if placed:
            return f"Pose {placed} tuile{plural(placed)} de ton chevalet et valide."
        return "Valide ton tour."
    if action == "draw_stock":
        return "Pioche : tu ne peux rien poser de bon ce tour-ci."
    if action == "pass":
        return "Passe : tu ne peux rien poser et la pioche est vide."
    return ""
