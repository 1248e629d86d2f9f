import json
import logging
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.http.request import RawPostDataException
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from accounts import friends, notifications
from accounts.friends import FriendError
from engine import games as engines
from engine.base import team_index
from engine.bots import strength
from tables import (
    chat,
    commands,
    exports,
    families,
    invitations,
    live,
    match_file,
    practice,
    quick_start,
    reads,
    rematch,
    rendering,
    replays,
    services,
    spectators,
)
from tables.errors import TableError
from tables.forms import MatchImportForm, TableCreateForm, playable_games
from tables.models import Game, ImportedMatch, RulesPage, Table
from tables.my_games import my_games as my_games_of
from tables.presenters.frame import seat_names
from tables.rendering import table_context

log = logging.getLogger(__name__)


def post_only(view):
    """A form's target, POST only. Any other method goes back to the page the form is on (the table's, or the
    lobby): after a session expired, the login page's `next` sends the player here with a GET."""

    @wraps(view)
    def answer(request, *args, **kwargs):
        if request.method != "POST":
            table_id = kwargs.get("table_id")
            return redirect("tables:table", table_id) if table_id is not None else redirect("tables:lobby")
        return view(request, *args, **kwargs)

    return answer


def home(request):
    games = Game.objects.filter(published=True)
    return render(request, "tables/home.html", {"games": games})


def rules_index(request):
    games = Game.objects.filter(published=True).select_related("rules")
    return render(request, "tables/rules_index.html", {"games": games})


def rules_page(request, slug: str):
    page = get_object_or_404(RulesPage.objects.select_related("game"), game__slug=slug, game__published=True)
    reference = strength.reference_fr(slug)
    return render(request, "tables/rules_page.html", {
        "page": page, "game": page.game, "bot_strength": strength.levels_fr(slug),
        "bot_strength_date": strength.date_fr(slug), "bot_reference": reference,
        "bot_reference_ceiling": any(row["ceiling"] for row in reference), "ranked": slug in families.live_slugs()})


def open_tables():
    return (
        Table.objects.filter(status=Table.Status.WAITING, private=False)
        .exclude(table_type=Table.Type.PRACTICE)  # private anyway: a practice is its player's alone
        .select_related("game", "host")
        .prefetch_related("seats__user")
        .order_by("-created")[:50]
    )


def playing_tables():
    """Public tables being played: the lobby's « Regarder »."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, private=False)
        .exclude(table_type=Table.Type.PRACTICE)
        .select_related("game", "host")
        .prefetch_related("seats__user")
        .order_by("-started_at")[:30]
    )


def partner_teams(table: Table, seats) -> list[list[str]]:
    """A team game's two teams as names (partners face to face: places 1 and 3, 2 and 4); [] otherwise."""
    if not engines.get(table.game.slug).info.teams:
        return []
    names = seat_names(seats)
    teams = [[], []]
    for position in range(table.seats_count):
        teams[team_index(position)].append(names.get(position, "Place libre"))
    return teams


def _in_order(names: dict[int, str]) -> list[str]:
    return [names[position] for position in sorted(names)]


def lobby_rows(tables) -> list[dict]:
    return [{"table": t, "teams": partner_teams(t, t.seats.all()), "names": _in_order(seat_names(t.seats.all()))}
            for t in tables]


@login_required
def my_games(request):
    """« Mes parties »: my tables not over, the ones where it is my move first (tables.my_games)."""
    return render(request, "tables/my_games.html", {"games": my_games_of(request.user)})


