"""Login limits (issue 30 § 1; django-axes, accounts/lockout.py): per username and per client address, on the
site's login, the admin's and the password change; a locked-out attempt checks no password and gets the same
bytes whatever was typed; an admin sees and lifts a lock-out."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

RIGHT = "Tr3s-secret!"
LOGIN = reverse("accounts:login")
ADMIN_LOGIN = "/admin/login/"


def client_at(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def fail(client: Client, username: str, times: int, path: str = LOGIN) -> list[int]:
    return [client.post(path, {"username": username, "password": f"faux-{n}"}).status_code for n in range(times)]


def answer(response) -> tuple:
    """What a client learns from a response: status, headers (the Date and cookies' expiry aside), body."""
    headers = sorted((k, v) for k, v in response.headers.items() if k.lower() not in {"date", "expires"})
    return response.status_code, headers, sorted(response.cookies.keys()), response.content


def test_a_locked_out_login_answers_the_same_bytes_for_the_right_and_a_wrong_password(make_player, settings):
    make_player("victime")
    attacker = client_at("203.0.113.7")
    assert fail(attacker, "victime", settings.AXES_FAILURE_LIMIT) == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    wrong = attacker.post(LOGIN, {"username": "victime", "password": "encore-faux"})
    right = attacker.post(LOGIN, {"username": "victime", "password": RIGHT})
    assert wrong.status_code == 429 and "Trop de tentatives" in wrong.content.decode()
    assert answer(right) == answer(wrong)
    assert "_auth_user_id" not in attacker.session
    assert "incorrect" not in right.content.decode() and "csrfmiddlewaretoken" not in right.content.decode()


def test_a_locked_out_login_checks_no_password(make_player, settings, monkeypatch):
    from django.contrib.auth.hashers import MD5PasswordHasher, PBKDF2PasswordHasher

    make_player("victime")
    checked = []
    for hasher in (MD5PasswordHasher, PBKDF2PasswordHasher):
        original = hasher.verify
        monkeypatch.setattr(hasher, "verify", lambda self, *a, _o=original: checked.append(1) or _o(self, *a))
    attacker = client_at("203.0.113.8")
    fail(attacker, "victime", settings.AXES_FAILURE_LIMIT)
    assert len(checked) == settings.AXES_FAILURE_LIMIT  # each failure before the lock-out was a real check
    checked.clear()
    attacker.post(LOGIN, {"username": "victime", "password": RIGHT})
    attacker.post(ADMIN_LOGIN, {"username": "victime", "password": RIGHT})
    assert checked == []


def test_the_limit_is_per_address_across_usernames(make_player, settings):
    for name in ("un", "deux"):
        make_player(name)
    attacker = client_at("203.0.113.9")
    half = settings.AXES_FAILURE_LIMIT // 2
    fail(attacker, "un", half)
    fail(attacker, "deux", settings.AXES_FAILURE_LIMIT - half)
    assert attacker.post(LOGIN, {"username": "un", "password": RIGHT}).status_code == 429
    # Another address is not locked out by that one, for a username it did not try.
    make_player("trois")
    elsewhere = client_at("198.51.100.1")
    response = elsewhere.post(LOGIN, {"username": "trois", "password": RIGHT})
    assert response.status_code == 302 and "_auth_user_id" in elsewhere.session


def test_the_limit_is_per_username_across_addresses(make_player, settings):
    make_player("victime")
    for n in range(settings.AXES_FAILURE_LIMIT):
        fail(client_at(f"203.0.113.{100 + n}"), "victime", 1)
    owner = client_at("198.51.100.2")
    assert owner.post(LOGIN, {"username": "victime", "password": RIGHT}).status_code == 429
    assert "_auth_user_id" not in owner.session


def test_forged_forwarding_headers_do_not_change_the_address_counted(make_player, settings):
    make_player("victime")
    attacker = client_at("203.0.113.20")
    for n in range(settings.AXES_FAILURE_LIMIT):
        attacker.post(LOGIN, {"username": f"inconnu{n}", "password": "x"}, HTTP_X_FORWARDED_FOR=f"6.6.6.{n}",
                      HTTP_X_REAL_IP=f"7.7.7.{n}")
    assert attacker.post(LOGIN, {"username": "victime", "password": RIGHT},
                         HTTP_X_FORWARDED_FOR="6.6.6.200").status_code == 429


def test_the_admin_login_is_limited_too(make_player, settings):
    admin = make_player("patron")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    attacker = client_at("203.0.113.30")
    statuses = fail(attacker, "patron", settings.AXES_FAILURE_LIMIT + 2, path=ADMIN_LOGIN)
    assert statuses[-1] == 429
    wrong = attacker.post(ADMIN_LOGIN, {"username": "patron", "password": "faux"})
    right = attacker.post(ADMIN_LOGIN, {"username": "patron", "password": RIGHT})
    assert answer(right)[0::3] == answer(wrong)[0::3]  # status and body
    assert "_auth_user_id" not in attacker.session


def test_the_password_change_is_limited_and_then_checks_nothing(make_player, settings):
    user = make_player("distrait")
    thief = client_at("203.0.113.40")
    thief.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    path = reverse("accounts:password_change")
    statuses = []
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = thief.post(path, {"old_password": f"faux-{n}", "new_password1": "Nouveau-mdp-42",
                                     "new_password2": "Nouveau-mdp-42"})
        statuses.append(response.status_code)
        if n == 0:
            assert "Ton mot de passe actuel est incorrect." in response.content.decode()
    assert statuses[-1] == 429
    right = thief.post(path, {"old_password": RIGHT, "new_password1": "Nouveau-mdp-42",
                              "new_password2": "Nouveau-mdp-42"})
    wrong = thief.post(path, {"old_password": "faux", "new_password1": "Nouveau-mdp-42",
                              "new_password2": "Nouveau-mdp-42"})
    assert answer(right) == answer(wrong) and right.status_code == 429
    user.refresh_from_db()
    assert user.check_password(RIGHT)
    # The stored attempts keep no password typed.
    stored = "".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "faux" not in stored and "Nouveau-mdp-42" not in stored


def test_an_admin_sees_and_lifts_a_lock_out(make_player, settings):
    make_player("victime")
    boss = make_player("patron")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    attacker = client_at("203.0.113.50")
    fail(attacker, "victime", settings.AXES_FAILURE_LIMIT)
    admin = Client()
    admin.force_login(boss, backend="accounts.backends.HumanOnlyBackend")
    listing = admin.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200 and "203.0.113.50" in listing.content.decode()
    attempt = AccessAttempt.objects.get(username="victime")
    admin.post(reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"})
    assert not AccessAttempt.objects.exists()
    response = attacker.post(LOGIN, {"username": "victime", "password": RIGHT})
    assert response.status_code == 302 and "_auth_user_id" in attacker.session


def test_a_lock_out_ends_after_its_cool_off(make_player, settings):
    from datetime import timedelta

    make_player("victime")
    attacker = client_at("203.0.113.60")
    fail(attacker, "victime", settings.AXES_FAILURE_LIMIT)
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time
                                 - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    response = attacker.post(LOGIN, {"username": "victime", "password": RIGHT})
    assert response.status_code == 302 and "_auth_user_id" in attacker.session
