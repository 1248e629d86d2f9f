"""The French words of the problems' pages: what a choice costs, in the unit of its figure."""

from engine.coach.words import plural, points

IMPOSSIBLE = "impossible : aucun coup n'y arrive"


def score_words(score: float) -> str:
    return f"{score:.1f}".replace(".", ",")


def tenths_words(value: float) -> str:
    """« 0,7 », « 2 »: a tenth where there is one."""
    text = score_words(value)
    return text[:-2] if text.endswith(",0") else text


def cost_words(cost: float, unit: str) -> str:
    """« le meilleur coup », « coûte environ 4 points », « pose 2 tuiles de moins »."""
    if cost <= 1e-9:
        return "le meilleur coup"
    if unit == "tuiles":
        n = max(1, round(cost))
        return f"pose {n} tuile{plural(n)} de moins"
    if unit == "balles":  # expected balls (a deal is one ball): a tenth is worth showing
        tenths = max(0.1, round(cost, 1))
        return f"coûte en moyenne {tenths_words(tenths)} balle{'s' if tenths >= 2 else ''}"
    n = round(cost)
    if n < 1:
        return "coûte moins d'un point" if unit == "points" else "coûte un peu"
    if unit == "points":
        return f"coûte environ {points(n)}"
    if unit == "percent":
        return f"coûte environ {n} % de chances de gagner"
    return f"coûte environ {n} {unit}"


def change_words(change: float) -> str:
    text = score_words(abs(change))
    return f"+{text}" if change >= 0 else f"−{text}"
