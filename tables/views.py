import json
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.http.request import RawPostDataException
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from engine import games as engines
from engine.base import team_index
from engine.bots import strength
from tables import commands, families, live, quick_start, rendering, replays, services, spectators
from tables.errors import TableError
from tables.forms import TableCreateForm, playable_games
from tables.models import Game, RulesPage, Table
from tables.presenters.frame import seat_names
from tables.rendering import table_context


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
        .select_related("game", "host")
        .prefetch_related("seats__user")
        .order_by("-created")[:50]
    )


def playing_tables():
    """Public tables being played: the lobby's « Regarder »."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, private=False)
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
        if table.status in spectators.WATCHABLE:
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
    context = table_context(table, seats, me)
    context["game"] = table.game
    context["invite_url"] = request.build_absolute_uri(reverse("tables:invite", args=[table.invite_token]))
    context["is_host"] = table.host_id == request.user.pk
    context["free_seats"] = table.seats_count - len(seats)
    context["partner_teams"] = partner_teams(table, seats)
    context["quick_wait_s"] = int(settings.QUICK_START_WAIT_SECONDS)
    context["live"] = rendering.render_parts(context, request)
    return render(request, "tables/table.html", context)


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
    """« Revoir »: the table's finished rounds (tables.replays)."""
    table = _replayable(request, table_id)
    rounds = [{"number": r.number, "moves": len(r.steps) - 1} for r in replays.rounds(table)]
    seated = table.seats.filter(user_id=request.user.pk).exists()
    return render(request, "tables/replays.html", {"table": table, "game": table.game, "rounds": rounds,
                                                   "match_over": replays.match_over(table), "seated": seated})


REPLAY_PARTS = ("status", "opponents", "centre", "scores", "round_end", "move_log")


@login_required
def table_replay(request, table_id: int, number: int):
    """One finished round, step by step (?etape=N): the public view after each move, the hands at the end
    once the match is over. Buttons and arrow keys (static/js/replay.js) fetch the steps with htmx."""
    table = _replayable(request, table_id)
    rnd = replays.finished_round(table, number)
    if rnd is None:
        raise Http404("Cette manche n'existe pas ou n'est pas encore terminée.")
    last = len(rnd.steps) - 1
    try:
        index = min(max(int(request.GET.get("etape", 0)), 0), last)
    except (TypeError, ValueError, OverflowError):
        index = 0
    seats = list(table.seats.select_related("user"))
    # A player of the match sees it from his side (« Nous »), through the public view all the same.
    viewer = next((s.position for s in seats if s.user_id == request.user.pk), None)
    context = table_context(replays.step_table(table, rnd, index), seats, None, viewer=viewer)
    match_over = replays.match_over(table)
    names = {s["position"]: s["name"] for s in context["seats"]}
    context.update({
        "game": table.game, "real_table": table, "round": rnd, "index": index, "last": last,
        "match_over": match_over, "replaying": True,
        "hands": replays.hands_at(table, rnd.steps[index].state, names) if match_over and index == last else [],
        "deal_line": replays.deal_line(table, rnd, names) if index == 0 else "",
        "seated": viewer is not None,
    })
    parts = {**context, "csrf_input": ""}
    context["live"] = {part: live.render_part(part, parts) for part in REPLAY_PARTS}
    if request.htmx:
        return render(request, "tables/replay.html#replay_step", context)
    return render(request, "tables/replay.html", context)


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
