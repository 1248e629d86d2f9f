from django import forms

from engine import games
from engine.base import partner_of
from engine.bots import strength
from tables import families
from tables.match_file import MAX_BYTES, TOO_BIG
from tables.models import Game, Table
from tables.services import COACH_LIMITS
from tables.table_types import SLOW_TURN_TIMERS, arena_possible, timer_label

SEAT_CHOICES = [("human", "Un ami (invitation)"), ("1", "Robot Débutant"), ("2", "Robot Confirmé"),
                ("3", "Robot Expert")]


def playable_games():
    return Game.objects.filter(published=True, slug__in=families.live_slugs())


class TableCreateForm(forms.Form):
    """« Nouvelle table »: game, seats, who sits where, options, timer and stake."""

    teams = False  # the selected game is played by two teams of partners

    table_type = forms.ChoiceField(label="Type de table", initial=Table.Type.FRIENDS,
                                   choices=[(Table.Type.FRIENDS, "Entre amis (et robots)")])
    game = forms.ModelChoiceField(label="Jeu", queryset=Game.objects.none(), to_field_name="slug",
                                  empty_label=None)
    seats_count = forms.TypedChoiceField(label="Nombre de joueurs", coerce=int, choices=[(2, "2"), (3, "3"), (4, "4")])
    seat_1 = forms.ChoiceField(label="Place 2", choices=SEAT_CHOICES, initial="2")
    seat_2 = forms.ChoiceField(label="Place 3", choices=SEAT_CHOICES, initial="2", required=False)
    seat_3 = forms.ChoiceField(label="Place 4", choices=SEAT_CHOICES, initial="2", required=False)
    turn_timer_s = forms.TypedChoiceField(
        label="Temps par coup", coerce=int, choices=[],
        error_messages={"invalid_choice": "Ce temps par coup n'est pas proposé pour ce jeu."})
    stake = forms.TypedChoiceField(label="Mise (jetons)", coerce=int, choices=[])
    private = forms.BooleanField(label="Table privée (sur invitation seulement)", required=False, initial=True)
    rated = forms.BooleanField(label="Partie classée", required=False, initial=False,
                               widget=forms.CheckboxInput(attrs={"aria-describedby": "rated-help"}),
                               help_text="Le résultat compte pour le classement du jeu (les robots y jouent à leur "
                                         "cote publiée).")
    spectators_chat = forms.BooleanField(label="Les spectateurs peuvent écrire dans la discussion", required=False,
                                         initial=False)
    coach_limit = forms.TypedChoiceField(
        label="Conseils par joueur", coerce=int, initial=3, required=False, empty_value=3,
        choices=[(n, "Aucun" if n == 0 else f"{n} par partie") for n in COACH_LIMITS],
        widget=forms.Select(attrs={"aria-describedby": "coach-limit-help"}))

    def __init__(self, *args, game: Game | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = playable_games()
        game = game or self._selected_game() or self.fields["game"].queryset.first()
        self.selected_game = game
        if game is None:
            return
        self.fields["game"].initial = game.slug
        info = games.get(game.slug).info
        self.teams = info.teams
        if arena_possible(info):
            self.fields["table_type"].choices = [
                (Table.Type.FRIENDS, "Entre amis (et robots)"),
                (Table.Type.ARENA, "Arène : table publique, 3 manches (+ départage), mise d'entrée gagnée ou perdue"),
            ]
        if info.teams:
            self._label_partners(info.max_players)
        self.fields["seats_count"].choices = [(n, str(n)) for n in range(info.min_players, info.max_players + 1)]
        self.fields["seats_count"].initial = info.default_players
        self.fields["stake"].choices = [(s, "Partie amicale (0)" if s == 0 else f"{s} jetons")
                                        for s in game.allowed_stakes()]
        self.fields["stake"].initial = game.default_stake
        self.fields["turn_timer_s"].choices = [
            ("En direct", [(t, timer_label(t)) for t in info.turn_timers]),
            ("Partie lente (entre amis) : on joue quand on peut", [(t, timer_label(t)) for t in SLOW_TURN_TIMERS]),
        ]
        self.fields["turn_timer_s"].initial = info.default_turn_timer
        self.option_names = []
        for opt in info.options:
            name = f"opt_{opt.name}"
            self.fields[name] = forms.ChoiceField(label=opt.label, choices=[(str(v), lbl) for v, lbl in opt.choices],
                                                  initial=str(opt.default))
            self.option_names.append((name, opt))

    def _label_partners(self, seats_count: int) -> None:
        """Partners sit face to face (teams 0/2 and 1/3): each place says whose side it is on."""
        for position in range(1, seats_count):
            field = self.fields.get(f"seat_{position}")
            if field is not None:
                side = "ton partenaire" if partner_of(0, seats_count) == position else "adversaire"
                field.label = f"Place {position + 1} — {side}"

    def partner_teams(self) -> list[str]:
        """« Équipe 1 : places 1 et 3 », for the form's help."""
        return ["Ton équipe : places 1 et 3 (toi et ton partenaire, face à face)",
                "L'équipe adverse : places 2 et 4"] if getattr(self, "teams", False) else []

    def bot_strength(self) -> list[dict]:
        """The measured strength of the selected game's robot levels (engine/bots/strength.json)."""
        return strength.levels_fr(self.selected_game.slug) if self.selected_game else []

    def bot_strength_date(self) -> str:
        return strength.date_fr(self.selected_game.slug) if self.selected_game else ""

    def _selected_game(self):
        slug = self.data.get("game") if self.data else None
        return self.fields["game"].queryset.filter(slug=slug).first() if slug else None

    def bot_levels(self) -> dict[int, int]:
        levels = {}
        for position in range(1, self.cleaned_data["seats_count"]):
            choice = self.cleaned_data.get(f"seat_{position}") or "human"
            if choice != "human":
                levels[position] = int(choice)
        return levels

    def engine_options(self) -> dict:
        options = {}
        for name, opt in getattr(self, "option_names", []):
            raw = self.cleaned_data.get(name)
            options[opt.name] = next((v for v, _ in opt.choices if str(v) == raw), opt.default)
        return options


class MatchImportForm(forms.Form):
    """« Importer une partie »: a match file downloaded from « Revoir » (tables.match_file, tables.exports)."""

    file = forms.FileField(label="Fichier de la partie (.txt ou .json)",
                           error_messages={"required": "Choisis le fichier d'une partie exportée.",
                                           "empty": "Ce fichier est vide.",
                                           "invalid": "Envoie le fichier d'une partie exportée."})

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(TOO_BIG)
        return upload