def lobby(request):
    slug = request.GET.get("jeu")
    game = playable_games().filter(slug=slug).first() if slug else None
    form = TableCreateForm(game=game) if request.user.is_authenticated else None
    mine, finished = [], []
    if request.user.is_authenticated:
        # A table I quit is not mine any more: its « Reprendre » would open a seat that plays without me.
        mine = (Table.objects.filter(seats__user=request.user, seats__left=False,
                                     status__in=[Table.Status.WAITING, Table.Status.PLAYING])
                .select_related("game").distinct()[:20])
        finished = (Table.objects.filter(seats__user=request.user, status=Table.Status.FINISHED)
                    .select_related("game").distinct().order_by("-finished_at")[:10])
    tables = list(open_tables())
    context = {"tables": tables, "rows": lobby_rows(tables), "form": form, "my_tables": mine,
               "watch_rows": lobby_rows(list(playing_tables())), "finished_tables": finished,
               "requested": slug, "requested_unplayable": bool(slug and game is None),
               "quick_games": playable_games(), "quick_wait_s": int(settings.QUICK_START_WAIT_SECONDS)}
    if request.htmx and request.GET.get("fragment") == "list":
        return render(request, "tables/lobby.html#table_list", context)
    if request.htmx and request.GET.get("fragment") == "form":
        return render(request, "tables/lobby.html#create_form", context)
    return render(request, "tables/lobby.html", context)


@login_required
@post_only
def table_new(request):
    form = TableCreateForm(request.POST)
    if form.is_valid():
        try:
            table = services.table_create(
                host=request.user, game=form.cleaned_data["game"], seats_count=form.cleaned_data["seats_count"],
                bot_levels=form.bot_levels(), options=form.engine_options(), stake=form.cleaned_data["stake"],
                turn_timer_s=form.cleaned_data["turn_timer_s"], private=form.cleaned_data["private"],
                table_type=form.cleaned_data["table_type"], rated=form.cleaned_data.get("rated", False),
                spectators_chat=form.cleaned_data.get("spectators_chat", False),
                coach_limit=form.cleaned_data["coach_limit"],
            )
        except TableError as error:
            form.add_error(None, error.message)
        else:
            if len(form.bot_levels()) == table.seats_count - 1:
                try:
                    services.table_start(table=table, user=request.user)
                except TableError as error:
                    messages.error(request, error.message)
            return redirect(table)
    tables = list(open_tables())
    context = {"tables": tables, "rows": lobby_rows(tables), "form": form, "my_tables": [],
               "quick_games": playable_games(), "quick_wait_s": int(settings.QUICK_START_WAIT_SECONDS)}
    return render(request, "tables/lobby.html", context, status=400)


@login_required
@post_only
def table_quick(request):
    """« Partie rapide »: a seat at a waiting quick-start table of the game (`jeu`), or a new one."""
    game = playable_games().filter(slug=request.POST.get("jeu", "")).first()
    if game is None:
        messages.error(request, "Ce jeu n'est pas encore jouable en ligne.")
        return redirect("tables:lobby")
    try:
        table = quick_start.quick_start_join(user=request.user, game=game)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("tables:lobby")
    return redirect(table)


def table_invite(request, token: str):
    table = get_object_or_404(Table, invite_token=token)
    if not request.user.is_authenticated:
        messages.info(request, "Connecte-toi ou crée un compte pour rejoindre la table de ton ami.")
        return redirect(f"{reverse('accounts:login')}?next={request.path}")
    try:
        services.seat_join(table=table, user=request.user)
    except TableError as error:
        if error.code != services.BLOCKED and table.status in spectators.WATCHABLE:
            # The friend's match has started (or ended): the link lets him watch it instead.
            spectators.grant(request.session, table.pk)
            messages.info(request, "La partie a déjà commencé : tu la regardes en spectateur.")
            return redirect("tables:watch", table.pk)
        messages.error(request, error.message)
        return redirect("tables:lobby")
    return redirect(table)


@login_required
@post_only
def table_join(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id, private=False)
    return table_invite(request, table.invite_token)


