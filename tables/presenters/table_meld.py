"""The presenter of the rummies with melds on the table: the card games' pieces, plus
the melds laid on the table grouped by owner with their open ends, my staged turn, the first lay-down progress
and the solver's suggestions. Everything comes from the view's keys (it has "table" and "opened")."""

import json

from engine import cards
from tables import families
from tables.presenters.cards import CardsPresenter, card_ctx


def face_label(face: str) -> str:
    """« 7♣ » for the face "7C" (a card without its copy number)."""
    return cards.label(face + "1")


def face_name(face: str) -> str:
    return cards.name_fr(face + "1")


def tm_card_ctx(card: str, stands: str | None = None, **flags) -> dict:
    """A card of a table meld; a joker says what it stands for: « Joker (7♣) »."""
    ctx = card_ctx(card, **flags)
    if stands:
        ctx["stands"] = face_label(stands)
        ctx["wild_label"] = f"Joker ({face_label(stands)})"
        ctx["name"] = f"Joker ({face_name(stands)})"
    return ctx


def _cards_text(ids, wilds: dict | None = None) -> str:
    wilds = wilds or {}
    return " ".join(f"Joker ({face_label(wilds[c])})" if c in wilds else cards.label(c) for c in ids)


def _meld_ctx(meld: dict, names: dict, *, pending: set, new_ids: set, changed_ids: set, actionable: bool,
              swap_ok: bool) -> dict:
    wilds = meld.get("wilds") or {}
    kind = meld.get("kind")
    n = len(meld["cards"])
    label = "Suite" if kind == "run" else ("Carré" if n == 4 else "Groupe" if n > 4 else "Brelan")
    is_new = meld["id"] in new_ids
    card_list = [tm_card_ctx(c, wilds.get(c), pending=is_new or c in pending,
                             swappable=actionable and swap_ok and c in wilds) for c in meld["cards"]]
    ends = meld.get("ends") or {}
    owner = meld.get("owner")
    return {
        "id": meld["id"],
        "owner": owner,
        "owner_name": names.get(owner, ""),
        "kind": kind,
        "label": label,
        "points": meld.get("points"),
        "cards": card_list,
        "low": kind == "run" and bool(ends.get("low")),
        "high": kind == "run" and bool(ends.get("high")),
        "room": kind != "run" and bool(ends.get("high") or ends.get("low")),
        "new": is_new,
        "changed": meld["id"] in changed_ids and not is_new,
        "actionable": actionable,
        "aria": f"{label} de {names.get(owner, '?')} : " + ", ".join(c["name"] for c in card_list),
    }


def _staged_lines(actions: list[dict], names: dict) -> list[str]:
    lines = []
    for a in actions:
        owner = names.get((a.get("meld") or {}).get("owner"), "")
        if a["action"] == "meld":
            lines.append(f"Poser {_cards_text(a['cards'], a.get('wilds'))} ({a.get('points', 0)} pts)")
        elif a["action"] == "lay_off":
            lines.append(f"Ajouter {_cards_text(a['cards'], a.get('wilds'))} à la combinaison de {owner}")
        elif a["action"] == "swap_joker":
            lines.append(f"Échanger le joker de {owner} contre {_cards_text(a['cards'])}")
    return lines


def _chips(melds: list[dict]) -> list[dict]:
    """Suggested melds as chips the player can pick (select the cards, keep the wild statement)."""
    out = []
    for m in melds:
        wilds = m.get("wilds") or {}
        out.append({
            "cards_ctx": [tm_card_ctx(c, wilds.get(c)) for c in m["cards"]],
            "cards_json": json.dumps(m["cards"]),
            "wilds_json": json.dumps(wilds) if wilds else "",
            "points": m.get("points"),
            "text": _cards_text(m["cards"]),
        })
    return out


def _opening_plan(best: dict) -> str:
    """The opening the solver found, as « Déposer » proposes it with nothing chosen (static/js/table.js):
    JSON `{melds: [{cards, wilds?}], text}`, every meld laid in turn."""
    melds = [{"cards": m["cards"], **({"wilds": m["wilds"]} if m.get("wilds") else {})} for m in best["melds"]]
    parts = " + ".join(f"{_cards_text(m['cards'], m.get('wilds'))} ({m.get('points', 0)} pts)" for m in best["melds"])
    already = f" avec les {best['staged_points']} déjà préparés" if best.get("staged_points") else ""
    text = (f"Première pose proposée : {parts} = {best['total']} points{already} (il en faut {best['threshold']}).")
    return json.dumps({"melds": melds, "text": text}, ensure_ascii=False)


def _option_line(view: dict) -> str:
    if view.get("target") is not None:
        return "Partie en une manche" if str(view["target"]) == "1" else f"Objectif : {view['target']} points"
    if view.get("point_limit") is not None:
        limit = str(view["point_limit"])
        return "Partie en une manche" if limit == "1" else f"Limite : {limit} points"
    return ""


