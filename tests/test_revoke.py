"""Law 64: trick transfers after an established revoke and the 64C equity check.

The law is the rulebooks' (their ``revoke`` and ``revoke-equity`` stages, rules/shared/wbf-law64.yaml
and each edition's own exceptions); engine/ruling/revoke.py keeps the arithmetic. Examples from public
sources are named in each test; the law's paragraphs are quoted in rules/wbf-2007.yaml and
rules/wbf-2017.yaml.
"""

import pytest

from bridgelaw import rulebook
from bridgelaw.core import bridge
from bridgelaw.ruling import revoke as rv
from bridgelaw.ruling.revoke import Revoke, RevokeError

B07, B17 = rulebook.get("wbf-2007"), rulebook.get("wbf-2017")
BOOKS = {"2007": B07, "2017": B17}

# the 64B exceptions a case may name, and the paragraph each edition gives for it
EXCEPTIONS = {"subsequent-same-suit": "64B2", "faced-card": "64B3", "after-next-deal-call": "64B4",
              "after-round": "64B5", "both-sides": "64B7"}


def R(text):
    return bridge.parse_result(text)


def transfer(revoke, book=B17, on_board=None):
    return rv.transfer(book, revoke, on_board=on_board)


def rectify(result, revokes, book=B17):
    transfers = [rv.transfer(book, r, on_board=revokes) for r in revokes]
    return rv.rectify(result, revokes, transfers), transfers


def equity(after, without, offender_or_revokes, *, edition, subsequent_same_suit=False):
    revokes = offender_or_revokes if isinstance(offender_or_revokes, list) else [
        Revoke(trick=1, offender=offender_or_revokes, offender_won=False, side_won=True, later_tricks=0,
               exception="subsequent-same-suit" if subsequent_same_suit else None)]
    return rv.equity(BOOKS[edition], after, without, revokes)


# --- 64A and 64B: how many tricks -----------------------------------------------------------

def test_offending_player_won_the_revoke_trick_and_a_later_one_two_tricks_64a1():
    t = transfer(Revoke(trick=5, offender="W", offender_won=True, side_won=True, later_tricks=3))
    assert (t.tricks, t.paragraph) == (2, "64A1")


def test_offending_player_won_the_revoke_trick_but_no_later_trick_one_trick_64a1():
    t = transfer(Revoke(trick=11, offender="W", offender_won=True, side_won=True, later_tricks=0))
    assert (t.tricks, t.paragraph) == (1, "64A1")


def test_revoke_card_did_not_win_but_the_side_won_a_later_trick_one_trick_64a2():
    # EBU forum "Revoke" (ebu.co.uk/forum/discussion/60/revoke): the revoke card (a club) did not win
    # the trick, a later diamond did; the TD transferred two tricks (the 1997 reading). Under the
    # 2007 and 2017 Laws "Law 64A2 transfers 1 trick automatically ... Not more."
    t = transfer(Revoke(trick=4, offender="N", offender_won=False, side_won=False, later_tricks=3))
    assert (t.tricks, t.paragraph) == (1, "64A2")


def test_dummy_winning_the_revoke_trick_is_not_the_declarer_winning_it():
    # BBO forum "Law 64B2" (pran, Dec 2014): declarer discards on dummy's club queen (his first
    # revoke; dummy wins), later ruffs dummy's fourth club (a second revoke in clubs): one trick for
    # the first (64A2), none for the second (64B2); 64C then restores equity.
    first = transfer(Revoke(trick=3, offender="S", offender_won=False, side_won=True, later_tricks=8))
    second = transfer(Revoke(trick=4, offender="S", offender_won=True, side_won=True, later_tricks=7,
                             exception="subsequent-same-suit"))
    assert (first.tricks, first.paragraph) == (1, "64A2")
    assert (second.tricks, second.paragraph) == (0, "64B2")


def test_had_he_ruffed_the_queen_it_would_be_two_tricks():
    # Same thread: "if the offender in his third club trick had ruffed ... Law 64A1 instead of Law
    # 64A2 would have applied on the first revoke, resulting in a two tricks rectification."
    t = transfer(Revoke(trick=3, offender="S", offender_won=True, side_won=True, later_tricks=8))
    assert (t.tricks, t.paragraph) == (2, "64A1")


