"""The field: a board's results at every table, and whole results files — one model, one scorer.

    model          the field model: event → sessions → boards → lines (a traveller is an event of one board)
    cells          what one cell of a results file may hold: scores, score codes (A+, A6040, Bye …), numbers, ids
    pbn_file       PBN text: games, tags and score tables with their positions; rewriting tables in place
    pbn_results    a PBN results file as the field model
    usebio         a USEBIO results file as the field model, and written back
    traveller      a YAML traveller, or one board of a results file with its adjustments file
    rulings        a TD's rulings file, applied to an event's lines
    adjust         adjusted, artificial and penalised lines ruled by the case ruling path (rule_case)
    fieldscore     the arithmetic: matchpoints (Neuberg), cross-IMPs and butler of one direction's field
    score          one routine scoring a session of any of them, with the parameters each method reads
    adjustment_cell, writers   the corrected file: an Adjustment cell per ruled line, PBN and USEBIO
    run            read, rule, score, write: what ``bridgelaw event`` does
"""
