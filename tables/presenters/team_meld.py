"""The team-meld family's presenter: four seats, partners face to face, the melds owned by the teams.

Partner across, opponents left and right with their hand counts; in the centre the opponents' melds (« Eux »)
above the stock and the pile (its size, frozen or not), ours (« Nous ») below: one meld per rank with its count
toward 7, a closed meld of seven a stack marked clean or dirty; the teams' bonus 3s, scores and opening minimum. My
hand grouped by rank, wilds last. One set of pieces draws cards or tiles, as the view's "pieces" says
(templates/tables/live/team_meld/). Table actions are staged by the engine: while I play my turn, our side shows
my staged melds (`view["staged"]`, mine only) until my discard. Buttons show only when the legal moves allow
them; the cards they act on are chosen in the page (static/js/team_meld.js)."""

import json
from functools import lru_cache

from engine import cards
from engine.base import TEAM_SEATS, partner_of
from engine.games import _tiles
from tables import families, live
from tables.presenters.base import Presenter
from tables.presenters.cards import card_ctx
from tables.presenters.tiles import tile_ctx

MACROS = "tables/live/team_meld/pieces.jinja"
_shown, _hand_piece = (live.cached_macro(MACROS, name) for name in ("shown", "hand_piece"))
SEVEN = 7  # pieces in a closed meld
TEAM_OF = {seat: team for team, seats in TEAM_SEATS.items() for seat in seats}
UNIT = {"cards": "carte", "tiles": "tuile"}
ENDINGS = {
    "stock": "La pioche est épuisée : la manche s'arrête, sans prime de sortie.",
    "left": "Un joueur a quitté la partie.",
}


def piece_html(piece: dict, size: str | None = None):
    return _shown(piece, size)


def hand_piece_html(piece: dict):
    return _hand_piece(piece)


@lru_cache(maxsize=1024)
def _piece(kind: str, piece: str, wild: bool, rank: str, points: int) -> dict:
    if kind == "tiles":
        return {**tile_ctx(piece), "tile": True, "wild": wild, "rank": rank, "points": points}
    return {**card_ctx(piece), "tile": False, "wild": wild, "rank": rank, "points": points}


class Pieces:
    """The engine's pieces (cards or tiles) as the templates draw them."""

    def __init__(self, engine, kind: str):
        self.P = engine.P
        self.kind = kind
        self.words = engine.table_words  # the rule set's words: closed melds, sheet rows, celebrations

    def ctx(self, piece: str, wild: bool | None = None) -> dict:
        P = self.P
        return _piece(self.kind, piece, P.is_wild(piece) if wild is None else wild, P.rank[piece], P.value[piece])

    def label(self, piece: str) -> str:
        """Short: « 7♠ », « Joker », « 7 rouge »."""
        if self.kind == "cards":
            return "Joker" if cards.is_joker(piece) else cards.label(piece)
        return _tiles.tile_name(piece).removeprefix("Tuile ")

    def text(self, pieces) -> str:
        return " ".join(self.label(p) for p in pieces)


def team_label(team: str, my_team: str | None) -> str:
    """« Nous » / « Eux » for a player (or a replay of his own match); a spectator has no side: « Équipe A » /
    « Équipe B »."""
    if my_team is None:
        return f"Équipe {team}"
    return "Nous" if team == my_team else "Eux"


