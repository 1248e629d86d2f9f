"""The live table's templates (templates/tables/live/*.jinja), rendered with Jinja2.

Every move renders each connected seat its table, so these templates are the hot path of the site: Jinja2
compiles a template to Python code and renders the same HTML several times faster than Django's engine
(bench/load.py measures it). The pages around the table stay Django templates; the table page embeds these
same pieces (tables.rendering.render_parts), so the first page and every push come from one source.
"""

import threading
from collections import OrderedDict
from functools import cache, lru_cache

import jinja2
from django.conf import settings
from django.db.models import Model
from django.urls import get_script_prefix, reverse
from jinja2 import meta, nodes
from markupsafe import Markup

from rummy_site.french import pluralize
from tables import families

PARTS = ("status", "opponents", "centre", "hand", "actions", "scores", "round_end", "move_log", "chat_form")


def url(name: str, *args) -> str:
    return _reverse(get_script_prefix(), name, args)


@lru_cache(maxsize=4096)
def _reverse(prefix: str, name: str, args: tuple) -> str:
    """A push names the same few addresses (« Quitter », « Revoir ») for every seat and move."""
    return reverse(name, args=args)


class LiveEnvironment(jinja2.Environment):
    def make_globals(self, d):
        """A template's globals as one dict, rather than Jinja2's ChainMap over the environment's: a render's
        context copies their keys, and each {% import %} compares them, for every piece of every push (5 % of a
        render). The environment's globals are all set when it is built (`environment`), before any template
        loads, so a template sees the same names either way."""
        return {**self.globals, **(d or {})}

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
    env.filters["pluralize"] = pluralize  # French: « 0 carte », « 2 cartes »
    env.globals["url"] = url
    env.globals.update(families.template_globals())  # the families' macros (their presenters use this module)
    return env


# A push draws the same cards (or tiles) seat after seat and move after move: a family's macros (a card's face,
# a hand card…) run once per distinct argument (the presenter's dict for the card, and the flags) and the HTML
# is reused. Jinja2 macro calls were the largest single cost of rendering a push.
MACRO_CACHE_SIZE = 8192


def template(name: str) -> jinja2.Template:
    """The compiled template: Jinja2's own lookup (its loader's cache, under a lock) runs once per name, not for
    every piece of every push. Under DEBUG, looked up each time, so an edited template reloads."""
    env = environment()
    if env.auto_reload:
        return env.get_template(name)
    found = _templates.get(name)
    if found is None:
        found = _templates[name] = env.get_template(name)
    return found


_templates: dict[str, jinja2.Template] = {}


def macro(template_name: str, name: str):
    """Macro `name` of `template_name`, to call from Python."""
    return getattr(template(template_name).module, name)


@lru_cache(maxsize=MACRO_CACHE_SIZE)
def _cached_macro(template_name: str, name: str, items: tuple, args: tuple) -> Markup:
    return macro(template_name, name)(dict(items), *args)


def cached_macro(template_name: str, name: str):
    """Macro `name` of `template_name` as a function of (a dict, then plain arguments) whose HTML is drawn once per
    distinct arguments. Under DEBUG templates reload when edited, so their macros are drawn each time."""

    def call(item: dict, *args) -> Markup:
        if environment().auto_reload:
            return macro(template_name, name)(item, *args)
        try:
            return _cached_macro(template_name, name, tuple(item.items()), args)
        except TypeError:  # a value that cannot be a key (a list): drawn each time
            return macro(template_name, name)(item, *args)

    return call


def render(name: str, context: dict) -> str:
    return template(name).render(context)


def render_part(part: str, context: dict) -> Markup:
    """One piece of the table, drawn by the template its family's presenter names (context["pieces"])."""
    return Markup(render(context["pieces"][part], context))


def render_push(context: dict) -> str:
    """One seat's push: every piece (PARTS) in order, each a single root element with a stable id that the htmx
    ws extension swaps out-of-band. Rendered on one shared context (no copy of it per piece, as an include
    would make: a push is rendered for every seat on every move), and a piece whose inputs are those of the
    last time it was drawn for this seat, or for another seat in this move, is not drawn again (PieceMemo)."""
    env = environment()
    shared = {**env.globals, **context}
    me = context.get("me") or {}
    table = context.get("table")
    seat = (getattr(table, "pk", None), me.get("position"))
    templates = context["pieces"]
    pieces = []
    for part in PARTS:
        name = templates[part]
        inputs = _memo.inputs(name, context) if part in MEMO_PIECES and not env.auto_reload else None
        html = None if inputs is None else _memo.get(name, seat, inputs)
        if html is None:
            compiled = template(name)
            html = env.concat(compiled.root_render_func(compiled.new_context(shared, shared=True)))
            if inputs is not None:
                _memo.put(name, seat, inputs, html)
        pieces.append(html)
    return "\n".join(pieces)


