"""The stages of a ruling, and the vocabulary each stage's rules may use.

A rulebook's rules each belong to one stage. Python knows what a stage *does* with the rule
that applies (choose the kind of adjustment, form B from the possible outcomes, award scores);
the rulebook says *which* rule applies, what it awards and why.

Hit policies: in a ``unique`` stage exactly one rule must apply (a DMN "unique" hit policy);
in an ``optional`` stage at most one (none means the stage changes nothing). Either way a rule
may declare ``overrides: [other-rule]`` to win over another explicitly — never by file order.

Stages, in the order a ruling runs them:

1. ``kind``           assigned adjusted score, artificial adjusted score, or board not scored
2. ``expectation``    (assigned) how B (and B') is formed from the outcomes, a weighted list or a
                      poll: which outcomes count, how they are weighted or selected, whether the
                      result most favourable to the non-offending side is favoured, and whether
                      the offending side's B' is the complement of B or formed from its own view
3. ``serious-error``  (assigned, with a table result) C: what the non-offending side would have
                      scored without its own extremely serious error or gambling action
4. ``damage``         (assigned) no damage / self-inflicted / split / assigned: each side's score
5. ``artificial``     (artificial, once per side) average plus / average / average minus and the
                      12C2(c) and 12C2(d) modifications
6. ``event``          (optional) event-level provisions on the two scores: 12C4 knockout averaging
7. ``penalty``        (optional) who bears a procedural penalty (Law 90): the pair or team at pairs and
                      teams, 12C3's offender (and partner) in individual events; a penalty in an
                      event no rule covers is an error

and, for a case whose infraction lists established revokes (Law 64), before ``damage``:

- ``revoke``          (once per revoke) how many tricks it transfers, from the facts of the revoke
                      (the trick, who won it, the offending side's later tricks, an exception the
                      case names, whether both sides revoked on the board)
- ``revoke-equity``   (once per board) whether the transfer leaves the non-offending side short of
                      the tricks it would have had without the revoke(s), and what follows

A fact whose kind is ``DECLARED`` takes the words the rulebook declares for it under ``words:``
(e.g. ``exception``: the exceptions to the trick transfer an edition lists, with what each means).

An ``apply`` value is one of a stage's words, or — where the stage says ``PARAMETER`` — the
name of a rulebook parameter whose value the method uses (e.g. ``favour: poll.benefit_of_doubt``);
keys listed in ``apply_defaults`` may be left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .conditions import Vocabulary
from ..core.vocab import EVENTS, RESPONSIBILITY, SCORING

PARAMETER = "<parameter>"          # an apply value naming a rulebook parameter
DECLARED = "<declared>"            # a fact whose words the rulebook declares (its words: block)

DAMAGE_OUTCOMES = ("no-damage", "all-self-inflicted", "none-self-inflicted", "split", "assigned")
ARTIFICIAL_OUTCOMES = ("avg-plus", "average", "avg-minus", "session-score", "not-scored")


@dataclass(frozen=True)
class Stage:
    id: str
    summary: str
    facts: Vocabulary
    produces: str                                   # "apply" (choices) or "award" (formulas)
    hit: str = "unique"                             # "unique" | "optional"
    apply_options: dict[str, tuple[str, ...] | str] = field(default_factory=dict)
    apply_defaults: dict[str, str | None] = field(default_factory=dict)   # optional apply keys
    award_keys: tuple[str, ...] = ()
    formula_names: frozenset[str] = frozenset()
    outcomes: tuple[str, ...] = ()
    no_award: tuple[str, ...] = ()                  # outcomes whose rules award nothing


KIND = Stage(
    id="kind",
    summary="whether the score is an assigned or an artificial adjusted score, or the board is not scored",
    facts={"artificial": "bool", "possibilities_numerous": "bool", "not_scheduled": "bool", "scoring": SCORING},
    produces="apply",
    apply_options={"kind": ("assigned", "artificial", "not-scored")},
)

EXPECTATION = Stage(
    id="expectation",
    summary="how the score without the infraction (B) is formed from the possible outcomes",
    # committee: the adjusted score is an appeals committee's (the case's adjusted_by, or an appeal that changed
    # the ruling), not the Director's at the table — an edition may give the power to vary a score to one only
    facts={"weighted": "bool", "illegal_outcomes": "bool", "poll": "bool", "judged": "bool", "committee": "bool",
           "scoring": SCORING},
    produces="apply",
    apply_options={
        "method": ("weighted-average", "threshold"),  # weight the outcomes, or select one by cumulative probability
        "outcomes": ("all", "legal"),                 # every outcome, or only those achievable legally (rescaled)
        "offending": ("complement", "own-view"),      # B' = the complement of B, or formed from the OS's view
        "favour": PARAMETER,                          # raise the weight of the result best for the NOS by this factor
        "minimum_polled": PARAMETER,                  # warn when fewer players were polled
        "nos_threshold": PARAMETER, "os_threshold": PARAMETER,       # method threshold: where selection stops
        "nos_from": ("most-favourable", "least-favourable"),         # method threshold: which end to start
        "os_from": ("most-favourable", "least-favourable"),          #   from, for each side's own view
        "nos_judged": ("likely", "at-all-probable"),  # method threshold, results judged in words: the word
        "os_judged": ("likely", "at-all-probable"),   #   each side's result must carry at least
    },
    apply_defaults={"offending": "complement", "favour": None, "minimum_polled": None, "nos_threshold": None,
                    "os_threshold": None, "nos_from": None, "os_from": None, "nos_judged": None, "os_judged": None},
)

SERIOUS_ERROR = Stage(
    id="serious-error",
    summary="C: what the non-offending side would have scored without its own extremely serious error or "
            "gambling action",
    facts={"serious_error": "bool", "scoring": SCORING},
    produces="award",
    award_keys=("C",),
    formula_names=frozenset({"A", "instead"}),
)

DAMAGE = Stage(
    id="damage",
    summary="whether the non-offending side was damaged, and by what; each side's score",
    facts={
        "A": "number", "B": "number", "C": "number",
        "D": "number", "DR": "number", "DS": "number",
        "serious_error": "bool", "scoring": SCORING,
    },
    produces="award",
    award_keys=("nos", "os"),
    formula_names=frozenset({"A", "B", "C", "A'", "B'", "C'", "D", "DR", "DS"}),
    outcomes=DAMAGE_OUTCOMES,
)

ARTIFICIAL = Stage(
    id="artificial",
    summary="one contestant's artificial adjusted score (at pairs a share of the top, at teams IMPs)",
    facts={"responsibility": RESPONSIBILITY, "other_responsibility": RESPONSIBILITY, "scoring": SCORING,
           "session": "number", "boards": "number"},
    produces="award",
    award_keys=("score",),
    formula_names=frozenset({"session"}),
    outcomes=ARTIFICIAL_OUTCOMES,
    no_award=("not-scored",),
)

EVENT = Stage(
    id="event",
    summary="event-level provisions applied to the two sides' scores",
    facts={"event": EVENTS, "scoring": SCORING, "balanced": "bool"},
    produces="award",
    hit="optional",
    award_keys=("NS", "EW"),
    formula_names=frozenset({"NS", "EW", "top"}),
)

PENALTY = Stage(
    id="penalty",
    summary="which players of the offending side bear a procedural penalty",
    facts={"event": EVENTS, "partner_blameless": "bool"},
    produces="apply",
    hit="optional",
    apply_options={"to": ("offender", "offender-and-partner", "side")},
)

REVOKE = Stage(
    id="revoke",
    summary="the tricks one established revoke transfers to the non-offending side",
    # legal_card_won: the offending player won a later trick with a card he could legally have played to the
    # revoke trick (given by the case when an edition's rule asks for it; absent otherwise)
    facts={"exception": DECLARED, "trick": "number", "offender_won": "bool", "side_won": "bool",
           "later_tricks": "number", "both_sides": "bool", "legal_card_won": "bool"},
    produces="award",
    award_keys=("tricks",),
    formula_names=frozenset({"later_tricks", "trick"}),
)

REVOKE_EQUITY = Stage(
    id="revoke-equity",
    summary="whether the trick transfer compensates the non-offending side, and what follows when not",
    facts={"exception": DECLARED, "both_sides": "bool", "tricks_after": "number", "tricks_without": "number"},
    produces="apply",
    apply_options={"adjust": ("no", "if-damaged", "as-if-no-revoke")},
)

STAGES: dict[str, Stage] = {s.id: s for s in (KIND, EXPECTATION, SERIOUS_ERROR, DAMAGE, ARTIFICIAL, EVENT, PENALTY,
                                              REVOKE, REVOKE_EQUITY)}