def meld_ctx(pieces: Pieces, meld: dict, staged_ids: set, changed_ids: set) -> dict:
    kind = meld.get("closed")
    count = meld["count"]
    rank_name = meld["rank_name"]
    shown = [pieces.ctx(p, i >= meld["naturals"]) for i, p in enumerate(meld["pieces"])]
    words = pieces.words["closed"]
    closed = None
    if kind:
        closed = "clean" if kind.endswith("clean") else "dirty"
    aria = f"{rank_name} : {count} {UNIT[pieces.kind]}{'s' if count > 1 else ''}"
    if meld["wilds"]:
        aria += f" dont {meld['wilds']} joker{'s' if meld['wilds'] > 1 else ''}"
    aria += f", {meld['points']} points"
    noun = pieces.words["closed_noun"]
    toward = meld.get("toward", True)  # the engine's word: this meld may still grow into a closed one
    if kind:
        aria += f", {words[kind].lower()}"
    elif toward:
        aria += f", encore {meld['to_seven']} pour une {noun}"
    return {
        "id": meld["id"], "rank": meld["rank"], "label": rank_name, "count": count, "wilds": meld["wilds"],
        "toward": toward,
        "pieces": tuple(shown), "closed": closed, "closed_label": words.get(kind, "") if kind else "",
        "staged": meld["id"] in staged_ids or meld["id"] in changed_ids, "aria": aria,
    }


def teams_ctx(pieces: Pieces, view: dict, names: dict, my_team: str | None) -> dict:
    staged = view.get("staged") or {}
    actions = staged.get("actions") or []
    new_ids = {a["meld_id"] for a in actions if a["action"] == "meld"}
    changed = {a["meld_id"] for a in actions}
    out = {}
    for team, t in view["teams"].items():
        melds = t["melds"]
        if staged and team == my_team:
            melds = staged.get("melds_after") or melds  # my staged turn, seen by me only
        members = [names.get(s, "?") for s in TEAM_SEATS[team]]
        out[team] = {
            "id": team, "is_us": team == (my_team or "A"), "label": team_label(team, my_team),
            "who": " et ".join(members), "score": t["score"], "minimum": t["minimum"], "opened": t["melded"],
            "closed_count": sum(1 for m in melds if m["count"] >= SEVEN),
            "threes": tuple(pieces.ctx(p, False) for p in t["red3s"]),
            "melds": tuple(meld_ctx(pieces, m, new_ids, changed) for m in melds),
        }
    return out


def hand_groups(pieces: Pieces, hand: list) -> tuple:
    """My hand (the engine sorts it by rank, wilds last) in one group per rank."""
    groups: list[dict] = []
    for p in hand:
        ctx = pieces.ctx(p)
        if not groups or groups[-1]["rank"] != ctx["rank"]:
            groups.append({"rank": ctx["rank"], "pieces": []})
        groups[-1]["pieces"].append(ctx)
    P = pieces.P
    return tuple({"label": f"{P.rank_name(g['rank'])} ({len(g['pieces'])})", "pieces": tuple(g["pieces"])}
                 for g in groups)


def staged_lines(pieces: Pieces, view: dict, teams: dict, my_team: str | None) -> tuple:
    staged = view.get("staged") or {}
    lines = []
    for a in staged.get("actions") or []:
        rank_name = pieces.P.rank_name(a["rank"])
        points = sum(pieces.P.value[p] for p in a["pieces"])
        if a["action"] == "meld":
            lines.append(f"Déposer {pieces.text(a['pieces'])} ({points} pts)")
        else:
            lines.append(f"Ajouter {pieces.text(a['pieces'])} aux {rank_name}" if pieces.kind == "cards"
                         else f"Ajouter {pieces.text(a['pieces'])} à la combinaison de {rank_name}")
    if lines and my_team and not teams[my_team]["opened"]:
        minimum = teams[my_team]["minimum"]
        points = staged.get("points", 0)
        lines.append(f"Première pose : {points} / {minimum} pts" + (" ✓" if points >= minimum else
                                                                     f" (il en manque {minimum - points})"))
    return tuple(lines)


