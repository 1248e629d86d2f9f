"""{% memo %}…{% endmemo %}: a block rendered once per distinct input, then served from memory.

Every move pushes each seat its whole table (tables/table_push.html), and most of it did not change since
the previous push, or is the same for several seats: re-rendering it all is what a push cost. The key is
derived from the block itself (and from what it includes) the first time it renders: every variable it
reads, with its value; a variable only tested in an {% if %} counts by its truth; a {% for %} counts by
the values its body reads of each item. Nothing has to be declared, so editing a partial can never leave
a stale key behind. A block using a tag the analysis does not know is rendered as usual, never cached.

``{% memo vary="version" %}`` keeps one entry for every version: the block is rendered with a placeholder
for ``version`` and each push's number is put in. Allowed only where the block prints ``{{ version }}``
plainly (no filter, no test, not passed on); otherwise the block is not cached.

The cache lives in the process (bounded, cleared when full); `memo.enabled = False` turns it off
(tests compare both renders).
"""

import itertools
import logging
import threading
from datetime import date, time
from decimal import Decimal

from django import template
from django.db.models import Model
from django.template import defaultfilters
from django.template.base import FilterExpression, TextNode, Variable, VariableDoesNotExist, VariableNode
from django.template.defaulttags import (
    CommentNode,
    CsrfTokenNode,
    ForNode,
    IfNode,
    LoadNode,
    SpacelessNode,
    URLNode,
    WithNode,
)
from django.template.loader_tags import IncludeNode
from django.utils import timezone, translation
from django.utils.safestring import SafeData, mark_safe
from template_partials.templatetags.partials import DefinePartialNode, RenderPartialNode

register = template.Library()
log = logging.getLogger(__name__)

MAX_ENTRIES = 50_000
enabled = True
_cache: dict = {}
_lock = threading.Lock()
stats = {"hits": 0, "misses": 0, "uncached": 0}


class Unsupported(Exception):
    """The block reads its context in a way the key cannot capture: render it, never cache it."""


class _Missing:
    def __repr__(self):
        return "<missing>"


MISSING = _Missing()
_SLOW = object()
_FROZEN = object()  # render_context key of the per-render freeze cache
TRUE, FALSE = object(), object()  # True == 1 as dict keys, but they render differently


def freeze(value):
    """A hashable image of a value that two values rendering differently never share."""
    if value is None or type(value) is str or type(value) is int:
        return value
    if value is True:
        return TRUE
    if value is False:
        return FALSE
    if type(value) is dict:
        return ("d", tuple((k, freeze(v)) for k, v in value.items()))
    if type(value) in (list, tuple):
        return ("l", tuple(freeze(v) for v in value))
    if isinstance(value, SafeData) and isinstance(value, str):
        return ("safe", str(value))
    if isinstance(value, str):  # e.g. a TextChoices member: shown as its value
        return ("s", type(value).__name__, str(value))
    if type(value) is float:
        return ("f", value)
    if isinstance(value, (Decimal, date, time)):
        return (type(value).__name__, value.isoformat() if not isinstance(value, Decimal) else str(value))
    if value is MISSING:
        return value
    raise Unsupported(type(value).__name__)


# --- analysis: which values a block reads ------------------------------------------------------

class Deps:
    def __init__(self, vary: str | None):
        self.vary = vary
        self.items: dict[tuple, object] = {}  # (kind, text) -> Variable | (Variable, [paths]) ; ordered

    def value(self, var: Variable, bound: dict) -> None:
        root = var.lookups[0] if var.lookups else None
        if root is None:
            return  # a literal
        if root in bound:
            bound[root].add(var)
            return
        if root == self.vary:
            raise Unsupported(f"{self.vary} used other than as {{{{ {self.vary} }}}}")
        self.items.setdefault(("v", var.var), var)

    def length(self, var: Variable, bound: dict) -> None:
        root = var.lookups[0] if var.lookups else None
        if root is None:
            return
        if root in bound or root == self.vary:
            self.value(var, bound)
            return
        self.items.setdefault(("n", var.var), var)

    def truth(self, var: Variable, bound: dict) -> None:
        root = var.lookups[0] if var.lookups else None
        if root is None:
            return
        if root in bound or root == self.vary:
            self.value(var, bound)
            return
        self.items.setdefault(("t", var.var), var)


def _expression(fe, deps: Deps, bound: dict, truth: bool = False) -> None:
    if not isinstance(fe, FilterExpression):
        raise Unsupported(repr(fe))
    if isinstance(fe.var, Variable):
        if truth and not fe.filters:
            deps.truth(fe.var, bound)
        elif fe.filters and fe.filters[0][0] is defaultfilters.length:
            deps.length(fe.var, bound)  # `seats|length`: only the count matters
        else:
            deps.value(fe.var, bound)
    for _func, args in fe.filters:
        for lookup, arg in args:
            if lookup and isinstance(arg, Variable):
                deps.value(arg, bound)