def table_melds_ctx(view: dict, seats_ctx: list[dict], me: dict | None, is_my_turn: bool) -> dict:
    """What the table-meld templates need (templates/tables/_table_melds.html and _tm_*.html)."""
    names = {s["position"]: ("toi" if s["is_me"] else s["name"]) for s in seats_ctx}
    owner_names = {s["position"]: s["name"] for s in seats_ctx}
    phase = view.get("phase")
    my_pos = me["position"] if me else None
    opened_list = view.get("opened") or []
    for s in seats_ctx:
        s["opened"] = bool(s["position"] < len(opened_list) and opened_list[s["position"]])
    rules = view.get("rules") or {}
    threshold = view.get("threshold")
    staged = view.get("staged")  # only in the acting seat's own view
    sugg = view.get("suggestions") or {}
    acting = bool(is_my_turn and phase == "MELD" and staged is not None)
    actions = (staged or {}).get("actions") or []
    table = staged["table_preview"] if staged else view.get("table") or []
    new_ids = {a["meld_id"] for a in actions if a["action"] == "meld"}
    changed_ids = {a["meld_id"] for a in actions}
    pending = {c for a in actions if a["action"] in ("lay_off", "swap_joker") for c in a["cards"]}
    may_act = bool(staged and staged.get("may_act_on_table"))
    actionable = acting and may_act
    swap_ok = bool(rules.get("swap"))

    melds = [_meld_ctx(m, owner_names, pending=pending, new_ids=new_ids, changed_ids=changed_ids,
                       actionable=actionable, swap_ok=swap_ok) for m in table]
    order = [s["position"] for s in seats_ctx if not s["is_me"]]
    if my_pos is not None:
        order.append(my_pos)
    order += sorted({m["owner"] for m in melds} - set(order), key=lambda o: (o is None, o))
    groups = []
    for owner in order:
        mine = [m for m in melds if m["owner"] == owner]
        if mine:
            seat = next((s for s in seats_ctx if s["position"] == owner), None)
            groups.append({"owner": owner, "name": owner_names.get(owner, "?"), "is_me": owner == my_pos,
                           "is_current": bool(seat and seat["is_current"]), "melds": mine})

    i_opened = bool(my_pos is not None and my_pos < len(opened_list) and opened_list[my_pos])
    opening = None
    if threshold and not i_opened and view.get("hand"):
        points = (staged or {}).get("opening_points", 0)
        opening = {"points": points, "threshold": threshold, "reached": points >= threshold,
                   "missing": max(0, threshold - points), "staged": bool(staged and new_ids)}

    # Solver help: what I can lay down now (MELD) or what taking the discard would give (DRAW).
    best = sugg.get("opening")
    chips, help_line = [], ""
    if acting:
        if best and not may_act:
            chips = _chips(best["melds"]) if best.get("reaches") else []
            if best.get("reaches"):
                help_line = (f"Tu peux ouvrir avec {best['total']} points "
                             f"(il en faut {best['threshold']}) :")
            else:
                help_line = (f"Tes combinaisons ne font que {best['total']} points : il en faut "
                             f"{best['threshold']} pour ta première pose.")
        elif sugg.get("melds"):
            chips = _chips(sugg["melds"])
            help_line = "Combinaisons possibles :"
    elif is_my_turn and phase == "DRAW":
        top = view.get("discard_top")
        top_text = cards.label(top) if top else ""
        discard_best = sugg.get("discard_opening")
        if best and best.get("reaches"):
            help_line = f"Pioche : ta main peut déjà ouvrir avec {best['total']} points."
        if discard_best and discard_best.get("reaches") and (not best or discard_best["total"] > best["total"]):
            help_line = (f"Prends le {top_text} de la défausse : tu pourrais ouvrir avec "
                         f"{discard_best['total']} points.")
        elif sugg.get("discard_melds") or sugg.get("discard_layoffs"):
            help_line = f"Le {top_text} de la défausse irait dans une combinaison : prends-le ou pioche."

    def why(default: str) -> str:
        if phase in ("ROUND_OVER", "MATCH_OVER"):
            return "La manche est terminée."
        if not is_my_turn:
            return "Ce n'est pas ton tour."
        if phase == "DRAW":
            return "Pioche d'abord une carte."
        return default

    legal = {m["action"] for m in view.get("legal") or []}
    has_joker = any(c["joker"] for m in melds for c in m["cards"])
    open_end = any(m["low"] or m["high"] or m["room"] for m in melds)
    opening_reason = f"Pose d'abord tes {threshold} points de première pose." if threshold else ""
    can_lay_down = acting and bool(sugg.get("melds"))
    if acting and not can_lay_down:
        meld_reason = (f"Aucune combinaison de ta main n'atteint les {best['threshold']} points de la première "
                       f"pose : au mieux {best['total']}." if best and not best.get("reaches")
                       else "Aucune combinaison à poser dans ta main.")
    else:
        meld_reason = why("Aucune combinaison à poser dans ta main.")
    # « Déposer » with nothing chosen, before my first lay-down: the solver's whole opening, not one meld of it.
    opening_plan = _opening_plan(best) if acting and not may_act and best and best.get("reaches") else ""
    # Déposer and Défausser are always there (disabled with their reason); the other table actions show
    # while I play my turn, « Échanger le joker » when a joker lies on the table, « Sortir » when I may.
    buttons = [
        {"tm": "meld", "label": "Déposer", "enabled": can_lay_down, "acting": acting, "reason": meld_reason,
         "show": True, "plan": opening_plan},
        {"tm": "lay_off", "label": "Ajouter", "enabled": actionable and open_end, "show": acting,
         "reason": why(opening_reason if not may_act else "Aucune combinaison à compléter sur la table.")},
    ]
    if swap_ok:
        buttons.append({"tm": "swap_joker", "label": "Échanger le joker", "enabled": actionable and has_joker,
                        "show": acting and has_joker, "reason": why(opening_reason)})
    undo_label = "Annuler la prise" if not actions and view.get("taken_card") and rules.get("undo_take") else "Annuler"
    buttons.append({"action": "undo", "label": undo_label, "enabled": "undo" in legal, "show": acting,
                    "reason": why("Rien à annuler pour l'instant.")})
    if len(actions) > 1:
        buttons.append({"action": "undo", "all": True, "label": "Tout annuler", "enabled": "undo" in legal,
                        "secondary": True, "show": acting, "reason": why("Rien à annuler.")})
    if rules.get("go_out"):
        buttons.append({"action": "go_out", "label": "Sortir", "enabled": "go_out" in legal,
                        "show": "go_out" in legal, "reason": why("Pose d'abord toutes tes cartes.")})
    buttons.append({"tm": "discard", "label": "Défausser", "enabled": acting and bool(view.get("hand")),
                    "show": True, "reason": why("Tu ne peux pas défausser maintenant.")})

    layoff_targets: dict[str, list[str]] = {}
    for m in sugg.get("layoffs") or []:
        for c in m["cards"]:
            layoff_targets.setdefault(c, []).append(f"{m['meld_id']}:{m.get('end') or ''}")
    swap_targets: dict[str, list[str]] = {}
    for m in sugg.get("swaps") or []:
        for c in m["cards"]:
            swap_targets.setdefault(c, []).append(f"{m['meld_id']}:{m['joker']}")

    me_out = bool(me and not me["active"])
    return {
        "groups": groups,
        "melds_count": len(melds),
        "acting": acting,
        "actionable": actionable,
        "may_act": may_act,
        "threshold": threshold,
        "opened": i_opened,
        "opening": opening,
        "option_line": _option_line(view),
        "staged_lines": _staged_lines(actions, names),
        "staged": staged,
        "commit_error": (staged or {}).get("commit_error"),
        "chips": chips,
        "help_line": help_line,
        "buttons": buttons,
        "layoff_targets": layoff_targets,
        "swap_targets": swap_targets,
        "rules_json": json.dumps({
            "ace_low": bool(rules.get("ace_low", True)), "ace_high": bool(rules.get("ace_high", False)),
            "min_naturals": rules.get("min_naturals", 1), "threshold": threshold, "opened": i_opened,
            "staged_points": (staged or {}).get("opening_points", 0), "may_act": may_act, "acting": acting,
            "swap": rules.get("swap"),
        }),
        "me_out": me_out,
    }