def question_ctx(view: dict, names: dict, me: int | None) -> tuple[dict | None, str]:
    """The go-out question: whether I am asked it (« Oui » / « Non »), and a line about it."""
    q = view.get("question")
    if not q or me is None:
        return None, ""
    asker, partner, answer = q["seat"], q["partner"], q.get("answer")
    if answer is None:
        if partner == me:
            return {"asker": names.get(asker, "Ton partenaire")}, ""
        if asker == me:
            return None, (f"Tu as demandé à {names.get(partner, 'ton partenaire')} : "
                          "« Partenaire, puis-je sortir\u00a0? » En attente de sa réponse…")
        return None, ""
    if asker == me:
        if answer == "yes":
            return None, f"{names.get(partner, 'Ton partenaire')} a répondu oui : sors si tu le peux, tu le dois."
        return None, f"{names.get(partner, 'Ton partenaire')} a répondu non : tu ne peux pas sortir ce tour-ci."
    if partner == me:
        return None, f"Tu as répondu {'oui' if answer == 'yes' else 'non'} à {names.get(asker, 'ton partenaire')}."
    return None, ""


def _pair_for(engine, view: dict, top: str | None) -> bool:
    """Two natural pieces of the top piece's rank in my hand (what taking the pile always needs but one case)."""
    pile = view.get("pile") or {}
    if not top or not pile.get("takeable"):
        return False
    P = engine.P
    return sum(1 for p in view.get("hand") or () if P.rank[p] == P.rank[top] and not P.is_wild(p)) >= 2


def buttons(engine, view: dict, acting: bool) -> tuple:
    """The turn's buttons, in the order a turn goes; only those the legal moves allow."""
    legal = view.get("legal") or []
    kinds = {m["action"] for m in legal}
    labels = engine.action_labels
    out = []

    def move(action, label=None, secondary=False, **params):
        out.append({"vals": json.dumps({"kind": "move", "action": action, **params}, ensure_ascii=False),
                    "label": label or labels.get(action, action), "secondary": secondary})

    if "draw_stock" in kinds:
        move("draw_stock")
    balance = view.get("joker_balance")
    joker = f"{labels.get('take_joker', 'Joker')} (solde\u00a0: {balance})"
    if "take_joker" in kinds:
        move("take_joker", joker)
    elif acting and view.get("joker_refusal"):
        # Shown but disabled, with the reason (rules §9), as « Prendre la pile »: nothing a click could send.
        out.append({"label": joker, "disabled": view["joker_refusal"]})
    take = next((m for m in legal if m["action"] == "take_pile"), None)
    top = (view.get("pile") or {}).get("top")
    if take is not None or (acting and "draw_stock" in kinds and _pair_for(engine, view, top)):
        # The legal moves list one way to take the pile (the engine's canonical one) and may miss a first meld
        # the player sees (a pair for the top piece and other melds of his own): with the pair in hand, the button
        # is there and the server judges what the player chose.
        out.append({"act": "take_pile", "label": labels.get("take_pile", "Prendre la pile"), "top": top,
                    "top_rank": engine.P.rank[top],
                    "default": json.dumps(take["melds"]) if take else ""})
    elif acting and (refusal := (view.get("pile") or {}).get("refusal")):
        # Shown but disabled, with the reason (UI.md): a player looks for the pile's button at every draw.
        out.append({"act": "take_pile", "label": labels.get("take_pile", "Prendre la pile"), "disabled": refusal})
    if "pass" in kinds:
        move("pass", secondary=True)
    if acting and "meld" in kinds:
        out.append({"act": "meld", "label": labels.get("meld", "Déposer")})
    if acting and "lay_off" in kinds:
        out.append({"act": "lay_off", "label": labels.get("lay_off", "Ajouter")})
    if "undo" in kinds:
        move("undo", secondary=True)
        if any(m["action"] == "undo" and m.get("all") for m in legal):
            move("undo", "Tout annuler", secondary=True, all=True)
    if "go_out" in kinds:
        move("go_out")
    if "end_turn" in kinds:
        move("end_turn")
    # Every turn ends with a discard: while I play my turn it is there, even when the legal moves hold none
    # because my staged turn would be refused (a first meld under the minimum): the server says why, in French.
    if "discard" in kinds or (acting and view.get("phase") == "MELD" and view.get("hand") and "end_turn" not in kinds):
        out.append({"act": "discard", "label": labels.get("discard", "Défausser")})
    if "ask_go_out" in kinds:
        move("ask_go_out", secondary=True)
    return tuple(out)


