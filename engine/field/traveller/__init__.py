"""Travellers: one board's results at every table, with adjusted scores, scored as a whole field.

    title: Board 9
    rulebook: wbf-2017
    date: 2024-05-18              # optional: the rulebook as in force that day (default today)
    scoring: matchpoints          # matchpoints | cross-imps | butler
    board: {number: 9, vulnerability: None}
    tables:
      - {table: 1, ns: 1, ew: 11, result: 4H= S}
      - {table: 2, ns: 2, ew: 12, adjusted: [{result: 3NT= S, weight: 1/3}, {result: 3NT-1 S, weight: 2/3}]}
      - {table: 3, ns: 3, ew: 13, adjusted: {NS: [...], EW: [...]}}            # split weighting
      - {table: 4, ns: 4, ew: 14, artificial: {NS: avg-plus, EW: avg-minus}}

Each table has exactly one of ``result``, ``adjusted`` (one outcome, a weighted list, or a
split ``{NS: […], EW: […]}``, as in a case file) or ``artificial``. A PBN file's ScoreTable can
stand in for ``tables:``; its adjustments then come from a small YAML file naming the tables.

The modules, in the order a traveller goes through them:

    model       the file formats (pydantic) and the checked traveller (Traveller, TableLine)
    load        YAML travellers; the rulebook, its day and what-if; checks common to every source
    source_pbn  PBN ScoreTables (with an adjustments file)
    adjust      each adjusted table ruled by ruling.rule_case (the stages of `bridgelaw rule`),
                each artificial one by artificial.artificial_scores
    score       the whole field scored by fieldscore (matchpoints, cross-IMPs, butler)
    report      text, markdown, JSON, CSV and the rescored PBN
"""

from .adjust import TableReader
from .load import load_traveller
from .model import (SCORINGS, SIDES, AdjustmentModel, AdjustmentsModel, Printed, Side, TableLine, TableModel,
                    Traveller, TravellerModel)
from .score import PublishedCheck, ScoredBoard, ScoredSide, ScoredTable, published_checks, score_traveller
from .source_pbn import load_pbn_traveller

__all__ = ["load_traveller", "load_pbn_traveller", "score_traveller", "published_checks", "SCORINGS", "SIDES",
           "Side", "Traveller", "TableLine", "TravellerModel", "TableModel", "AdjustmentsModel", "AdjustmentModel",
           "Printed", "TableReader", "ScoredBoard", "ScoredTable", "ScoredSide", "PublishedCheck"]
