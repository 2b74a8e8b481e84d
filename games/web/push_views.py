"""The page where a player turns push notifications on or off per device and
chooses what each device gets (``games.correspondence.push``)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core import errors
from games.correspondence import push
from games.models import PushSubscription, Webhook


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def push_devices(request):
    """GET: the player's devices and webhooks. POST ``action``: ``subscribe``
    (the page's script sends the browser's subscription), ``kinds`` or
    ``remove`` for a device; ``webhook_add``, ``webhook_kinds``,
    ``webhook_remove`` or ``webhook_test`` for a webhook."""
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "subscribe":
                push.subscribe(
                    request.user,
                    request.POST.get("endpoint"),
                    request.POST.get("p256dh"),
                    request.POST.get("auth"),
                )
                done = _("Push notifications are on for this device.")
            elif action == "kinds":
                push.set_kinds(
                    request.user, request.POST.get("device"), request.POST.getlist("kinds")
                )
                done = _("Saved.")
            elif action == "remove":
                push.remove(request.user, request.POST.get("device"))
                done = _("Push notifications are off for that device.")
            elif action == "webhook_add":
                push.add_webhook(request.user, request.POST.get("kind"), request.POST.get("url"))
                done = _("The webhook is added.")
            elif action == "webhook_kinds":
                push.set_webhook_kinds(
                    request.user, request.POST.get("webhook"), request.POST.getlist("kinds")
                )
                done = _("Saved.")
            elif action == "webhook_remove":
                push.remove_webhook(request.user, request.POST.get("webhook"))
                done = _("The webhook is removed.")
            elif action == "webhook_test":
                done = push.send_test(request.user, request.POST.get("webhook"))
            else:
                raise errors.ServiceError(_("Unknown action."))
        except errors.ServiceError as error:
            messages.error(request, error.message)
            return _page(request, status=error.status)
        messages.success(request, done)
        return redirect("push_devices")
    return _page(request)


def _page(request, status: int = 200):
    kinds = push.device_kinds()
    devices = [
        {
            "device": device,
            "kinds": [(kind, label, kind in device.kinds) for kind, label in kinds],
        }
        for device in PushSubscription.objects.filter(user=request.user).order_by("created_at")
    ]
    hooks = list(Webhook.objects.filter(user=request.user, personal=True).order_by("created_at"))
    recent = push.recent_deliveries([hook.pk for hook in hooks])
    webhooks = [
        {
            "hook": hook,
            "kinds": [(kind, label, kind in hook.kinds) for kind, label in kinds],
            "recent": recent[hook.pk],
        }
        for hook in hooks
    ]
    return render(
        request,
        "games/push_devices.html",
        {
            "devices": devices,
            "webhooks": webhooks,
            "webhooks_enabled": settings.WEBHOOKS_ENABLED,
            "webhook_kinds": Webhook.Kind.choices,
            "public_key": settings.VAPID_KEYS["public"],
            "available": bool(settings.VAPID_KEYS["private"]),
            "settings_url": reverse("notification_settings"),
        },
        status=status,
    )