# Pieces that often stay the same from one move to the next (my hand while the others play, the score sheet)
# or from one seat to the next (the stock and the discard pile): worth comparing their inputs.
MEMO_PIECES = ("centre", "hand", "actions", "scores", "round_end", "move_log")


class PieceMemo:
    """The last HTML drawn of each piece for each seat, with the inputs it was drawn from.

    A piece's inputs are read off its template (`template_inputs`): the context names it reads whole and the
    attributes it reads of the others (`view.hand`, `table.turn_timer_s`). Equal inputs draw equal HTML, so a
    piece is drawn again only when they change. Bounded: the least recently used seats are forgotten."""

    def __init__(self, size: int = 10000, tables: int = 2000):
        self.size = size  # seats' pieces kept (5 pieces × 4 seats × 500 tables)
        self.tables = tables  # tables whose latest pieces are kept for their other seats
        self.last: OrderedDict = OrderedDict()  # (part, table, position) -> (inputs, html)
        self.lock = threading.Lock()
        self.move: dict = {}  # (part, table) -> [(inputs, html)] drawn lately for the table's seats
        self.hits = 0

    def inputs(self, template: str, context: dict) -> tuple | None:
        whole, attributes = template_inputs(template)
        values = []
        for name in whole:
            value = context.get(name)
            if isinstance(value, Model):  # compared by primary key only: not a usable input
                return None
            values.append(value)
        for name, attribute in attributes:
            value = _read(context.get(name), attribute)
            if isinstance(value, Model):
                return None
            values.append(value)
        return tuple(values)

    def get(self, part: str, seat: tuple, inputs: tuple) -> str | None:
        with self.lock:
            found = self.last.get((part, *seat))
            if found is not None and found[0] == inputs:
                self.last.move_to_end((part, *seat))
                self.hits += 1
                return found[1]
            for other_inputs, html in self.move.get((part, seat[0]), ()):
                if other_inputs == inputs:
                    self._store(part, seat, inputs, html)
                    self.hits += 1
                    return html
        return None

    def put(self, part: str, seat: tuple, inputs: tuple, html: str) -> None:
        with self.lock:
            self._store(part, seat, inputs, html)
            drawn = self.move.setdefault((part, seat[0]), [])
            drawn.append((inputs, html))
            del drawn[:-2]  # a move's pieces: the player's own and the others' (the same for all of them)

    def _store(self, part: str, seat: tuple, inputs: tuple, html: str) -> None:
        self.last[(part, *seat)] = (inputs, html)
        self.last.move_to_end((part, *seat))
        while len(self.last) > self.size:
            self.last.popitem(last=False)
        if len(self.move) > self.tables * len(MEMO_PIECES):
            self.move.clear()

    def clear(self) -> None:
        with self.lock:
            self.last.clear()
            self.move.clear()


_memo = PieceMemo()


def _read(value, attribute: str):
    if value is None:
        return None
    if isinstance(value, dict):
        return value.get(attribute)
    return getattr(value, attribute, None)


@cache
def template_inputs(template: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """What a piece's template (and the templates it includes or extends) reads from its context: the names it
    reads whole, and the (name, attribute) pairs of the names it reads only through an attribute or a constant
    key."""
    env = environment()
    whole: set[str] = set()
    attributes: set[tuple[str, str]] = set()

    def visit(name: str) -> None:
        ast = env.parse(env.loader.get_source(env, name)[0])
        context_names = meta.find_undeclared_variables(ast)
        through: set[int] = set()
        for node in ast.find_all((nodes.Getattr, nodes.Getitem)):
            target = node.node
            if isinstance(target, nodes.Name) and target.name in context_names:
                key = node.attr if isinstance(node, nodes.Getattr) else node.arg
                if isinstance(key, nodes.Const):
                    key = key.value
                if isinstance(key, str):
                    attributes.add((target.name, key))
                    through.add(id(target))
        for node in ast.find_all(nodes.Name):
            if node.name in context_names and id(node) not in through:
                whole.add(node.name)
        for include in (*ast.find_all(nodes.Include), *ast.find_all(nodes.Extends)):
            if not isinstance(include.template, nodes.Const):
                raise ValueError(f"{name}: an include or extends whose template is not a constant")
            visit(include.template.value)

    visit(template)
    whole -= set(env.globals)  # functions of their arguments only (url, card_face, …)
    return tuple(sorted(whole)), tuple(sorted((n, a) for n, a in attributes if n not in whole))
