"""French plurals for the templates: 0 and 1 take the singular (« 0 carte », « 1 point », « 2 points »), where
Django's `pluralize` follows English (« 0 cards »). Registered as the `pluralize` filter of both template engines
(the Django pages through TEMPLATES' builtins, the live table's Jinja2 environment in tables.live)."""

from django import template

register = template.Library()


@register.filter(is_safe=False)
def pluralize(value, arg: str = "s") -> str:
    """`arg` as Django's: "s", or "singular,plural" suffixes."""
    singular, plural = arg.split(",", 1) if "," in arg else ("", arg)
    try:
        count = abs(float(value))
    except (TypeError, ValueError):
        try:
            count = len(value)
        except TypeError:
            return ""
    return plural if count >= 2 else singular