@login_required
def table_page(request, table_id: int):
    table = get_object_or_404(Table.objects.select_related("game", "host"), pk=table_id)
    seats = list(table.seats.select_related("user"))
    # A player who left the match (« Quitter ») holds no place: he sees what a spectator sees.
    me = next((s for s in seats if s.user_id == request.user.pk and not s.left), None)
    if me is None:
        if spectators.watch_refusal(table, request.session, request.user.pk) is None:
            return redirect("tables:watch", table.pk)
        messages.error(request, "Tu n'es pas assis à cette table.")
        return redirect("tables:lobby")
    notifications.mark_read(request.user.pk, request.path)  # « À toi de jouer » here: seen
    context = table_context(table, seats, me)
    context["game"] = table.game
    context["invite_url"] = request.build_absolute_uri(reverse("tables:invite", args=[table.invite_token]))
    context["is_host"] = table.host_id == request.user.pk
    context["free_seats"] = table.seats_count - len(seats)
    context["partner_teams"] = partner_teams(table, seats)
    context["quick_wait_s"] = int(settings.QUICK_START_WAIT_SECONDS)
    if table.status == Table.Status.WAITING and context["free_seats"] > 0:
        context["invite_friends"] = _friends_to_invite(request.user, seats)
    _chat_context(context, table, request.user)
    context["live"] = rendering.render_parts(context, request)
    return render(request, "tables/table.html", context)


def _friends_to_invite(user, seats) -> list[dict]:
    """A waiting table's « Inviter » list: my friends not at it, online first."""
    seated = {s.user_id for s in seats}
    now = timezone.now()
    rows = [{"user": f, "online": friends.is_online(f, now)} for f in friends.friends_of(user.pk) if f.pk not in seated]
    return sorted(rows, key=lambda r: not r["online"])


def _chat_context(context: dict, table: Table, user) -> None:
    """The chat as this reader sees it (without the writers he hides: tables.chat), and the people of the table
    he may hide, with a link to each one's page."""
    hidden = chat.hidden_authors(table.pk, user.pk)
    context["chat"] = lambda: chat.visible_lines(reads.recent_chat(table.pk), hidden)
    context["chat_people"] = chat.chat_people(table, user.pk)


@login_required
def table_watch(request, table_id: int):
    """The spectator's page: the engine's public view only, pushed live like a seat's (tables.spectators)."""
    table = get_object_or_404(Table.objects.select_related("game", "host"), pk=table_id)
    seats = list(table.seats.select_related("user"))
    if any(s.user_id == request.user.pk and not s.left for s in seats):
        return redirect(table)
    refusal = spectators.watch_refusal(table, request.session, request.user.pk)
    if refusal is not None:
        messages.error(request, refusal)
        return redirect("tables:lobby")
    context = table_context(table, seats, None)
    context["game"] = table.game
    context["spectating"] = True
    context["partner_teams"] = partner_teams(table, seats)
    _chat_context(context, table, request.user)
    context["live"] = rendering.render_parts(context, request)
    return render(request, "tables/table.html", context)


def _replayable(request, table_id: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("game", "host"), pk=table_id)
    refusal = replays.replay_refusal(table, request.user, request.session)
    if refusal is not None:
        raise Http404(refusal)
    return table


@login_required
def table_replays(request, table_id: int):
    """« Revoir »: the table's finished rounds (tables.replays); once the match is over, its file to download."""
    table = _replayable(request, table_id)
    rounds = [{"number": r.number, "moves": len(r.steps) - 1,
               "url": reverse("tables:replay", args=[table.pk, r.number])} for r in replays.rounds(table)]
    seated = table.seats.filter(user_id=request.user.pk).exists()
    return render(request, "tables/replays.html", {
        "table": table, "game": table.game, "rounds": rounds, "match_over": replays.match_over(table),
        "seated": seated, "source": f"table n° {table.pk}",
        "downloads": replays.match_over(table) and table.seed and exports.export_refusal(table) is None,
        "no_download": exports.export_refusal(table) if replays.match_over(table) else None,
    })


REPLAY_PARTS = ("status", "opponents", "centre", "scores", "round_end", "move_log")


