"""The live table's templates (templates/tables/live/*.jinja), rendered with Jinja2.

Every move renders each connected seat its table, so these templates are the hot path of the site: Jinja2
compiles a template to Python code and renders the same HTML several times faster than Django's engine
(bench/load.py measures it). The pages around the table stay Django templates; the table page embeds these
same pieces (tables.rendering.render_parts), so the first page and every push come from one source.
"""

from functools import cache

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
    return env


def render(name: str, context: dict) -> str:
    return environment().get_template(name).render(context)


def render_part(part: str, context: dict) -> Markup:
    return Markup(render(f"tables/live/{part}.jinja", context))
