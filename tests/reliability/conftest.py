import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Players are created by the dozen here: the cheapest hasher (these tests are not about hashing)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