def _mark_hand_targets(groups: list[dict], tm: dict) -> None:
    """Each card of my hand lists the table melds it fits (lay-off ends, jokers it can release)."""
    for group in groups:
        for card in group["cards"]:
            card["tm_layoffs"] = " ".join(tm["layoff_targets"].get(card["id"], []))
            card["tm_swaps"] = " ".join(tm["swap_targets"].get(card["id"], []))


class TableMeldPresenter(CardsPresenter):
    """The card games' pieces, four of them extended in templates/tables/live/table_meld/ (Jinja2 blocks)."""

    family = "table_meld"
    folder = "table_meld"
    pieces = ("centre", "hand", "actions", "round_end")
    scripts = ("js/table_meld.js",)

    def templates(self) -> dict[str, str]:
        return {**super().templates(), "opponents": "tables/live/cards/opponents.jinja"}

    def context(self, engine, view: dict, frame: dict, *, table, seats: list, me) -> dict:
        ctx = super().context(engine, view, frame, table=table, seats=seats, me=me)
        is_my_turn = frame["is_my_turn"]
        ctx["tm"] = table_melds_ctx(view, frame["seats"], frame["me"], is_my_turn)
        # the engine's words for an ending worth celebrating (« Main lisse ! »…)
        ctx["tm"]["celebrate"] = getattr(engine, "ending_labels", {}).get((view.get("last_round") or {}).get("ending"))
        _mark_hand_targets(ctx["hand_groups"], ctx["tm"])
        # what the card games' pieces draw differently here: cards chosen, not discarded, on a touch; the discard
        # pile as my discard's target; the seats' turn and lay-down marks; an eliminated player's way out
        ctx.update(hand_selectable=True, discard_target=ctx["tm"]["acting"], seat_marks=True,
                   me_out=ctx["tm"]["me_out"])
        if is_my_turn and view.get("phase") == "DRAW" and ctx["tm"]["help_line"]:
            ctx["hint"] = ctx["tm"]["help_line"]
        return ctx


PRESENTER = families.register(TableMeldPresenter())
