from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts import bots
from accounts import services as account_services
from accounts.forms import IdentityForm, NotificationsForm, ProfileForm, VacationForm
from accounts.models import VACATION_ACCRUAL_PER_DAY, VACATION_POOL_CAP
from core import errors


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def profile_edit(request):
    form = ProfileForm(request.POST or None, instance=request.user.profile)
    if request.method == "POST" and form.is_valid():
        profile = form.save()
        # Say it in the language just chosen: the next page is shown in it.
        with translation.override(profile.language):
            messages.success(request, _("Your profile was saved."))
        return redirect("profile")
    return profile_page(request, form=form, status=400 if form.errors else 200)


@require_POST
@login_required
def profile_identity(request):
    """The picture, country and bio (a form of its own: it uploads a file)."""
    profile = request.user.profile
    form = IdentityForm(request.POST, request.FILES, instance=profile)
    if form.is_valid():
        data = form.cleaned_data
        account_services.save_identity(
            request.user,
            country=data["country"],
            bio=data["bio"],
            picture=data["picture_file"],
            remove_picture=data.get("remove_picture", False),
        )
        messages.success(request, _("Your player page was updated."))
        return redirect("profile")
    # The form's instance took the refused values: show the stored ones beside the errors.
    profile.refresh_from_db()
    return profile_page(request, identity_form=form, status=400)


def profile_page(request, *, form=None, vacation_form=None, identity_form=None, status: int = 200):
    """The profile page; the vacation form (``games.web.vacation_views``)
    and the identity form answer with it too when they refuse, their errors shown."""
    form = form or ProfileForm(instance=request.user.profile)
    context = _context(request, form, vacation_form)
    context["identity_form"] = identity_form or IdentityForm(instance=request.user.profile)
    return render(request, "accounts/profile.html", context, status=status)


def _context(request, form, vacation_form=None):
    now = timezone.now()
    profile = request.user.profile
    until = profile.vacation_until
    pool = profile.vacation_pool_now(now)
    return {
        "form": form,
        "vacation_form": vacation_form or VacationForm(),
        "on_vacation_until": until if until and until > now else None,
        "vacation_pool_days": int(pool.total_seconds() // 86400),
        "vacation_pool_hours": int(pool.total_seconds() % 86400 // 3600),
        "vacation_rate_hours": int(VACATION_ACCRUAL_PER_DAY.total_seconds() // 3600),
        "vacation_cap_days": VACATION_POOL_CAP.days,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def notification_settings(request):
    """What is emailed and when: each kind of event, the reminders before a
    deadline, the quiet hours. A refused form changes nothing (400)."""
    form = NotificationsForm(request.POST or None, instance=request.user.profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your notification settings were saved."))
        return redirect("notification_settings")
    return render(
        request,
        "accounts/notifications.html",
        {
            "form": form,
            "webhooks_enabled": settings.WEBHOOKS_ENABLED,
            "push_url": reverse("push_devices"),
        },
        status=400 if form.errors else 200,
    )


@require_POST
def set_language(request):
    """The header's language menu: Django's ``set_language`` (the cookie, and back to
    the page it was chosen on), and for a signed-in player the profile's language too,
    which is what every later page follows."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    try:
        if request.user.is_authenticated:
            account_services.set_language(request.user, language)
        elif language not in dict(settings.LANGUAGES):
            raise errors.ServiceError(_("Smoki does not speak that language."))
    except errors.ServiceError as error:
        messages.error(request, error.message)
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def become_bot(request):
    """Turn this account into a bot account (``accounts.bots``): a page that
    says what it means and that it cannot be undone, and a form that asks to
    confirm. A refusal (a match played or joined, no confirmation) changes
    nothing and says why (400)."""
    user = request.user
    refusal = bots.conversion_refusal(user)
    error = None
    if request.method == "POST":
        if refusal:
            error = refusal
        elif request.POST.get("confirm") != "yes":
            error = _("Tick the box to confirm: a bot account cannot become a person's again.")
        else:
            try:
                bots.become_bot(user)
            except errors.ServiceError as refused:
                error = refused.message
            else:
                messages.success(request, _("This account is a bot account now."))
                return redirect("become_bot")
    context = {
        "is_bot": bots.is_bot_account(user),
        "refusal": refusal,
        "error": error,
        "since": user.profile.bot_since,
    }
    return render(request, "accounts/bot_account.html", context, status=400 if error else 200)
