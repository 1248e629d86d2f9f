from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from accounts import lockout
from accounts.forms import LoginForm, PasswordChangeCheckedForm, SignupForm
from accounts.models import Counter, CounterEntry
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
         "jokers": counter_balance(user, Counter.Kind.JOKERS), "counter_entries": recent},
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
