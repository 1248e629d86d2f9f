"""The coach's words for the partnership Canastas: discards, the pile, melds and lay-offs for the team, going out."""

from engine.narration.words import card_words, piece_noun, plural


def _pieces(ids: list[str]) -> str:
    return f"{len(ids)} {piece_noun(ids[0] if ids else None)}{plural(len(ids))}"


def reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    ids = list(move.get("cards") or [])
    if action == "discard" and move.get("card"):
        return (f"Défausse {card_words(move['card'])} : c'est la {piece_noun(move['card'])} qui sert le moins "
                "à ton équipe.")
    if action == "draw_stock":
        return "Pioche : la pile ne vaut pas la peine d'être prise."
    if action == "take_pile":
        return "Prends la pile : elle complète tes combinaisons."
    if action == "meld" and ids:
        return f"Pose {_pieces(ids)} : ton équipe marque leurs points."
    if action == "lay_off" and ids:
        return f"Ajoute {_pieces(ids)} à une combinaison de ton équipe."
    if action == "go_out":
        return "Sors : ton équipe gagne la prime de sortie."
    if action == "answer_go_out":
        return "Réponds « oui » : ton équipe est prête." if move.get("answer") == "yes" else \
            "Réponds « non » : ton équipe n'est pas prête."
    return ""
