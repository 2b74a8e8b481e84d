"""The OAuth2 endpoints, ``/oauth/`` (django-oauth-toolkit's views): the
consent page, the token exchange, revocation and introspection. Only these:
apps are registered by staff in the admin, not by players, and the toolkit's
device flow, OpenID Connect and dynamic registration are not offered.

Every POST is ``sensitive_post_parameters()``: an error report never shows
a code, a code verifier, a client secret or a token."""

from django.urls import path
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters
from oauth2_provider import views
from oauth2_provider.models import Application

app_name = "oauth2_provider"


class AuthorizationView(views.AuthorizationView):
    """The consent page. Its form carries the request back in hidden fields;
    the toolkit looks the app up by the posted ``client_id`` with ``get`` and
    a forged one was a 500. A posted app that does not exist is refused on
    the site's page (400) and nothing is granted."""

    def form_valid(self, form):
        client_id = form.cleaned_data.get("client_id") or ""
        if not Application.objects.filter(client_id=client_id).exists():
            return self.render_to_response({"error": {"error": "invalid_client"}}, status=400)
        return super().form_valid(form)


class TokenView(views.TokenView):
    """The toolkit's token endpoint with every posted parameter hidden: its
    own method marks only ``password`` and ``client_secret``, and, running
    inside any outer decorator, narrowed the list again, so a report of a
    failure there showed the code, the verifier and the refresh token."""

    authorization_flow_token_response = method_decorator(sensitive_post_parameters())(
        views.TokenView.authorization_flow_token_response.__wrapped__
    )


def _hidden(view):
    """The view with every posted parameter hidden from error reports."""
    return sensitive_post_parameters()(view)


urlpatterns = [
    path("authorize/", _hidden(AuthorizationView.as_view()), name="authorize"),
    path("token/", _hidden(TokenView.as_view()), name="token"),
    path("revoke_token/", _hidden(views.RevokeTokenView.as_view()), name="revoke-token"),
    path("introspect/", _hidden(views.IntrospectTokenView.as_view()), name="introspect"),
]
