"""The ruling form, in five modules with one job each (this module gathers their names):

- :mod:`.formfields` — the form's vocabulary: choices, which field is which key, the rows of its lists;
- :mod:`.caseform` — the form's fields → a case model (exactly the keys of a case file);
- :mod:`.caseopen` — an opened case file → the form's fields;
- :mod:`.caseyaml` — a case model as case-file YAML, and the length limits on its lists;
- :mod:`.formerrors` — an engine error → the form field it belongs to (from the error's key path).

The web page never rules a form directly: it writes the case model as YAML and runs that text
through :func:`bridgelaw.ruling.case.load_case`, the same path as ``bridgelaw rule``; web and CLI cannot
disagree. Everything a request sends is data: strings are copied into the model, numbers are
parsed by the engine's own parsers, the hidden ``extra`` field is JSON (``json.loads``), nothing
is evaluated.
"""

from __future__ import annotations

from .caseform import CaseForm, compact_list, split_field  # noqa: F401
from .caseopen import form_from_tree  # noqa: F401
from .caseyaml import MAX_FIELD, MAX_LIST, MAX_ROWS, check_list_lengths, dump_yaml, positions  # noqa: F401
from .formerrors import all_errors, error_path, field_for_path, form_errors, friendly  # noqa: F401
from .formfields import (ADJUSTED_BY, B_MODES, CASE_KEYS, DECISIONS, DEPOSITS, DIRECTIONS, EVENTS, EXCEPTIONS,  # noqa: F401
                         FINDING_CHOICES, FORM_KEYS, HIDDEN_FIELDS, KINDS, LABELS, NON_OFFENDING, NOT_SCHEDULED, OFFENDERS,
                         RESPONSIBILITIES, SCORINGS, SEATS, SERIOUS, SIDES, VULNERABILITIES, PollRow, RevokeRow, Row,
                         label)
