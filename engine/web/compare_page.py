"""``GET|POST /compare``: the form's case ruled under several rulebooks, side by side
(:func:`bridgelaw.web.service.compare`, which is ``bridgelaw compare``'s path)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import BridgelawError
from . import forms, service
from .answers import field_error
from .forms import CaseForm
from .pages import read_form
from .site import Site, site_of


async def compare_page(request: Request) -> Response:
    site = site_of(request)
    if request.method in ("GET", "HEAD"):
        return await site.work(lambda: site.page(request, "compare.html", form=site.default_form()))
    f, action, data = await read_form(request)
    return await site.work(compared, site, request, f, action, data)


def compared(site: Site, request: Request, f: CaseForm, action: str, data: Any) -> Response:
    books = site.books
    if not f.compare and action in ("compare", "rule"):
        f.compare = [] if "compare_sent" in data else books.in_force(service.case_day(f.date))
    if f.apply(action):
        return site.page(request, "compare.html", form=f)
    unknown = [c for c in f.compare if c not in books.ids()]
    if unknown:
        return site.page(request, "compare.html", 422, form=f,
                         errors={"compare": field_error(f"Unknown rulebook '{unknown[0]}'",
                                                        "one of " + ", ".join(books.ids()))})
    text, _ = f.to_yaml()
    try:
        case, columns = service.compare(text, "the form", books, f.compare)
    except BridgelawError:
        errors = forms.all_errors(f, lambda t: service.compare(t, "the form", books, f.compare))
        if not f.compare:
            errors = {"compare": field_error("Choose at least one rulebook to compare.")}
        return site.page(request, "compare.html", 422, form=f, errors=errors)
    return site.page(request, "compare.html", form=f, columns=columns, rows=service.compare_rows(columns))