def round_end(pieces: Pieces, view: dict, names: dict, me: int | None, my_team: str | None) -> dict | None:
    last = view.get("last_round")
    if not last:
        return None
    order = [my_team or "A", "B" if (my_team or "A") == "A" else "A"]
    teams = last["teams"]
    words = pieces.words
    rows = [
        {"label": "Combinaisons posées", "key": "melds_points", "signed": False},
        {"label": words["bonus_row"], "key": "closed_bonus", "signed": True},
        {"label": words["threes_row"], "key": "red3_points", "signed": True},
    ]
    if words["blocking_threes_row"]:
        rows.append({"label": words["blocking_threes_row"], "key": "black3_points", "signed": True})
    rows += [
        {"label": "Prime de sortie", "key": "going_out", "signed": True},
        {"label": f"{UNIT[pieces.kind].capitalize()}s restées en main", "key": "hand_points", "signed": True},
    ]
    for row in rows:
        sign = -1 if row["key"] == "hand_points" and all(teams[t][row["key"]] >= 0 for t in order) else 1
        row["values"] = tuple(sign * teams[t][row["key"]] for t in order)
    went = last.get("went_out")
    ending = ENDINGS.get(last.get("ending"), "")
    if went is not None:
        who = "Tu es sorti" if went == me else f"{names.get(went, '?')} est sorti"
        ending = f"{who} d'un coup, main cachée !" if last.get("ending") == "concealed" else f"{who} !"
    hands = []
    for seat, hand in enumerate(last.get("hands") or []):
        hands.append({"name": names.get(seat, "?"), "is_me": seat == me, "went_out": seat == went,
                      "pieces": tuple(pieces.ctx(p) for p in hand),
                      "points": sum(pieces.P.value[p] for p in hand)})
    celebrate, headline = going_out_headline(words, last, my_team)
    return {
        "round": last["round"], "ending": ending, "celebrate": celebrate, "headline": headline,
        "rows": tuple(rows), "hands": tuple(hands),
        "teams": tuple({"label": team_label(t, my_team), "is_us": t == (my_team or "A"),
                        "who": " et ".join(names.get(s, "?") for s in TEAM_SEATS[t]),
                        "total": teams[t]["total"], "score": teams[t]["score"]} for t in order),
    }


def going_out_headline(words: dict, last: dict, my_team: str | None) -> tuple[str, str]:
    """(celebration, plain headline) of a hand someone went out of, for the reader's side: my team went out,
    the engine's celebration with « Nous sortons ! » (in red); the other team, « Eux sortent ! »; a spectator,
    « Équipe A sort ! ». A hand the stock ended has neither (its summary line says it)."""
    ending, went = last.get("ending"), last.get("went_out")
    shout = words["celebrate"].get(ending, "")
    if not shout or went is None:
        return "", ""
    team = TEAM_OF.get(went)
    label = team_label(team, my_team)
    hidden = ", main cachée" if ending == "concealed" else ""
    if team == my_team:
        return f"{words['celebrate'].get('out', shout)} Nous sortons{hidden} !", ""
    verb = "sortent" if label == "Eux" else "sort"
    return "", f"{label} {verb}{hidden} !"


def match_line(view: dict, words: dict) -> str:
    length = (view.get("options") or {}).get("match_length")
    if length == "1":
        return "Partie en une manche"
    if length and length.isdigit() and int(length) > 3:
        return f"Partie en {int(length):,} points".replace(",", " ")
    if length:
        return f"Partie en {length} manches"
    return words["match_default"]


