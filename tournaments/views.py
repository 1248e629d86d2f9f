"""The tournaments' pages: the list, a tournament (its standings and rounds, live), registration, creation."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.models import User
from tables.forms import playable_games
from tables.models import Table
from tournaments import services, standings
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Tournament

INVITES = "tournament_invites"  # the private tournaments whose invite link this browser opened (session)
PRIZE_PRESETS = {"first": [100], "podium": [50, 30, 20], "none": []}


def _invited(request) -> list[int]:
    return list(request.session.get(INVITES, []))


def may_see(tournament_id: int, user_id: int | None, invited: list[int] | None = None) -> bool:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    if not tournament.private or tournament_id in (invited or []):
        return True
    if user_id is None:
        return False
    return tournament.created_by_id == user_id or services.entry_of(tournament, user_id) is not None


def _visible(request):
    mine = Q()
    if request.user.is_authenticated:
        mine = (Q(created_by=request.user) | Q(entries__user=request.user) | Q(entries__partner=request.user)
                | Q(pk__in=_invited(request)))
        return Tournament.objects.filter(Q(private=False) | mine).distinct()
    return Tournament.objects.filter(private=False)


def tournament_list(request):
    visible = _visible(request).select_related("game")
    upcoming = visible.filter(status=Tournament.Status.REGISTRATION).order_by("starts_at")[:50]
    running = visible.filter(status=Tournament.Status.RUNNING).order_by("starts_at")[:50]
    finished = visible.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20]
    mine = []
    if request.user.is_authenticated:
        mine = (Tournament.objects.filter(Q(entries__user=request.user) | Q(entries__partner=request.user))
                .select_related("game").distinct().order_by("-starts_at")[:20])
    return render(request, "tournaments/list.html", {"upcoming": upcoming, "running": running,
                                                     "finished": finished, "mine": mine})


def _rounds(tournament: Tournament, names: dict[int, str]) -> list[dict]:
    rows = []
    matches = list(Match.objects.filter(tournament=tournament).select_related("table").order_by("pk"))
    by_round: dict[int | None, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round_id, []).append(match)
    for round_ in Round.objects.filter(tournament=tournament).order_by("-number"):
        rows.append({"number": round_.number, "done": round_.finished_at is not None,
                     "matches": [_match_row(m, names) for m in by_round.get(round_.pk, [])]})
    if tournament.format == Tournament.Format.ARENA and by_round.get(None):
        rows.append({"number": None, "done": False,
                     "matches": [_match_row(m, names) for m in reversed(by_round[None])][:60]})
    return rows


def _match_row(match: Match, names: dict[int, str]) -> dict:
    places = match.places or {}
    return {"bye": match.is_bye, "table_id": match.table_id, "done": match.done,
            "playing": bool(match.table_id and match.table.status == Table.Status.PLAYING),
            "entries": [{"name": names.get(int(e), "?"), "place": places.get(str(e))} for e in match.entries]}


def _names(tournament: Tournament) -> dict[int, str]:
    entries = Entry.objects.filter(tournament=tournament).select_related("user", "partner")
    return {e.pk: str(e) if e.partner_confirmed else f"{e} (en attente de {e.partner})" for e in entries}


def _shared(tournament: Tournament) -> dict:
    """The standings and rounds, the same for every page: drawn once per change of the tournament (a result, a
    round, a registration) and kept in the cache, since every open page asks for them at each push."""
    matches = Match.objects.filter(tournament=tournament)
    entries = Entry.objects.filter(tournament=tournament).aggregate(n=Count("pk"), last=Max("pk"))
    confirmed = Entry.objects.filter(tournament=tournament, partner_confirmed=True).count()
    marker = (tournament.status, matches.count(), matches.filter(places__isnull=False).count(), entries["n"],
              entries["last"], confirmed)
    key = f"tournament-live:{tournament.pk}:" + ":".join(map(str, marker))
    shared = cache.get(key)
    if shared is None:
        names = _names(tournament)
        table = standings.compute(tournament) if names else []
        shared = {"rows": [{"entry": s.entry, "rank": s.rank, "name": names.get(s.entry, "?"),
                            "points": _points(s.points), "buchholz": _points(s.buchholz), "wins": s.wins,
                            "played": s.played, "byes": s.byes} for s in table],
                  "rounds": _rounds(tournament, names)}
        cache.set(key, shared, 300)
    return shared


def live_context(tournament: Tournament, user_id: int | None) -> dict:
    shared = _shared(tournament)
    my_entry = services.entry_of(tournament, user_id) if user_id else None
    next_table = None
    if my_entry is not None:
        open_match = _my_open_match(tournament, my_entry.pk)
        next_table = open_match.table_id if open_match else None
    rows = [{**row, "mine": my_entry is not None and row["entry"] == my_entry.pk} for row in shared["rows"]]
    return {"tournament": tournament, "standing_rows": rows, "rounds": shared["rounds"], "next_table": next_table,
            "my_entry": my_entry, "team": services.is_team_game(tournament.game)}


def _my_open_match(tournament: Tournament, entry_id: int) -> Match | None:
    for match in Match.objects.filter(tournament=tournament, places__isnull=True, table__isnull=False).order_by("-pk"):
        if entry_id in [int(e) for e in match.entries]:
            return match
    return None


def _points(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",")


def live_html(tournament_id: int, user_id: int | None) -> str:
    tournament = Tournament.objects.filter(pk=tournament_id).select_related("game").first()
    if tournament is None:
        return ""
    return render_to_string("tournaments/live.html", {**live_context(tournament, user_id), "oob": True})


def tournament_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("game", "created_by"), pk=tournament_id)
    user_id = request.user.pk if request.user.is_authenticated else None
    if not may_see(tournament.pk, user_id, _invited(request)):
        raise Http404
    context = {**live_context(tournament, user_id),
               "entries_count": Entry.objects.filter(tournament=tournament).count(),
               "invite_url": request.build_absolute_uri(f"/tournois/invitation/{tournament.invite_token}/")
               if tournament.private and tournament.created_by_id == user_id else None}
    return render(request, "tournaments/page.html", context)


def tournament_invite(request, token: str):
    tournament = Tournament.objects.filter(invite_token=token).first()
    if tournament is None:
        raise Http404
    invited = _invited(request)
    if tournament.pk not in invited:
        request.session[INVITES] = (invited + [tournament.pk])[-50:]
    return redirect("tournaments:page", tournament_id=tournament.pk)


@login_required
@require_POST
def tournament_register(request, tournament_id: int):
    if not may_see(tournament_id, request.user.pk, _invited(request)):
        raise Http404
    partner = None
    name = (request.POST.get("partner") or "").strip()
    if name:
        partner = User.objects.filter(username__iexact=name, is_active=True).first()
        if partner is None:
            messages.error(request, "Aucun joueur ne porte ce pseudo.")
            return redirect("tournaments:page", tournament_id=tournament_id)
    try:
        services.register(tournament_id=tournament_id, user=request.user, partner=partner)
        messages.success(request, "Tu es inscrit. Tu seras prévenu quand ta première table sera prête.")
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect("tournaments:page", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_partner(request, tournament_id: int):
    """The partner named by a pair's player: « Accepter » (he pays his stake) or « Refuser »."""
    if not may_see(tournament_id, request.user.pk, _invited(request)):
        raise Http404
    accept = request.POST.get("answer") == "accept"
    try:
        services.partner_answer(tournament_id=tournament_id, user=request.user, accept=accept)
        messages.success(request, "Votre paire est inscrite." if accept else "Tu as refusé cette paire.")
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect("tournaments:page", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_withdraw(request, tournament_id: int):
    if not may_see(tournament_id, request.user.pk, _invited(request)):
        raise Http404
    try:
        services.withdraw(tournament_id=tournament_id, user=request.user)
        messages.success(request, "Tu n'es plus inscrit à ce tournoi.")
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect("tournaments:page", tournament_id=tournament_id)


class TournamentForm(forms.Form):
    name = forms.CharField(label="Nom du tournoi", max_length=80)
    game = forms.ModelChoiceField(label="Jeu", queryset=playable_games(), empty_label=None, to_field_name="slug")
    format = forms.ChoiceField(label="Formule", choices=Tournament.Format.choices)
    table_size = forms.TypedChoiceField(label="Joueurs par table", coerce=int, choices=[(2, "2"), (3, "3"), (4, "4")],
                                        help_text="Les jeux en équipes se jouent à 4 : deux paires par table.")
    rounds = forms.IntegerField(label="Rondes (système suisse)", min_value=1, max_value=15, initial=5)
    advance = forms.TypedChoiceField(label="Qualifiés par table (élimination directe)", coerce=int,
                                     choices=[(1, "1"), (2, "2")])
    arena_minutes = forms.IntegerField(label="Durée de l'Arène (minutes)", min_value=10, max_value=240, initial=60)
    starts_at = forms.DateTimeField(label="Début", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                    input_formats=["%Y-%m-%dT%H:%M"])
    entry_stake = forms.IntegerField(label="Mise d'entrée (jetons, 0 : gratuit)", min_value=0, max_value=10000,
                                     initial=0)
    prizes = forms.ChoiceField(label="Gains", choices=[("first", "Toute la cagnotte au premier"),
                                                       ("podium", "50 % / 30 % / 20 % aux trois premiers"),
                                                       ("none", "Pas de cagnotte")])
    absent = forms.ChoiceField(label="Un joueur absent au début d'une ronde", choices=Tournament.Absent.choices)
    rated = forms.BooleanField(label="Parties classées", required=False, initial=True)

    def clean_starts_at(self):
        value = self.cleaned_data["starts_at"]
        if value < timezone.now():
            raise forms.ValidationError("Le début doit être dans le futur.")
        return value


@login_required
def tournament_new(request):
    """A tournament between friends: private, reached by its invitation link."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                name=data["name"], game=data["game"], starts_at=data["starts_at"], created_by=request.user,
                private=True, format=data["format"], table_size=data["table_size"], rounds=data["rounds"],
                advance=data["advance"], arena_minutes=data["arena_minutes"], entry_stake=data["entry_stake"],
                prizes=PRIZE_PRESETS[data["prizes"]] if data["entry_stake"] else [], rated=data["rated"],
                absent=data["absent"])
        except TournamentError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Tournoi créé : envoie le lien d'invitation à tes amis.")
            return redirect("tournaments:page", tournament_id=tournament.pk)
    return render(request, "tournaments/new.html", {"form": form})


def player_tournaments(request, pseudo: str):
    """A player's tournaments (the public ones, and the private ones the viewer may see), with his final place."""
    if len(pseudo) > 150 or not pseudo.isprintable():
        raise Http404
    player = get_object_or_404(User, username=pseudo, is_bot=False, is_active=True)
    entries = (Entry.objects.filter(Q(user=player) | Q(partner=player))
               .select_related("tournament", "tournament__game").order_by("-tournament__starts_at")[:50])
    viewer = request.user.pk if request.user.is_authenticated else None
    rows = []
    for entry in entries:
        tournament = entry.tournament
        if not may_see(tournament.pk, viewer, _invited(request)):
            continue
        place = None
        if tournament.status == Tournament.Status.FINISHED:
            place = next((s.rank for s in standings.compute(tournament) if s.entry == entry.pk), None)
        rows.append({"tournament": tournament, "entry": entry, "place": place})
    return render(request, "tournaments/player.html", {"player": player, "rows": rows})
