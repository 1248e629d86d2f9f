"""French plurals in every template: 0 and 1 take the singular (« 0 carte », « 1 point »), 2 and more the plural."""

import pytest
from django.template import Context, Template

from rummy_site.french import pluralize
from tables import live


@pytest.mark.parametrize(("count", "word"), [
    (0, "0 carte"), (1, "1 carte"), (2, "2 cartes"), (-1, "-1 carte"), (-355, "-355 cartes"), (1.5, "1.5 carte"),
])
def test_the_french_rule(count, word):
    assert f"{count} carte{pluralize(count)}" == word


def test_singular_and_plural_suffixes_and_odd_values():
    assert pluralize(1, "al,aux") == "al" and pluralize(3, "al,aux") == "aux"
    assert pluralize(None) == "" and pluralize("abc") == "s" and pluralize([1]) == ""


def test_the_django_pages_and_the_live_table_use_it():
    assert Template("{{ n }} jeton{{ n|pluralize }}").render(Context({"n": 0})) == "0 jeton"
    assert live.environment().from_string("{{ n }} tuile{{ n|pluralize }}").render(n=0) == "0 tuile"
    assert live.environment().from_string("{{ n }} tuile{{ n|pluralize }}").render(n=2) == "2 tuiles"
