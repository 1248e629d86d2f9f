"""The live table's templates (templates/tables/live/*.jinja), rendered with Jinja2.

Every move renders each connected seat its table, so these templates are the hot path of the site: Jinja2
compiles a template to Python code and renders the same HTML several times faster than Django's engine
(bench/load.py measures it). The pages around the table stay Django templates; the table page embeds these
same pieces (tables.rendering.render_parts), so the first page and every push come from one source.
"""

from functools import cache, lru_cache

import jinja2
from django.conf import settings
from django.template import defaultfilters
from django.urls import reverse
from markupsafe import Markup

PARTS = ("status", "opponents", "centre", "hand", "actions", "scores", "round_end")


def url(name: str, *args) -> str:
    return reverse(name, args=args)


class LiveEnvironment(jinja2.Environment):
    def getattr(self, obj, attribute):
        """`card.name` on a dict looks the key up first, as Django templates do. (Jinja2 tries the attribute
        first: an exception raised and caught for every lookup on the presenters' dicts.)"""
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@cache
def environment() -> jinja2.Environment:
    env = LiveEnvironment(
        loader=jinja2.FileSystemLoader(settings.BASE_DIR / "templates"),
        autoescape=True,
        undefined=jinja2.ChainableUndefined,  # a missing key reads as empty, as in Django templates
        auto_reload=settings.DEBUG,
        keep_trailing_newline=False,
    )
    env.filters["pluralize"] = defaultfilters.pluralize
    env.globals["url"] = url
    env.globals["card_face"] = card_face
    env.globals["card_shown"] = card_shown
    env.globals["hand_card"] = hand_card
    return env


# A push draws the same cards seat after seat and move after move: each card macro of
# templates/tables/live/cards.jinja runs once per distinct card (its dict, presenters.card_ctx, and its
# arguments) and the HTML is reused. Jinja2 macro calls were the largest single cost of rendering a push.
CARD_CACHE_SIZE = 8192


def _macro(name: str):
    return getattr(environment().get_template("tables/live/cards.jinja").module, name)


@lru_cache(maxsize=CARD_CACHE_SIZE)
def _cached_macro(name: str, items: tuple, args: tuple) -> Markup:
    return _macro(name)(dict(items), *args)


def _card_macro(name: str, card: dict, *args) -> Markup:
    if environment().auto_reload:  # DEBUG: templates reload when edited, so their cards must too
        return _macro(name)(card, *args)
    try:
        return _cached_macro(name, tuple(card.items()), args)
    except TypeError:  # a value that cannot be a key (a list): drawn each time
        return _macro(name)(card, *args)


def card_face(card: dict, badge: bool = False) -> Markup:
    return _card_macro("face", card, badge)


def card_shown(card: dict, size: str | None = None, badge: bool = False, extra: str | None = None) -> Markup:
    return _card_macro("shown", card, size, badge, extra)


def hand_card(card: dict, tm: bool = False, discardable: bool = False) -> Markup:
    return _card_macro("hand_card", card, bool(tm), bool(discardable))


def render(name: str, context: dict) -> str:
    return environment().get_template(name).render(context)


def render_part(part: str, context: dict) -> Markup:
    return Markup(render(f"tables/live/{part}.jinja", context))


def render_push(context: dict) -> str:
    """One seat's push: every piece (PARTS) in order, each a single root element with a stable id that the htmx
    ws extension swaps out-of-band. Rendered on one shared context (no copy of it per piece, as an include
    would make: a push is rendered for every seat on every move)."""
    env = environment()
    shared = {**env.globals, **context}
    pieces = []
    for part in PARTS:
        template = env.get_template(f"tables/live/{part}.jinja")
        pieces.append(env.concat(template.root_render_func(template.new_context(shared, shared=True))))
    return "\n".join(pieces)
