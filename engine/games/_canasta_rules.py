"""The rule set of a partnership Canasta (engine/games/_canasta.py): what the two games differ in, meld
validity and canasta kinds, and the French refusals."""

from dataclasses import dataclass

from engine.errors import IllegalMove
from engine.games._canasta_pieces import Pieces

FIRST_TURN, DRAW, MELD = "FIRST_TURN", "DRAW", "MELD"
ROUND_OVER, MATCH_OVER = "ROUND_OVER", "MATCH_OVER"
TEAMS = ("A", "B")
CANASTA_SIZE = 7

# The refusals name a piece « pièce »: each game says its own word (`CanastaRules.say`: « carte » / « tuile »,
# both feminine, so the rest of the sentence stands).
MESSAGES = {
    "bad_move": "Coup invalide.",
    "unknown_action": "Action inconnue.",
    "bad_seat": "Place inconnue.",
    "match_over": "La partie est terminée.",
    "round_over": "La manche est terminée : attends la suivante.",
    "round_not_over": "La manche n'est pas terminée.",
    "not_your_turn": "Ce n'est pas ton tour.",
    "wait_answer": "Attends la réponse de ton partenaire.",
    "no_question": "Personne ne t'a demandé la permission de sortir.",
    "bad_answer": "Réponds « oui » ou « non ».",
    "already_asked": "Tu as déjà demandé la permission de sortir ce tour-ci.",
    "ask_before_table": "La permission de sortir se demande avant de poser quoi que ce soit.",
    "no_question_here": "Dans ce jeu, on ne demande pas la permission de sortir.",
    "must_draw_first": "Pioche d'abord (ou prends la pile).",
    "first_turn_discard": "Premier tour : tu ne peux que défausser une pièce.",
    "already_drew": "Tu as déjà pioché.",
    "stock_empty": "La pioche est vide.",
    "stock_not_empty": "La pioche n'est pas vide : pioche.",
    "must_take_pile": ("La pioche est vide et la pièce du dessus va sur votre combinaison : "
                       "tu dois prendre la pile."),
    "no_joker_here": "Le bouton Joker n'existe pas dans ce jeu.",
    "no_joker_left": "Il n'y a plus de joker dans la pioche.",
    "no_joker_balance": "Tu n'as plus de joker sur ton compte.",
    "pile_empty": "La pile est vide.",
    "pile_blocked": "La pile est bloquée : la pièce du dessus ne se prend pas.",
    "pile_one_card": "Une pile d'une seule pièce ne se prend pas quand il te reste une seule pièce.",
    "top_not_used": "Pour prendre la pile, pose la pièce du dessus dans une de tes combinaisons.",
    "top_twice": "La pièce du dessus ne peut servir qu'une fois.",
    "need_pair": ("Pour prendre la pile, il faut dans ta main deux pièces naturelles du même rang que celle "
                  "du dessus."),
    "pile_strands": ("Après avoir pris la pile, il te faut encore de quoi finir ton tour "
                     "(au moins deux pièces en main)."),
    "bad_melds": "Combinaisons invalides.",
    "bad_cards": "Pièces invalides.",
    "not_in_hand": "Tu n'as pas ces pièces en main.",
    "unknown_meld": "Cette combinaison n'est pas à ton équipe.",
    "mixed_ranks": "Une combinaison ne contient qu'un seul rang (et des jokers).",
    "only_wilds": "Les jokers ne forment pas une combinaison à eux seuls.",
    "rank_melded": "Ton équipe a déjà une combinaison de ce rang : ajoute-lui ces pièces.",
    "bonus_three": "Les 3 rouges ne se posent pas dans une combinaison.",
    "no_threes": "Les 3 ne se posent jamais dans une combinaison.",
    "black_threes": "Une combinaison de 3 noirs : 3 ou 4 trois noirs, sans joker, le tour où tu sors.",
    "black_threes_out": "Les 3 noirs ne se posent que le tour où tu sors.",
    "too_short": "Une combinaison compte au moins 3 pièces.",
    "too_few_naturals": "Une combinaison a au moins deux pièces naturelles.",
    "too_many_wilds": "Pas plus de 3 jokers dans une combinaison.",
    "wilds_not_fewer": "Une combinaison doit avoir plus de pièces naturelles que de jokers.",
    "twos_jokers": "Une combinaison de 2 : au plus 2 jokers, moins que les 2.",
    "keep_a_piece": "Garde une pièce pour la défausse : on ne pose jamais sa dernière pièce.",
    "nothing_to_undo": "Il n'y a rien à annuler.",
    "not_in_meld_phase": "Ce coup n'est pas possible maintenant.",
    "below_minimum": "Première pose insuffisante.",
    "need_canasta": "Pour sortir, ton équipe doit avoir au moins une canasta : garde une pièce en main.",
    "not_allowed_out": "Ton partenaire a répondu non : tu ne peux pas sortir ce tour-ci.",
    "must_go_out": "Ton partenaire a répondu oui et tu peux sortir : tu dois sortir ce tour-ci.",
    "no_discard_last_red3": "La dernière pièce de la pioche était un 3 rouge : pas de défausse, termine ton tour.",
    "not_last_red3": "Tu finis ton tour en défaussant.",
    "hand_not_empty": "Tu ne peux sortir qu'une fois toutes tes pièces posées.",
    "card_not_in_hand": "Tu n'as pas cette pièce.",
    "bad_card": "Pièce invalide.",
    "no_decision": "Tu n'as rien à jouer maintenant.",
}