@login_required
def table_replay(request, table_id: int, number: int):
    """One finished round, step by step (?etape=N): the public view after each move, the hands at the end
    once the match is over. Buttons and arrow keys (static/js/replay.js) fetch the steps with htmx."""
    table = _replayable(request, table_id)
    rnd = replays.finished_round(table, number)
    if rnd is None:
        raise Http404("Cette manche n'existe pas ou n'est pas encore terminée.")
    seats = list(table.seats.select_related("user"))
    # A player of the match sees it from his side (« Nous »), through the public view all the same.
    viewer = next((s.position for s in seats if s.user_id == request.user.pk), None)
    return _replay_step(request, table, seats, rnd, viewer=viewer, match_over=replays.match_over(table), extra={
        "real_table": table, "source": f"table n° {table.pk}", "rounds_url": reverse("tables:replays", args=[table.pk]),
        "practice_refusal": practice.origin_refusal(table, request.user), "practice_levels": practice.LEVELS,
        "practice_level": practice.DEFAULT_LEVEL, "practice_start": practice.start_line(table),
    })


def _replay_step(request, table: Table, seats: list, rnd: replays.Round, *, viewer: int | None, match_over: bool,
                 extra: dict):
    """A replayed round's step page (a table's, or an imported match's: `table` then stands in, never saved)."""
    last = len(rnd.steps) - 1
    try:
        index = min(max(int(request.GET.get("etape", 0)), 0), last)
    except (TypeError, ValueError, OverflowError):
        index = 0
    context = table_context(replays.step_table(table, rnd, index), seats, None, viewer=viewer)
    names = {s["position"]: s["name"] for s in context["seats"]}
    # « Revoir » that explains: the comments stored after the match (tables.annotations), never computed here.
    notes = replays.comments(table, rnd) if table.pk else replays.Comments()  # an imported match has none
    step = rnd.steps[index]
    if extra.get("practice_refusal") is None and "practice_refusal" in extra:
        # « Rejouer à partir d'ici » (tables.practice): offered where someone is to act.
        extra = {**extra, "practice_step_refusal": practice.step_refusal(table, step)}
    human = step.seat is not None and any(s.position == step.seat and not s.is_bot for s in seats)
    worst = [{**w, "name": names.get(w["seat"], "")} for w in notes.worst_steps(rnd)]
    context.update({
        "game": table.game, "round": rnd, "index": index, "last": last,
        "match_over": match_over, "replaying": True,
        "hands": replays.hands_at(table, rnd.steps[index].state, names) if match_over and index == last else [],
        "deal_line": ((extra.get("practice_start") if step.seq == 1 else "") or replays.deal_line(table, rnd, names))
        if index == 0 else "",
        "seated": viewer is not None,
        "comment": notes.by_seq.get(step.seq) if index > 0 else None,
        "comment_pending": notes.pending and human and index > 0, "worst_steps": worst,
        **extra,
    })
    parts = {**context, "csrf_input": ""}
    context["live"] = {part: live.render_part(part, parts) for part in REPLAY_PARTS}
    if request.htmx:
        return render(request, "tables/replay.html#replay_step", context)
    return render(request, "tables/replay.html", context)


@login_required
def table_export(request, table_id: int, kind: str):
    """« Télécharger la partie »: a finished match's file (tables.exports), for whoever may replay it."""
    table = _replayable(request, table_id)
    if not replays.match_over(table) or not table.seed:
        raise Http404("La partie n'est pas terminée : elle se télécharge une fois finie.")
    if (refusal := exports.export_refusal(table)) is not None:
        messages.error(request, refusal)
        return redirect("tables:replays", table.pk)
    content, content_type, filename = exports.export_file(table, kind)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@post_only