def _condition(cond, deps: Deps, bound: dict, truth: bool = True) -> None:
    kind = getattr(cond, "id", None)
    if kind == "literal":
        _expression(cond.value, deps, bound, truth=truth)
    elif kind in ("and", "or", "not"):
        for part in (cond.first, cond.second):
            if part is not None:
                _condition(part, deps, bound, truth=truth)
    elif kind is not None:
        for part in (cond.first, cond.second):
            if part is not None:
                _condition(part, deps, bound, truth=False)
    else:
        raise Unsupported(repr(cond))


class _Loop:
    """A {% for %} variable: collects what the body reads of each item."""

    def __init__(self):
        self.paths: list[Variable] = []
        self.whole = False

    def add(self, var: Variable) -> None:
        if len(var.lookups) < 2:
            self.whole = True
        else:
            self.paths.append(var)


def _walk(nodelist, deps: Deps, bound: dict, engine, depth: int = 0) -> None:
    if depth > 20:
        raise Unsupported("includes nested too deep")
    for node in nodelist:
        kind = type(node)
        if kind in (TextNode, CommentNode, LoadNode):
            continue
        if kind is VariableNode:
            fe = node.filter_expression
            if deps.vary and isinstance(fe.var, Variable) and fe.var.var == deps.vary and not fe.filters \
                    and deps.vary not in bound:
                continue  # the placeholder is put in after rendering
            _expression(fe, deps, bound)
        elif kind is IfNode:
            for cond, body in node.conditions_nodelists:
                if cond is not None:
                    _condition(cond, deps, bound)
                _walk(body, deps, bound, engine, depth)
        elif kind is ForNode:
            loops = {name: _Loop() for name in node.loopvars}
            inner = {**bound, **loops, "forloop": _Loop()}
            _walk(node.nodelist_loop, deps, inner, engine, depth)
            _walk(node.nodelist_empty, deps, bound, engine, depth)
            sequence = node.sequence
            if not isinstance(sequence.var, Variable) or sequence.filters or len(node.loopvars) != 1:
                _expression(sequence, deps, bound)  # the whole sequence, after its filters
                continue
            loop = loops[node.loopvars[0]]
            root = sequence.var.lookups[0]
            if root in bound:
                bound[root].add(sequence.var)
                continue
            if loop.whole:
                deps.value(sequence.var, bound)
            else:
                paths = {p.var: Variable("item." + ".".join(p.lookups[1:])) for p in loop.paths}
                key = ("for", sequence.var.var, tuple(paths))
                deps.items.setdefault(key, (sequence.var, list(paths.values())))
        elif kind is IncludeNode:
            name = node.template
            if not isinstance(name, FilterExpression) or isinstance(name.var, Variable) or name.filters:
                raise Unsupported("include of a computed template name")
            if node.isolated_context:
                raise Unsupported("include … only")
            inner = dict(bound)
            for key, fe in node.extra_context.items():
                _expression(fe, deps, bound)
                inner[key] = _Bound()
            included = engine.get_template(name.var)
            _walk(_nodelist(included), deps, inner, engine, depth + 1)
        elif kind is WithNode:
            inner = dict(bound)
            for key, fe in node.extra_context.items():
                _expression(fe, deps, bound)
                inner[key] = _Bound()
            _walk(node.nodelist, deps, inner, engine, depth)
        elif kind is CsrfTokenNode:
            deps.value(Variable("csrf_token"), bound)
        elif kind is URLNode:
            if node.asvar:
                raise Unsupported("{% url … as %}")
            for fe in [node.view_name, *node.args, *node.kwargs.values()]:
                _expression(fe, deps, bound)
        elif kind is SpacelessNode:
            _walk(node.nodelist, deps, bound, engine, depth)
        elif kind is RenderPartialNode:
            _walk(node.partial_mapping[node.partial_name].nodelist, deps, bound, engine, depth + 1)
        elif kind is DefinePartialNode:
            if node.inline:
                _walk(node.nodelist, deps, bound, engine, depth)
        elif kind is MemoNode:
            _walk(node.nodelist, deps, bound, engine, depth)
        else:
            raise Unsupported(kind.__name__)


class _Bound(_Loop):
    """A name bound by {% with %} or an include's `with`: its value is already in the key."""

    def add(self, var: Variable) -> None:
        pass


def _nodelist(tpl):
    inner = getattr(tpl, "template", tpl)  # backends' Template wraps django.template.Template
    nodelist = getattr(inner, "nodelist", None)
    if nodelist is None:
        raise Unsupported(f"cannot read {tpl!r}")
    return nodelist


# --- rendering -------------------------------------------------------------------------------

