"""Content-Security-Policy on every response (Django 5.2 has no built-in CSP; 6.0 will).

Pages load scripts, styles, images and fonts from this site only, never run inline script or inline
styles, and open websockets only to this host. The templates keep to that: no inline <script>, no
`style=` attribute, no `on…=` handler (tests/security/test_auth.py checks every page and push).
The admin keeps inline styles, which some of Django's widgets set.
"""

from django.core.exceptions import DisallowedHost

BASE = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy(request) -> str:
    directives = dict(BASE)
    try:
        host = request.get_host()
    except DisallowedHost:
        host = ""
    # 'self' covers ws:/wss: of this host in CSP 3 browsers; the explicit sources cover the others.
    directives["connect-src"] = f"'self' ws://{host} wss://{host}" if host else "'self'"
    if request.path.startswith("/admin/"):
        directives["style-src"] = "'self' 'unsafe-inline'"
    return "; ".join(f"{name} {value}" for name, value in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy(request)
        return response
