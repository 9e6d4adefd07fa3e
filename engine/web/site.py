"""What every page of one running app shares: its rulebooks, templates and pool of work threads,
and rendering a page with the context every template needs. Each route finds it on the app's
state (:func:`site_of`), so the routes are plain functions in modules by page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from .. import __version__
from ..render.changes import figure
from . import forms, service
from .forms import CaseForm
from .guard import TooLarge
from .work import Work

HERE = Path(__file__).resolve().parent
FIELD_LABELS = {**forms.LABELS, "traveller": "Traveller", "adjustments": "Adjustments"}


class Site:
    """One app's rulebooks (`books`), templates and `work` pool; `traveller_ok` when the
    traveller scorer is installed."""

    def __init__(self, books: service.Books, work: Work) -> None:
        self.books, self.work = books, work
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))
        self.templates.env.globals.update(
            version=__version__, labels=FIELD_LABELS, figure=figure, errors_in=_errors_in, forms=forms, max_rows=forms.MAX_ROWS,
        )
        self.traveller_ok = _traveller_available()

    def page(self, request: Request, name: str, code: int = 200, **context: Any) -> Response:
        books = self.books
        context.setdefault("errors", {})
        context.setdefault("books", books.choices())
        context.setdefault("book_options", {b["id"]: b["label"] for b in context["books"]})
        context.setdefault("case_book_options", {"": "the one in force in the jurisdiction on the date (the rulebook "
                                                     "calendar)", **context["book_options"]})
        context.setdefault("traveller_books", {"": "as the traveller says", **context["book_options"]})
        if name == "compare.html":
            context.update(compare_page=True, form_action="/compare")
        context.setdefault("traveller", self.traveller_ok)
        context["infraction_laws"], context["known_findings"] = books.infractions()
        return self.templates.TemplateResponse(request, name, context, status_code=code)

    def default_form(self) -> CaseForm:
        f = CaseForm(rulebook=self.books.default())
        f.compare = self.books.in_force()
        return f


def _errors_in(errors: Any, *prefixes: str) -> bool:
    """Whether any error is about a field whose name starts with one of `prefixes` (a folded section opens)."""
    return any(str(k).startswith(prefixes) for k in (errors or {}))


def site_of(request: Request) -> Site:
    return request.app.state.site


async def form_data(request: Request, *, max_files: int, max_fields: int, max_part_size: int) -> Any | None:
    """The posted form within its limits, or None when it cannot be read (a body over the
    server's bound still raises TooLarge: the app answers it 413)."""
    try:
        return await request.form(max_files=max_files, max_fields=max_fields, max_part_size=max_part_size)
    except TooLarge:
        raise
    except Exception:                         # noqa: BLE001 — any malformed form: the page says so
        return None


def _traveller_available() -> bool:
    try:
        from . import travel
    except ImportError:
        return False
    return travel.available()