def illegal(code: str, message: str | None = None) -> IllegalMove:
    return IllegalMove(code, message or MESSAGES[code])


def plural(n: int) -> str:
    return "s" if abs(n) > 1 else ""


@dataclass(frozen=True)
class CanastaRules:
    """Everything the two Canastas differ in."""

    pieces: Pieces
    hand_size: int
    first_extra: int  # tiles: the first player gets a 15th tile and only discards on his first turn
    upcard: bool  # cards: the pile starts with an upcard (covered while wild / red 3)
    freezing: bool  # cards: a wild or red 3 in the pile freezes it
    direction: int  # +1 clockwise (cards), -1 counter-clockwise (tiles)
    thresholds: tuple  # ((lowest team score, minimum), ...) highest first; below all: the last minimum
    below_zero: int
    min_naturals: int  # cards: a meld holds at least 2 naturals
    max_wilds: int
    wilds_fewer: bool  # tiles: strictly fewer wilds than naturals
    twos_meld: bool  # tiles: a meld of 2s with at most 2 jokers, fewer than the 2s
    black_three_meld: bool  # cards: 3–4 black 3s, no wild, only when going out
    bonus: dict  # clean, dirty, twos_clean, twos_dirty
    red3_each: int
    red3_all: int
    black3_in_hand: int  # tiles: −100 each left in a hand (cards: their value 5 counts as any card)
    going_out: int
    concealed: int | None  # cards: 200 in total for a concealed going out
    go_out_question: bool
    go_out_action: bool  # cards may meld their last card (go_out); tiles always end with a discard
    pile_one_card_rule: bool  # cards: 1-card pile not taken with 1 card in hand
    take_with_wild: bool  # cards, unfrozen pile, melded team: t + a natural + a wild, or t alone on the meld
    target: int | None  # cards: 5,000

    def say(self, text: str) -> str:
        """A French sentence with this game's word for a piece: « carte » (cards) or « tuile » (tiles)."""
        word = "carte" if self.pieces.kind == "cards" else "tuile"
        return text.replace("pièce", word).replace("Pièce", word.capitalize())

    def minimum(self, score: int) -> int:
        if score < 0:
            return self.below_zero
        for low, minimum in self.thresholds:
            if score >= low:
                return minimum
        return self.thresholds[-1][1]

    def meld_kind(self, rank: str, pieces: list) -> str | None:
        """The canasta a meld is (None under 7 pieces)."""
        if len(pieces) < CANASTA_SIZE:
            return None
        wilds = sum(1 for p in pieces if self.is_wild_in(rank, p))
        prefix = "twos_" if rank == "2" else ""
        return prefix + ("clean" if wilds == 0 else "dirty")

    def is_wild_in(self, rank: str, p: str) -> bool:
        """A wild of a meld of `rank` (in the tile game's meld of 2s only the joker tiles are wild)."""
        prank = self.pieces.rank[p]
        if rank == "2":
            return prank == self.pieces.joker_rank
        return prank in self.pieces.wild_ranks

    def meld_error(self, rank: str, pieces: list) -> str | None:
        """The code refusing a meld of `rank` made of `pieces` (all of them: laid and added), or None."""
        R, P = self, self.pieces
        if any(p in P.bonus_threes for p in pieces):
            return "bonus_three"
        if rank == "3":
            if not R.black_three_meld:
                return "no_threes"
            if not 3 <= len(pieces) <= 4 or any(P.rank[p] != "3" for p in pieces):
                return "black_threes"
            return None
        naturals = sum(1 for p in pieces if P.rank[p] == rank)
        wilds = sum(1 for p in pieces if P.rank[p] != rank and self.is_wild_in(rank, p))
        if naturals + wilds != len(pieces):
            return "mixed_ranks"
        return self.count_error(rank, naturals, wilds)

    def count_error(self, rank: str, naturals: int, wilds: int) -> str | None:
        """The code refusing a meld of `rank` with these counts of naturals and wilds, or None."""
        R = self
        if rank in self.pieces.wild_ranks and (rank != "2" or not R.twos_meld):
            return "only_wilds"
        if naturals + wilds < 3:
            return "too_short"
        if rank == "2":
            return "twos_jokers" if wilds > 2 or wilds >= naturals else None
        if naturals < R.min_naturals:
            return "too_few_naturals"
        if wilds > R.max_wilds:
            return "too_many_wilds"
        if R.wilds_fewer and wilds >= naturals:
            return "wilds_not_fewer"
        return None

    def rank_of_set(self, pieces: list) -> str | None:
        """The rank a new meld of `pieces` melds as (None: several ranks, or wilds only where not allowed)."""
        P = self.pieces
        ranks = {P.rank[p] for p in pieces if not P.is_wild(p)}
        if len(ranks) == 1:
            return ranks.pop()
        if not ranks and self.twos_meld and any(P.rank[p] == "2" for p in pieces):
            return "2"
        return None

    def value(self, pieces) -> int:
        v = self.pieces.value
        return sum(v[p] for p in pieces)
