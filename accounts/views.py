from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts import friends, lockout, mail, notifications
from accounts.forms import LoginForm, MailPreferencesForm, PasswordChangeCheckedForm, SignupForm
from accounts.models import Counter, CounterEntry, User
from accounts.services import counter_balance, user_balance, user_create
from accounts.throttle import throttled


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if throttled(request, "signup", limit=10, window=3600):
            form.add_error(None, "Trop d'inscriptions depuis cette adresse. Réessaie plus tard.")
        elif form.is_valid():
            user = user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
            login(request, user, backend="accounts.backends.HumanOnlyBackend")
            messages.success(request, f"Bienvenue, {user.username} ! Tes jetons de départ t'attendent.")
            target = request.POST.get("next", "")
            if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
                return redirect(target)
            return redirect("home")
    return render(request, "accounts/signup.html", {"form": form, "next": request.GET.get("next", "")})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        if lockout.locked_out(request, request.POST.get("username")):
            return lockout.lockout_response(request)  # before the form: no password is checked
        return super().post(request, *args, **kwargs)


class LogoutView(auth_views.LogoutView):
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")
    form_class = PasswordChangeCheckedForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def post(self, request, *args, **kwargs):
        if lockout.locked_out(request, request.user.get_username()):
            return lockout.lockout_response(request)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        messages.success(self.request, "Ton mot de passe a été modifié.")
        return super().form_valid(form)


@login_required
def profile(request):
    user = request.user
    recent = CounterEntry.objects.filter(counter__user=user).select_related("counter")[:10]
    return render(
        request,
        "accounts/profile.html",
        {"profile_user": user, "balance": user_balance(user), "points": counter_balance(user, Counter.Kind.POINTS),
         "jokers": counter_balance(user, Counter.Kind.JOKERS), "counter_entries": recent,
         "mail_form": MailPreferencesForm(instance=user)},
    )


@login_required
@require_POST
def turn_sound(request):
    """The table page's « Son à mon tour » switch (static/js/turn_alert.js): on ("1") or off, kept on the
    account, so the player's other devices and tables follow it."""
    on = request.POST.get("on") == "1"
    if request.user.turn_sound != on:
        request.user.turn_sound = on
        request.user.save(update_fields=["turn_sound"])
    return JsonResponse({"turn_sound": on})


@login_required
def notifications_page(request):
    """« Notifications »: the latest, unread first in time order; opening one marks it read."""
    notes = list(request.user.notifications.all()[:notifications.BELL_SHOWN * 2])
    return render(request, "accounts/notifications.html", {"notes": notes,
                                                           "unread": notifications.unread_count(request.user.pk)})


@login_required
def notification_open(request, note_id: int):
    """A notification's link: marked read, then its page (a path of this site only)."""
    note = request.user.notifications.filter(pk=note_id).first()
    if note is None:
        messages.error(request, "Cette notification n'existe pas.")
        return redirect("accounts:notifications")
    if note.read_at is None:
        request.user.notifications.filter(pk=note.pk).update(read_at=timezone.now())
        notifications.bell_changed(request.user.pk)
    if not url_has_allowed_host_and_scheme(note.url, allowed_hosts=set()) or not note.url.startswith("/"):
        return redirect("accounts:notifications")
    return redirect(note.url)


@login_required
@require_POST
def notifications_read(request):
    """« Tout marquer comme lu »."""
    if request.user.notifications.filter(read_at__isnull=True).update(read_at=timezone.now()):
        notifications.bell_changed(request.user.pk)
    return redirect("accounts:notifications")


@login_required
@require_POST
def mail_preferences(request):
    """The profile's « E-mails » switches."""
    form = MailPreferencesForm(request.POST, instance=request.user)
    if form.is_valid():
        form.save()
        messages.success(request, "Tes choix d'e-mails sont enregistrés.")
    else:
        messages.error(request, "Ces choix d'e-mails ne sont pas valables.")
    return redirect(reverse("accounts:profile") + "#emails")


@csrf_exempt  # the signed token is the proof; a mail client posts here without a session (RFC 8058)
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """An e-mail's one-click link: that kind of e-mail is switched off at once, with a way to switch it back."""
    found = mail.read_unsubscribe_token(token)
    user = User.objects.filter(pk=found[0], is_active=True).first() if found else None
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    switch = found[1]
    resubscribe = request.method == "POST" and request.POST.get("again") == "1"
    if getattr(user, switch) != resubscribe:
        setattr(user, switch, resubscribe)
        user.save(update_fields=[switch])
    return render(request, "accounts/unsubscribe.html",
                  {"subscribed": resubscribe, "label": mail.SWITCH_LABELS[switch], "token": token})


# --- friends and blocks (accounts.friends); the « Mes amis » page itself shows tables too: tables.views -------

def _back(request):
    """Where a friend form goes back to: its page (`next`, a path of this site), else « Mes amis »."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("friends")


def _friend_action(service):
    @login_required
    def view(request):
        if request.method != "POST":  # e.g. the login page's `next` after a session expired
            return redirect("friends")
        try:
            messages.success(request, service(user=request.user, pseudo=request.POST.get("pseudo", "").strip()))
        except friends.FriendError as error:
            messages.error(request, error.message)
        return _back(request)

    view.__name__ = view.__qualname__ = service.__name__
    view.__doc__ = service.__doc__
    return view


friend_request = _friend_action(friends.friend_request)
friend_accept = _friend_action(friends.friend_accept)
friend_refuse = _friend_action(friends.friend_refuse)
friend_cancel = _friend_action(friends.friend_cancel)
friend_remove = _friend_action(friends.friend_remove)
player_block = _friend_action(friends.player_block)
player_unblock = _friend_action(friends.player_unblock)