class TeamMeldPresenter(Presenter):
    family = "team_meld"
    stylesheets = ("css/tiles.css", "css/team_meld.css")  # a game of tiles draws the tile table's pieces
    scripts = ("js/team_meld.js",)
    folder = "team_meld"
    pieces = ("opponents", "centre", "hand", "actions", "round_end", "scores")
    template_globals = {"cn_piece": piece_html, "cn_hand_piece": hand_piece_html}

    def context(self, engine, view: dict, frame: dict, *, table, seats: list, me) -> dict:
        kind = view.get("pieces") or "cards"
        pieces = Pieces(engine, kind)
        my_seat = view.get("seat")
        # Whose side the words take: my seat, or in a replay of my own match the place I played (frame's viewer).
        side = my_seat if my_seat is not None else frame.get("viewer")
        my_team = TEAM_OF.get(side)
        names = {s["position"]: s["name"] for s in frame["seats"]}
        q = view.get("question") or {}
        counts = view.get("hand_counts") or []
        for seat in frame["seats"]:
            pos = seat["position"]
            seat["hand_count"] = counts[pos] if pos < len(counts) else 0
            seat["team"] = TEAM_OF.get(pos)
            seat["is_viewer"] = my_seat is None and side is not None and pos == side
            seat["partner"] = side is not None and pos == partner_of(side)
            seat["asks"] = q.get("seat") == pos and q.get("answer") is None
            seat["score"] = view["team_scores"].get(TEAM_OF.get(pos), 0)
        if frame["me"] is not None:
            frame["me"]["score"] = view["team_scores"].get(my_team, 0)
        teams = teams_ctx(pieces, view, names, my_team)
        us = teams[my_team or "A"]
        them = teams["B" if (my_team or "A") == "A" else "A"]
        phase = view.get("phase")
        acting = (bool(frame["is_my_turn"]) and phase in ("MELD", "FIRST_TURN", "DRAW")
                  and view.get("current") == my_seat)
        question, go_out_line = question_ctx(view, names, my_seat)
        hand = view.get("hand") or []
        pile = view.get("pile") or {}
        history = tuple({"round": row["round"], "points": tuple(row["points"][t["id"]] for t in (us, them))}
                        for row in view.get("history") or ())
        kinds = {m["action"] for m in view.get("legal") or []}
        result = view.get("result")
        winner = None
        if result and result.get("winners") and my_team:
            winner = "us" if TEAM_OF.get(result["winners"][0]) == my_team else "them"
        hint = frame["hint"]
        if question:
            hint = f"{question['asker']} te demande s'il peut sortir : réponds « Oui » ou « Non »."
        return {
            "hint": hint,
            "cn_side": my_team is not None,  # « Nous » / « Eux » rather than the teams' letters
            "cn_tiles": kind == "tiles",
            "cn_unit": UNIT[kind],
            "cn_bonus_three": pieces.words["bonus_three"],
            "cn_closed_noun": pieces.words["closed_noun"],
            "cn_us": us,
            "cn_them": them,
            "cn_teams": (us, them),
            "cn_history": history,
            "cn_pile": {"count": pile.get("size", 0), "frozen": bool(pile.get("frozen")),
                        "blocked": bool(pile.get("top")) and not pile.get("takeable"),
                        "top": pieces.ctx(pile["top"]) if pile.get("top") else None},
            "cn_stock": view.get("stock_count", 0),
            "cn_can_draw": "draw_stock" in kinds,
            "cn_can_next": "next_round" in kinds,
            "cn_acting": acting,
            "cn_hand": hand_groups(pieces, hand),
            "cn_hand_count": len(hand),
            "cn_hand_points": sum(pieces.P.value[p] for p in hand),
            "cn_staged_lines": staged_lines(pieces, view, teams, my_team),
            "cn_question": question,
            "cn_go_out_line": go_out_line,
            "cn_buttons": buttons(engine, view, acting) if my_seat is not None else (),
            "cn_joker": {"shown": view.get("joker_balance") is not None, "balance": view.get("joker_balance")},
            "cn_match_line": match_line(view, pieces.words),
            "cn_round": round_end(pieces, view, names, my_seat, my_team),
            "cn_winner": winner,
        }


PRESENTER = families.register(TeamMeldPresenter())
