from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.forms import ProfileForm, VacationForm
from accounts.models import VACATION_DAYS_PER_YEAR
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


def profile_page(request, *, form=None, vacation_form=None, status: int = 200):
    """The profile page; the vacation form (``games.web.vacation_views``)
    answers with it too when it refuses, its errors shown."""
    form = form or ProfileForm(instance=request.user.profile)
    return render(
        request, "accounts/profile.html", _context(request, form, vacation_form), status=status
    )


def _context(request, form, vacation_form=None):
    now = timezone.now()
    until = request.user.profile.vacation_until
    used = account_selectors.vacation_days_used(request.user, now.year)
    return {
        "form": form,
        "vacation_form": vacation_form or VacationForm(),
        "on_vacation_until": until if until and until > now else None,
        "vacation_days_left": max(0, VACATION_DAYS_PER_YEAR - used),
    }


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