def _resolve(var: Variable, context):
    """`var`'s value as the template sees it (before filters). Dicts, the common case, are looked up
    directly; anything else goes through Django's own resolution."""
    lookups = var.lookups
    try:
        current = context[lookups[0]]
    except KeyError:
        if not hasattr(context, lookups[0]):
            return MISSING  # what Django resolves too: nothing by that name
        current = _SLOW
    if current is not _SLOW and not callable(current):
        for bit in lookups[1:]:
            if type(current) is dict:
                if bit not in current and not hasattr(dict, bit):
                    return MISSING  # Django finds no key, no attribute, no index either
                current = current.get(bit, _SLOW)
            elif isinstance(current, Model) and bit[0] != "_":
                current = getattr(current, bit, _SLOW)  # a model is not subscriptable: Django uses getattr too
            else:
                current = _SLOW
            if current is _SLOW or callable(current):
                current = _SLOW
                break
        if current is not _SLOW:
            return current
    try:
        return var.resolve(context)
    except VariableDoesNotExist:
        return MISSING
    except Exception:  # noqa: BLE001 - the template would show nothing either: never cache then
        raise Unsupported("lookup failed") from None


def _item_lookup(item, path: Variable):
    """What `{{ x.a.b }}` shows for one loop item: `path` is `item.a.b`, resolved against {"item": item}."""
    return _resolve(path, {"item": item})


class MemoNode(template.Node):
    PLACEHOLDER = "\ue000memo\ue001"

    _ids = itertools.count()

    def __init__(self, nodelist, vary: str | None):
        self.memo_id = next(self._ids)  # not id(self): a reloaded template could reuse an id
        self.nodelist = nodelist
        self.vary = vary
        self.deps: list | None = None
        self.cacheable = True

    def analyse(self, context) -> None:
        deps = Deps(self.vary)
        try:
            _walk(self.nodelist, deps, {}, context.template.engine)
        except Unsupported as why:
            self.cacheable = False
            log.warning("memo block not cached (%s) in %s", why, getattr(self.origin, "name", "?"))
        self.deps = list(deps.items.items())

    def key(self, context) -> tuple:
        parts = [self.memo_id, context.autoescape, translation.get_language(), timezone.get_current_timezone_name()]
        # One push renders several blocks reading the same lists (seats, hand): freeze each once per render.
        frozen = context.render_context.dicts[0].setdefault(_FROZEN, {})
        for (kind, *_text), dep in self.deps:
            if kind == "v":
                value = _resolve(dep, context)
                if type(value) in (dict, list):
                    seen = frozen.get(id(value))
                    if seen is None or seen[0] is not value:
                        seen = frozen[id(value)] = (value, freeze(value))
                    parts.append(seen[1])
                else:
                    parts.append(freeze(value))
            elif kind == "n":
                value = _resolve(dep, context)
                parts.append(("n", len(value)) if isinstance(value, (list, tuple, dict, str)) else freeze(value))
            elif kind == "t":
                value = _resolve(dep, context)
                parts.append(TRUE if value is not MISSING and value else FALSE)
            else:
                sequence_var, paths = dep
                sequence = _resolve(sequence_var, context)
                if sequence is MISSING or sequence is None:
                    parts.append(MISSING)
                    continue
                if not isinstance(sequence, (list, tuple)):
                    raise Unsupported("loop over " + type(sequence).__name__)
                parts.append(tuple(tuple(freeze(_item_lookup(item, p)) for p in paths) for item in sequence))
        return tuple(parts)

    def render(self, context):
        if self.deps is None:
            self.analyse(context)
        if not enabled or not self.cacheable:
            stats["uncached"] += 1
            return self.nodelist.render(context)
        try:
            key = self.key(context)
        except Unsupported:
            stats["uncached"] += 1
            return self.nodelist.render(context)
        html = _cache.get(key)
        if html is None:
            stats["misses"] += 1
            if self.vary:
                with context.push({self.vary: self.PLACEHOLDER}):
                    html = self.nodelist.render(context)
            else:
                html = self.nodelist.render(context)
            if len(_cache) >= MAX_ENTRIES:
                with _lock:
                    _cache.clear()
            _cache[key] = html
        else:
            stats["hits"] += 1
        if self.vary:
            from django.template.base import render_value_in_context

            value = _resolve(Variable(self.vary), context)
            shown = "" if value is MISSING else render_value_in_context(value, context)
            html = html.replace(self.PLACEHOLDER, shown)
        return mark_safe(html)


@register.tag
def memo(parser, token):
    bits = token.split_contents()[1:]
    vary = None
    for bit in bits:
        if bit.startswith("vary="):
            vary = bit[5:].strip("\"'")
        else:
            raise template.TemplateSyntaxError(f"memo: unknown argument {bit!r}")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, vary)


def clear() -> None:
    _cache.clear()