def table_practice(request, table_id: int, number: int):
    """« Rejouer à partir d'ici »: a practice table from the replay's step `etape` of round `number` (tables.practice),
    the player at his own place against robots of `niveau`. Refused: back to that step with the French reason."""
    index, level = _step_number(request.POST.get("etape")), _small_int(request.POST.get("niveau"))
    back = reverse("tables:replay", args=[table_id, number])
    try:
        if index is None:
            raise TableError(practice.NO_SUCH_STEP, "step")
        table = practice.practice_from_replay(table_id=table_id, user=request.user, round_number=number, index=index,
                                              level=practice.DEFAULT_LEVEL if level is None else level)
    except TableError as error:
        messages.error(request, error.message)
        if error.code == "practice" and not Table.objects.filter(pk=table_id, seats__user=request.user).exists():
            return redirect("tables:lobby")
        return redirect(f"{back}?etape={index}" if index is not None else back)
    messages.success(request, "Partie d'entraînement : tu reprends la partie à partir de ce coup, contre les robots.")
    return redirect(table)


# Generous room for the multipart wrapping around a file of match_file.MAX_BYTES.
IMPORT_MAX_REQUEST = match_file.MAX_BYTES + 64 * 1024


@csrf_exempt  # checked by _match_import, once the size is known: a logged-in player's body too large is not parsed
def match_import(request):
    """« Importer une partie »: upload a match file, kept and shown with « Revoir »'s pages; my imported matches."""
    if request.method == "POST" and request.user.is_authenticated:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > IMPORT_MAX_REQUEST:
            return _import_page(request, MatchImportForm(), error=match_file.TOO_BIG)
    return _match_import(request)


@csrf_protect
@login_required
def _match_import(request):
    if request.method != "POST":
        return _import_page(request, MatchImportForm())
    form = MatchImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _import_page(request, form)
    try:
        imported = exports.import_file(request.user, form.cleaned_data["file"].read(match_file.MAX_BYTES + 1))
    except match_file.FileRefused as refusal:
        form.add_error("file", refusal.message)
        return _import_page(request, form)
    messages.success(request, "Partie importée : voici ses manches.")
    return redirect(imported)


def _import_page(request, form, *, error: str = ""):
    """The import page; a refused file is told on it, answered 200 as every form of the site (a 400 would be a
    console error in the browser)."""
    mine = [{"match": m, "label": exports.imported_label(m)}
            for m in ImportedMatch.objects.filter(owner=request.user).select_related("game")]
    return render(request, "tables/import.html", {"form": form, "error": error, "imported": mine,
                                                  "max_imports": exports.MAX_IMPORTS})


def _imported(request, pk: int) -> tuple[ImportedMatch, list]:
    """The user's own imported match and its steps replayed; 404 for anyone else's."""
    imported = get_object_or_404(ImportedMatch.objects.select_related("game"), pk=pk, owner=request.user)
    try:
        steps = exports.imported_steps(imported)
    except match_file.FileRefused:
        raise Http404("Cette partie importée ne se rejoue plus avec les règles actuelles du site.") from None
    return imported, steps


def _imported_rounds(imported: ImportedMatch, steps: list, until: int | None = None) -> list[replays.Round]:
    engine = engines.get(imported.game.slug)
    return replays.rounds_from(engine, ((s.n, s.seat, s.move, s.state, s.events) for s in steps), until=until)


@login_required
def imported_replays(request, pk: int):
    """An imported match's rounds, as « Revoir » lists a table's."""
    imported, steps = _imported(request, pk)
    rounds = [{"number": r.number, "moves": len(r.steps) - 1, "url": reverse("tables:imported_round",
                                                                             args=[imported.pk, r.number])}
              for r in _imported_rounds(imported, steps)]
    table, _seats = exports.imported_table(imported)
    return render(request, "tables/replays.html", {
        "table": table, "game": imported.game, "rounds": rounds, "match_over": True, "seated": False,
        "imported": imported, "source": "partie importée", "imported_label": exports.imported_label(imported),
    })


