"""The profile page's vacation form: start a vacation (all clocks stop) or
come back early. The page is the accounts app's; the write is the matches'
(``games.play.vacation``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import VacationForm
from accounts.views import profile_page
from core import errors
from games.play import vacation as vacations


@login_required
@require_POST
def vacation(request):
    """Start a vacation (all clocks stop) or come back early."""
    if "end" in request.POST:
        action = lambda: vacations.end_vacation(request.user)  # noqa: E731
        done = _("Welcome back: your clocks run again.")
        vacation_form = None
    else:
        vacation_form = VacationForm(request.POST)
        if not vacation_form.is_valid():
            return profile_page(request, vacation_form=vacation_form, status=400)
        days = vacation_form.cleaned_data["days"]
        action = lambda: vacations.start_vacation(request.user, days)  # noqa: E731
        done = _("Enjoy your vacation: your clocks are stopped.")
    try:
        action()
    except errors.ServiceError as error:
        messages.error(request, error.message)
        return profile_page(request, vacation_form=vacation_form, status=error.status)
    messages.success(request, done)
    return redirect("profile")