def test_offending_side_won_nothing_from_the_revoke_on_no_transfer_64b1():
    t = transfer(Revoke(trick=9, offender="E", offender_won=False, side_won=False, later_tricks=0))
    assert (t.tricks, t.paragraph) == (0, "64B1")


def test_twelfth_trick_no_transfer_64b6():
    t = transfer(Revoke(trick=12, offender="E", offender_won=True, side_won=True, later_tricks=1))
    assert (t.tricks, t.paragraph) == (0, "64B6")


@pytest.mark.parametrize("edition", BOOKS)
@pytest.mark.parametrize("exception, ref", sorted(EXCEPTIONS.items()))
def test_each_64b_exception_transfers_nothing(exception, ref, edition):
    t = transfer(Revoke(trick=2, offender="E", offender_won=True, side_won=True, later_tricks=4, exception=exception),
                 BOOKS[edition])
    assert (t.tricks, t.paragraph) == (0, ref)


def test_2017_adds_64b8_a_revoke_corrected_under_62c3():
    # 2017 Law 63B: an established revoke "may no longer be corrected (except ... as in Law 62C3)"
    t = transfer(Revoke(trick=2, offender="E", offender_won=True, side_won=True, later_tricks=4, exception="corrected"))
    assert (t.tricks, t.paragraph, t.rule.cites) == (0, "64B8", ("64B8", "62C3"))
    with pytest.raises(RevokeError, match="'corrected' is not an exception wbf-2007 lists"):
        transfer(Revoke(trick=2, offender="E", offender_won=True, side_won=True, later_tricks=4, exception="corrected"), B07)


def test_the_exceptions_a_case_may_name_are_each_editions_words():
    assert set(B07.words["exception"]) == {"none", *EXCEPTIONS}
    assert set(B17.words["exception"]) == {"none", *EXCEPTIONS, "corrected"}
    assert "penalty card" in B17.words["exception"]["faced-card"] and "penalty card" not in B07.words["exception"]["faced-card"]


# --- the result after the transfer ------------------------------------------------------------

def test_defender_revokes_declarer_gains_two_tricks():
    after, transfers = rectify(R("4S-1 S"), [Revoke(trick=6, offender="W", offender_won=True, side_won=True,
                                                    later_tricks=2)])
    assert after.text == "4S+1 S"
    assert [t.paragraph for t in transfers] == ["64A1"]


def test_declarer_revokes_loses_one_trick():
    after, _ = rectify(R("3NT+1 S"), [Revoke(trick=7, offender="N", offender_won=False, side_won=True,
                                             later_tricks=3)])
    assert after.text == "3NT= S"


def test_two_revokes_by_one_player_in_different_suits_count_separately():
    after, transfers = rectify(R("4H= N"), [
        Revoke(trick=2, offender="E", offender_won=True, side_won=True, later_tricks=2),
        Revoke(trick=8, offender="E", offender_won=False, side_won=False, later_tricks=1),
    ])
    assert [t.tricks for t in transfers] == [2, 1]
    assert after.text == "4H+3 N"


def test_transfer_never_exceeds_the_tricks_won_from_the_revoke_on():
    # 64A1 gives two tricks, but the offenders won only the revoke trick itself and nothing later.
    after, _ = rectify(R("2S= E"), [Revoke(trick=13, offender="E", offender_won=True, side_won=True,
                                           later_tricks=0)])
    assert after.text == "2S-1 E"


def test_both_sides_revoked_is_64b7_marked_or_not():
    # the facts say it (offenders on both sides): 64B7 applies whether or not the case names the exception
    after, transfers = rectify(R("4S= S"), [Revoke(trick=3, offender="W", offender_won=True, side_won=True, later_tricks=1),
                                            Revoke(trick=3, offender="S", offender_won=False, side_won=True, later_tricks=5)])
    assert after.text == "4S= S" and {t.paragraph for t in transfers} == {"64B7"}
    after, transfers = rectify(R("4S= S"), [
        Revoke(trick=3, offender="W", offender_won=True, side_won=True, later_tricks=1, exception="both-sides"),
        Revoke(trick=3, offender="S", offender_won=False, side_won=True, later_tricks=5, exception="both-sides")])
    assert after.text == "4S= S" and {t.paragraph for t in transfers} == {"64B7"}


# --- 64C: is the non-offending side compensated? ---------------------------------------------