@login_required
def imported_replay(request, pk: int, number: int):
    """One round of an imported match, step by step, drawn as a table's replay is."""
    imported, steps = _imported(request, pk)
    rnd = next((r for r in _imported_rounds(imported, steps, until=number) if r.number == number), None)
    if rnd is None:
        raise Http404("Cette manche n'existe pas.")
    table, seats = exports.imported_table(imported)
    try:
        return _replay_step(request, table, seats, rnd, viewer=None, match_over=True, extra={
            "imported": imported, "source": "partie importée",
            "rounds_url": reverse("tables:imported", args=[imported.pk]),
        })
    except Exception:  # a file made by hand that replays under the rules yet holds what no piece can draw
        log.warning("imported match %s: a step cannot be drawn", imported.pk, exc_info=True)
        raise Http404("Cette partie importée ne peut pas s'afficher : son fichier a été modifié.") from None


@login_required
@post_only
def imported_delete(request, pk: int):
    imported = get_object_or_404(ImportedMatch, pk=pk, owner=request.user)
    imported.delete()
    messages.success(request, "Partie importée supprimée.")
    return redirect("tables:import")


@login_required
@post_only
def table_start(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    try:
        services.table_start(table=table, user=request.user)
    except TableError as error:
        messages.error(request, error.message)
    return redirect(table)


@login_required
@post_only
def table_leave(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    try:
        if table.status == Table.Status.WAITING:
            services.seat_leave_waiting(table=table, user=request.user)
        else:
            services.seat_abandon(table_id=table.pk, user=request.user)
    except TableError as error:
        messages.error(request, error.message)
        return redirect(table)
    messages.info(request, "Tu as quitté la table.")
    return redirect("tables:lobby")


def _rematch_refused(request, table_id: int, error: TableError):
    """A refused rematch request: its French reason, and back to the table (the lobby for someone who did not
    play the match). Nothing was changed."""
    messages.error(request, error.message)
    if error.code == rematch.NOT_A_PLAYER:
        return redirect("tables:lobby")
    return redirect("tables:table", table_id)


@login_required
@post_only
def table_rematch(request, table_id: int):
    """« Revanche » at a finished table: the rematch is made (or joined, if another player made it first)."""
    try:
        table = rematch.rematch_offer(table_id=table_id, user=request.user)
    except TableError as error:
        return _rematch_refused(request, table_id, error)
    return redirect(table)


@login_required
@post_only
def table_rematch_accept(request, table_id: int):
    try:
        table = rematch.rematch_accept(table_id=table_id, user=request.user)
    except TableError as error:
        return _rematch_refused(request, table_id, error)
    return redirect(table)


@login_required
@post_only
def table_rematch_refuse(request, table_id: int):
    try:
        rematch.rematch_refuse(table_id=table_id, user=request.user)
    except TableError as error:
        return _rematch_refused(request, table_id, error)
    messages.info(request, "Tu as refusé la revanche.")
    return redirect("tables:table", table_id)


def _step_number(value) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if 0 <= number < 100_000 else None


def _small_int(value) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 <= number < 100 else None


@login_required
@post_only
def table_rematch_robot(request, table_id: int):
    """The rematch's host gives a free place (`place`) to a robot (`level`)."""
    position, level = _small_int(request.POST.get("place")), _small_int(request.POST.get("level"))
    try:
        if position is None:
            raise TableError("Choisis une place libre.", "position")
        if level is None:
            raise TableError("Choisis le niveau du robot : Débutant, Confirmé ou Expert.", "level")
        rematch.rematch_seat_robot(table_id=table_id, user=request.user, position=position, level=level)
    except TableError as error:
        return _rematch_refused(request, table_id, error)
    return redirect("tables:table", table_id)


@login_required
@post_only
def table_rematch_teams(request, table_id: int):
    """« Changer d'équipes » at a team game's rematch, by its host."""
    try:
        rematch.rematch_teams_change(table_id=table_id, user=request.user)
    except TableError as error:
        return _rematch_refused(request, table_id, error)
    return redirect("tables:table", table_id)


MAX_ACTION_BODY = 16 * 1024  # a move is a few dozen bytes (the websocket refuses frames over 4 KB)


def _body_size(request) -> int:
    """The size of the body as read, not as announced: a chunked request announces no length."""
    try:
        return len(request.body)
    except RawPostDataException:  # a multipart form, already parsed (the CSRF check reads the form first)
        if request.FILES:
            return MAX_ACTION_BODY + 1
        return sum(len(key) + sum(len(v) for v in values) for key, values in request.POST.lists())


@login_required
@post_only
def table_action(request, table_id: int):
    """HTTP fallback for the websocket: same frames, same service; answers with HTML partials."""
    get_object_or_404(Table, pk=table_id)
    try:
        too_long = _body_size(request) > MAX_ACTION_BODY
    except SuspiciousOperation:  # too many fields
        too_long = True
    if too_long:
        return HttpResponseBadRequest(commands.error_html("Message trop long ou illisible."))
    try:
        if request.content_type == "application/json":
            payload = json.loads(request.body or b"{}")
        else:
            payload = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
    except (ValueError, RecursionError, SuspiciousOperation):  # bad JSON, "[[[[…", too many fields
        return HttpResponseBadRequest(commands.error_html("Message illisible."))
    reply = commands.handle_frame(table_id, request.user.pk, payload, session=request.session)
    if reply is None:
        reply = rendering.render_for_user(table_id, request.user.pk) or ""
    return HttpResponse(reply)


# --- friends: « Mes amis », invitations, hiding a writer of a table's chat -------------------------------------

@login_required
def friends_page(request):
    """« Mes amis »: requests received and sent, my friends (online, at which table: « Regarder », « Rejoindre »,
    « Inviter » to one of my waiting tables), the players I blocked. The forms are accounts' (accounts.friends)."""
    return render(request, "accounts/friends.html", {
        "received": friends.requests_received(request.user.pk), "sent": friends.requests_sent(request.user.pk),
        "friends": invitations.friends_whereabouts(request.user, request.session),
        "my_tables": invitations.my_waiting_tables(request.user),
        "blocked": friends.blocked_players(request.user.pk),
    })


def _back(request, default: str):
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(default)


@login_required
def friend_invite(request):
    """« Inviter »: a friend (`pseudo`) to one of my waiting tables (`table`), from « Mes amis » or the table."""
    if request.method != "POST":
        return redirect("friends")
    try:
        messages.success(request, invitations.friend_invite(table_id=request.POST.get("table"), user=request.user,
                                                            pseudo=request.POST.get("pseudo", "").strip()))
    except (TableError, FriendError) as error:
        messages.error(request, error.message)
    return _back(request, "friends")


@login_required
@post_only
def chat_mute(request, table_id: int):
    """« Masquer sa discussion » / « Afficher sa discussion » (`hide`: 1 or 0) for one writer (`pseudo`) of this
    table's chat, for me alone; my open pages of the table draw their chat again (tables.consumers). htmx gets the
    list of the table's people back, a plain form the table's page."""
    table = get_object_or_404(Table, pk=table_id)
    seated = table.seats.filter(user=request.user).exists()
    if not seated and spectators.watch_refusal(table, request.session, request.user.pk) is not None:
        messages.error(request, "Tu n'es pas à cette table.")
        return redirect("tables:lobby")
    try:
        said, failed = chat.chat_mute(table=table, user=request.user, pseudo=request.POST.get("pseudo", "").strip(),
                                      hide=request.POST.get("hide") == "1"), False
    except TableError as error:
        said, failed = error.message, True
    if request.htmx:
        return render(request, "tables/table.html#chat_people", {
            "table": table, "chat_people": chat.chat_people(table, request.user.pk), "chat_said": said,
            "chat_failed": failed})
    (messages.error if failed else messages.success)(request, said)
    return redirect(table)