def test_transfer_leaves_the_declarer_a_trick_short_adjust_64c1_in_2017_64c_in_2007():
    after, _ = rectify(R("6S-2 S"), [Revoke(trick=4, offender="E", offender_won=False, side_won=True, later_tricks=2)])
    assert after.text == "6S-1 S"
    e17 = equity(after, R("6S= S"), "E", edition="2017")
    e07 = equity(after, R("6S= S"), "E", edition="2007")
    assert (e17.nos_tricks_after, e17.nos_tricks_without, e17.adjust, e17.paragraph) == (11, 12, "if-damaged", "64C1")
    assert (e07.adjust, e07.paragraph) == ("if-damaged", "64C")


def test_transfer_worth_more_than_the_revoke_cost_stands():
    after, _ = rectify(R("4S= S"), [Revoke(trick=5, offender="W", offender_won=True, side_won=True, later_tricks=1)])
    e = equity(after, R("4S= S"), "W", edition="2017")
    assert after.text == "4S+2 S" and e.adjust == "no"


def test_defenders_are_the_non_offending_side_when_declarer_revokes():
    after, _ = rectify(R("3NT+2 N"), [Revoke(trick=6, offender="N", offender_won=False, side_won=True, later_tricks=4)])
    e = equity(after, R("3NT-1 N"), "N", edition="2017")
    assert after.text == "3NT+1 N"
    assert (e.nos_tricks_after, e.nos_tricks_without, e.adjust) == (3, 5, "if-damaged")


def test_subsequent_revoke_in_the_same_suit_2017_cites_64c2a():
    after, _ = rectify(R("4S= S"), [
        Revoke(trick=3, offender="S", offender_won=False, side_won=True, later_tricks=8),
        Revoke(trick=4, offender="S", offender_won=True, side_won=True, later_tricks=7, exception="subsequent-same-suit")])
    assert after.text == "4S-1 S"
    e = equity(after, R("4S-2 S"), "S", edition="2017", subsequent_same_suit=True)
    assert (e.adjust, e.paragraph) == ("if-damaged", "64C2(a)")
    assert equity(after, R("4S-2 S"), "S", edition="2007", subsequent_same_suit=True).paragraph == "64C"


# --- facts that cannot all be true ------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    (dict(trick=0, offender="E", offender_won=False, side_won=False, later_tricks=0), "1 to 13"),
    (dict(trick=10, offender="E", offender_won=False, side_won=False, later_tricks=4), "only 3 remain"),
    (dict(trick=3, offender="E", offender_won=True, side_won=False, later_tricks=0), "side won it too"),
    (dict(trick=3, offender="X", offender_won=False, side_won=False, later_tricks=0), "N, E, S or W"),
])
def test_impossible_facts_are_refused(kwargs, message):
    with pytest.raises(RevokeError, match=message):
        Revoke(**kwargs)


def test_an_exception_the_rulebook_does_not_list_is_refused_with_a_suggestion():
    with pytest.raises(RevokeError, match="'late' is not an exception wbf-2017 lists"):
        transfer(Revoke(trick=3, offender="E", offender_won=False, side_won=False, later_tricks=0, exception="late"))
    with pytest.raises(RevokeError, match="did you mean 'after-round'"):
        transfer(Revoke(trick=3, offender="E", offender_won=False, side_won=False, later_tricks=0, exception="after-rond"))


def test_more_tricks_from_the_revoke_on_than_the_offenders_won_is_refused():
    with pytest.raises(RevokeError, match="only 3 in all"):
        rectify(R("4S= S"), [Revoke(trick=2, offender="E", offender_won=True, side_won=True, later_tricks=5)])


def test_equity_needs_the_same_contract():
    with pytest.raises(RevokeError, match="same contract"):
        equity(R("4S= S"), R("3NT= N"), "E", edition="2017")


def test_2017_64c2b_both_sides_revoked_the_score_as_if_neither_had():
    revokes = [Revoke(trick=3, offender="W", offender_won=True, side_won=True, later_tricks=1),
               Revoke(trick=3, offender="S", offender_won=False, side_won=True, later_tricks=5)]
    e17 = equity(R("4S= S"), R("4S+1 S"), revokes, edition="2017")
    e07 = equity(R("4S= S"), R("4S+1 S"), revokes, edition="2007")
    assert (e17.paragraph, e17.adjust) == ("64C2(b)", "as-if-no-revoke")
    assert (e07.paragraph, e07.adjust) == ("64C", "if-damaged")   # 2007: 64C, from the first revoke's opponents' view
