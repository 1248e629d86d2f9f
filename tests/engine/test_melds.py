"""Meld solver: worked examples of the rules, and a brute-force reference on random hands.

The reference below shares no code with engine.melds: a meld is valid if some target set (a rank) or
run (a suit and a window of positions) can hold its naturals, and the best arrangement is an
exhaustive search over every valid meld the hand contains.
"""

import random
from collections import Counter
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import RANKS, SUITS, deck, sort_key
from engine.melds import (
    Arrangement,
    MeldRules,
    best_arrangement,
    best_discards,
    best_with_layoffs,
    card_value,
    deadwood,
    gin_rules,
    is_valid_meld,
    thanasis_rules,
)
from engine.melds.compiled import compiled

# ----- brute-force reference ---------------------------------------------------------------------------

REF_VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}


def ref_kind(card, rules):
    if card.startswith("JK"):
        return "wild" if rules.jokers_wild else "dead"
    return "wild" if card[:-2] in rules.wild_ranks else "natural"


def ref_value(card, rules):
    return rules.joker_value if card.startswith("JK") else REF_VALUES[card[:-2]]


def ref_valid(cards, rules):
    """Is there a target set or run whose places can hold these naturals (wilds take the others)?

    Sets: any rank the naturals share; runs: every window of n places in the naturals' suit.
    """
    if len(set(cards)) != len(cards) or any(ref_kind(c, rules) == "dead" for c in cards):
        return False
    naturals = [(RANKS.index(c[:-2]) + 1, c[-2]) for c in cards if ref_kind(c, rules) == "natural"]
    n = len(cards)
    if len(naturals) < rules.min_naturals or (not naturals and not rules.all_wild_ok):
        return False
    held = [r for r, _ in naturals]
    if rules.set_min <= n <= rules.set_max and len(set(held)) <= 1:  # a set of the held rank
        suits = [s for _, s in naturals]
        if not rules.set_distinct_suits or (len(set(suits)) == len(suits) and n <= 4):
            return True
    if rules.run_min <= n <= rules.run_max and len({s for _, s in naturals}) <= 1 and len(set(held)) == len(held):
        for start in range(1, 15 - n + 1):  # a window of n places, 14 = ace high
            places = range(start, start + n)
            if (1 in places and (14 in places or not rules.ace_low)) or (14 in places and not rules.ace_high):
                continue
            if all(r in places or (r == 1 and 14 in places) for r in held):
                return True
    return False


def ref_all_melds(hand, rules):
    """Bitmasks of every subset of the hand that is a valid meld (pruned: naturals share a rank or a suit)."""
    n = len(hand)
    out = []

    def grow(start, mask, ranks, suits, size):
        if size >= 2 and ref_valid([hand[i] for i in range(n) if mask >> i & 1], rules):
            out.append(mask)
        for i in range(start, n):
            card = hand[i]
            kind = ref_kind(card, rules)
            if kind == "dead":
                continue
            r2, s2 = ranks, suits
            if kind == "natural":
                r2, s2 = ranks | {card[:-2]}, suits | {card[-2]}
                if len(r2) > 1 and len(s2) > 1:
                    continue
            grow(i + 1, mask | 1 << i, r2, s2, size + 1)

    grow(0, 0, frozenset(), frozenset(), 0)
    return out


def ref_deadwood(hand, rules):
    hand = list(hand)
    n = len(hand)
    melds = ref_all_melds(hand, rules)
    by_first = {i: [m for m in melds if m & -m == 1 << i] for i in range(n)}
    values = [ref_value(c, rules) for c in hand]

    @cache
    def best(mask):
        if not mask:
            return 0
        low = mask & -mask
        i = low.bit_length() - 1
        result = values[i] + best(mask ^ low)
        for meld in by_first[i]:
            if meld & mask == meld:
                result = min(result, best(mask ^ meld))
        return result

    # melds are indexed by their lowest card, so the search must branch on the lowest remaining card
    return best((1 << n) - 1)


# ----- strategies -------------------------------------------------------------------------------------

TWO_DECKS = deck(copies=2)
ONE_DECK = deck(copies=1)


def variant_rules():
    return st.builds(
        MeldRules,
        wild_ranks=st.sampled_from([frozenset(), frozenset({"7"}), frozenset({"A"}), frozenset({"K", "2"})]),
        jokers_wild=st.booleans(),
        set_min=st.just(3),
        set_max=st.sampled_from([3, 4]),
        set_distinct_suits=st.booleans(),
        run_min=st.sampled_from([3, 4]),
        run_max=st.sampled_from([4, 5, 13]),
        ace_low=st.booleans(),
        ace_high=st.booleans(),
        all_wild_ok=st.booleans(),
        min_naturals=st.sampled_from([0, 1, 2]),
        joker_value=st.sampled_from([25, 30]),
    )


@st.composite
def hands(draw, size, rules, max_wilds=4, copies=2, jokers=2):
    """A hand of `size` distinct cards; often from a narrow pool so that melds are dense."""
    cards = deck(copies=copies, jokers=jokers)
    wild_pool = [c for c in cards if ref_kind(c, rules) != "natural"]
    natural_pool = [c for c in cards if ref_kind(c, rules) == "natural"]
    if draw(st.booleans()):
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
        low = draw(st.integers(0, 7))
        ranks = RANKS[low : low + 6] + ("A", "K")
        narrow = [c for c in natural_pool if c[-2] in suits and c[:-2] in ranks]
        if len(narrow) >= size:
            natural_pool = narrow
    k = draw(st.integers(0, min(max_wilds, len(wild_pool), size)))
    wilds = draw(st.lists(st.sampled_from(wild_pool), min_size=k, max_size=k, unique=True)) if k else []
    naturals = draw(st.lists(st.sampled_from(natural_pool), min_size=size - k, max_size=size - k, unique=True))
    return draw(st.permutations(wilds + naturals))


@st.composite
def thanasis_cases(draw, size, max_wilds=4):
    rules = thanasis_rules(draw(st.sampled_from([*RANKS, None])))
    return rules, draw(hands(size, rules, max_wilds=max_wilds))


@st.composite
def gin_cases(draw, size):
    rules = gin_rules()
    return rules, draw(hands(size, rules, copies=1, jokers=0))


@st.composite
def variant_cases(draw, size, max_wilds=4):
    rules = draw(variant_rules())
    return rules, draw(hands(size, rules, max_wilds=max_wilds, jokers=4))


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----- arrangement consistency ----------------------------------------------------------------------------


def assert_consistent(hand, rules, arr: Arrangement):
    assert isinstance(arr, Arrangement)
    used = [c for meld in arr.melds for c in meld] + arr.deadwood
    assert Counter(used) == Counter(hand)
    assert arr.deadwood == sorted(arr.deadwood, key=sort_key)
    assert arr.points == sum(card_value(c, rules) for c in arr.deadwood)
    in_melds = {c for meld in arr.melds for c in meld}
    assert set(arr.wilds) == {c for c in in_melds if ref_kind(c, rules) == "wild"}
    for meld in arr.melds:
        assert is_valid_meld(meld, rules), meld
        assert ref_valid(meld, rules), meld
        assert_wild_faces_fit(meld, rules, arr.wilds)


def assert_wild_faces_fit(meld, rules, wilds):
    """Replacing each wild by the face it stands for must give a valid meld in display order."""
    faces = [wilds.get(c, c[:-1]) for c in meld]
    ranks = [RANKS.index(f[:-1]) + 1 for f in faces]
    suits = [f[-1] for f in faces]
    if len(set(ranks)) == 1:
        assert rules.set_min <= len(meld) <= rules.set_max
        if rules.set_distinct_suits:
            assert len(set(suits)) == len(suits)
        return
    assert len(set(suits)) == 1, faces
    if ranks[-1] == 1 and ranks[0] != 1:
        ranks[-1] = 14  # ace high closes the run
    assert ranks == list(range(ranks[0], ranks[0] + len(ranks))), faces
    assert (1 not in ranks or rules.ace_low) and (14 not in ranks or rules.ace_high)


# ----- worked examples: Thanasis ---------------------------------------------------------------------------

E1_HAND = ["7C2", "8H1", "9H1", "10H1", "KS1", "KD2", "KC1", "4S1", "5S1", "2D1", "QH2"]
E1_TABLE = {
    "QH2": 2, "5S1": 6, "4S1": 7, "2D1": 9, "8H1": 11, "9H1": 19,
    "7C2": 21, "10H1": 21, "KS1": 21, "KD2": 21, "KC1": 21,
}


def test_thanasis_e1_closable_cards():
    rules = thanasis_rules("7")
    assert best_discards(E1_HAND, rules) == E1_TABLE
    closable = {card for card, points in best_discards(E1_HAND, rules).items() if points <= 10}
    assert closable == {"QH2", "5S1", "4S1", "2D1"}


def test_thanasis_e1_best_close_arrangement():
    rules = thanasis_rules("7")
    arr = best_arrangement([c for c in E1_HAND if c != "QH2"], rules)
    assert arr.points == 2
    assert arr.deadwood == ["2D1"]
    assert sorted(map(sorted, arr.melds)) == sorted(
        map(sorted, [["4S1", "5S1", "7C2"], ["8H1", "9H1", "10H1"], ["KS1", "KD2", "KC1"]])
    )
    assert arr.wilds == {"7C2": "6S"}
    assert ["4S1", "5S1", "7C2"] in arr.melds  # the wild sits where the 6 goes


def test_thanasis_e1_discard_8h_uses_wild_as_jack():
    rules = thanasis_rules("7")
    arr = best_arrangement([c for c in E1_HAND if c != "8H1"], rules)
    assert arr.points == 11
    assert ["9H1", "10H1", "7C2", "QH2"] in arr.melds
    assert arr.wilds == {"7C2": "JH"}


@pytest.mark.parametrize("discard", sorted(E1_TABLE))
def test_thanasis_e1_each_discard(discard):
    rules = thanasis_rules("7")
    rest = [c for c in E1_HAND if c != discard]
    assert deadwood(rest, rules) == E1_TABLE[discard] == ref_deadwood(rest, rules)
    assert_consistent(rest, rules, best_arrangement(rest, rules))


def test_thanasis_e2_wild_left_out_counts_face_value():
    hand = ["5D1", "2S1", "6H1", "10C1", "KD1", "8S2", "JH1", "3C2", "QS1", "4D1"]
    rules = thanasis_rules("5")
    assert deadwood(hand, rules) == 68
    arr = best_arrangement(hand, rules)
    assert arr.melds == [] and arr.points == 68 and "5D1" in arr.deadwood
    with_joker = ["JK1" if c == "5D1" else c for c in hand]
    assert deadwood(with_joker, rules) == 88


def test_thanasis_e3_thanasis():
    hand = ["3H1", "4H1", "5H2", "6H1", "9C1", "9D2", "QS1", "JK2", "2S1", "AS2"]
    rules = thanasis_rules("Q")
    arr = best_arrangement(hand, rules)
    assert arr.points == 0 and arr.deadwood == []
    assert sorted(map(sorted, arr.melds)) == sorted(
        map(sorted, [["3H1", "4H1", "5H2", "6H1"], ["9C1", "9D2", "QS1"], ["AS2", "2S1", "JK2"]])
    )
    assert arr.wilds == {"QS1": "9S", "JK2": "3S"}
    assert_consistent(hand, rules, arr)


def test_thanasis_e4_no_wrapping():
    rules = thanasis_rules(None)
    assert deadwood(["KH1", "AH1", "2H2"], rules) == 13
    assert not is_valid_meld(["KH1", "AH1", "2H2"], rules)
    assert is_valid_meld(["QH1", "KH1", "AH1"], rules)
    assert best_arrangement(["AH1", "KH1", "QH1"], rules).melds == [["QH1", "KH1", "AH1"]]
    assert deadwood(["QH1", "KH1", "AH1"], rules) == 0


def test_thanasis_meld_rules():
    rules = thanasis_rules("7")
    assert is_valid_meld(["7C1", "7H2", "JK1"], rules)  # all wild
    assert is_valid_meld(["6S1", "7S1", "8S1"], rules)  # a wild standing for itself
    assert not is_valid_meld(["QH1", "QH2", "QS1"], rules)  # two naturals of one suit in a set
    assert is_valid_meld(["QH1", "QS1", "7D1", "JK1"], rules)
    assert not is_valid_meld(["QH1", "QS1", "QD1", "QC1", "JK1"], rules)  # a set has at most 4 cards
    assert not is_valid_meld(["AH1", "2H1", "JK1", "QH1", "KH1"], rules)
    assert not is_valid_meld(["KH1", "AH1", "2H1", "JK1"], rules)
    assert is_valid_meld(["AH1", "JK1", "3H1"], rules)
    assert card_value("7C1", rules) == 7 and card_value("JK2", rules) == 25 and card_value("KD1", rules) == 10


RAMI = MeldRules(ace_low=True, ace_high=True, all_wild_ok=False, min_naturals=2, joker_value=30)
RAMI40 = MeldRules(ace_low=False, ace_high=True, all_wild_ok=False, min_naturals=1, joker_value=15)
HEARTS = [f"{r}H1" for r in RANKS]


@pytest.mark.parametrize(
    ("rules", "cards", "valid"),
    [
        (thanasis_rules(None), ["KH1", "JK1", "2H1"], False),  # would wrap K-A-2
        (thanasis_rules(None), ["QH1", "JK1", "AH1"], True),  # JK1 = KH, ace high
        (thanasis_rules(None), ["JK1", "2H1", "3H1"], True),
        (thanasis_rules(None), HEARTS, True),  # A..K, ace low
        (thanasis_rules(None), [*HEARTS[1:], "AH1"], True),  # 2..A, ace high
        (thanasis_rules(None), [*HEARTS, "AH2"], False),  # the ace cannot be both ends
        (thanasis_rules(None), ["AH1", "AS1", "AD1"], True),
        (thanasis_rules(None), ["AH1", "KH1", "QH1", "JK1"], True),
        (thanasis_rules(None), ["AH1", "KH1", "2H1", "JK1"], False),
        (gin_rules(), ["AH1", "2H1", "3H1"], True),
        (gin_rules(), ["QH1", "KH1", "AH1"], False),
        (gin_rules(), ["7H1", "7S1", "7D1", "7C1"], True),
        (gin_rules(), ["JK1", "7S1", "7D1"], False),  # no wilds in Gin
        (RAMI40, ["AH1", "2H1", "3H1"], False),  # Rami 40: ace high only
        (RAMI40, ["QH1", "KH1", "AH1"], True),
        (RAMI40, ["10S1", "JK1", "JK2"], True),  # one natural is enough
        # rami.md E2: at least two naturals, no corner, no repeated suit in a set
        (RAMI, ["AS1", "JK1", "JK2"], False),
        (RAMI, ["KS1", "AS1", "2S1"], False),
        (RAMI, ["10D1", "10C1", "10D2"], False),
        (RAMI, ["5H1", "JK1", "JK2", "8H1"], True),
    ],
)
def test_meld_validity_edge_cases(rules, cards, valid):
    assert is_valid_meld(cards, rules) is valid
    assert ref_valid(cards, rules) is valid


def test_rami_jokers_need_two_naturals():
    hand = ["5H1", "JK1", "JK2", "8H1", "KD1"]
    arr = best_arrangement(hand, RAMI)
    assert arr.points == 10 and arr.melds == [["5H1", "JK1", "JK2", "8H1"]]
    assert arr.wilds == {"JK1": "6H", "JK2": "7H"}
    assert deadwood(["AS1", "JK1", "JK2"], RAMI) == 61  # no meld: 1 + 30 + 30


def test_thanasis_leftover_wilds_are_the_cheapest():
    # Two wilds, only one can be used in a meld: the joker (25) goes in the meld, the 2 (2) is left.
    rules = thanasis_rules("2")
    hand = ["JK1", "2C1", "9S1", "10S1", "KD1", "4H1", "6C1", "8D1", "QH1", "AC1"]
    arr = best_arrangement(hand, rules)
    assert_consistent(hand, rules, arr)
    assert arr.points == deadwood(hand, rules) == ref_deadwood(hand, rules)


# ----- worked examples: Gin -----------------------------------------------------------------------------------


def test_gin_e1_knock_and_layoffs():
    rules = gin_rules()
    knocker = ["AS1", "2S1", "3S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "4D1"]
    arr = best_arrangement(knocker, rules)
    assert arr.points == 4 and arr.deadwood == ["4D1"]
    table = [["AS1", "2S1", "3S1"], ["7H1", "7D1", "7C1"], ["9C1", "10C1", "JC1"]]
    opponent = ["8C1", "7S1", "QC1", "KD1", "KS1", "4H1", "5H1", "6H1", "2D1", "9D1"]
    result, layoffs = best_with_layoffs(opponent, table, rules)
    assert result.points == 31
    assert result.melds == [["4H1", "5H1", "6H1"]]
    assert result.deadwood == sorted(["KD1", "KS1", "2D1", "9D1"], key=sort_key)
    assert sorted(layoffs) == sorted([("7S1", 1), ("8C1", 2), ("QC1", 2)])
    assert result.points - arr.points == 27


def test_gin_layoffs_chain_own_cards():
    rules = gin_rules()
    table = [["2H1", "3H1", "4H1", "5H1"]]
    _, layoffs = best_with_layoffs(["7H1", "6H1", "KS1"], table, rules)
    assert layoffs == [("6H1", 0), ("7H1", 0)]  # the 6 must go first
    result, layoffs = best_with_layoffs(["7H1", "KS1", "QD1"], table, rules)
    assert layoffs == [] and result.points == 27  # the 7 alone does not fit


def test_gin_layoffs_keep_own_meld_when_better():
    rules = gin_rules()
    table = [["7S1", "7D1", "7C1"]]
    # 7H could be laid off, but it is worth more in the own run 6H-7H-8H.
    result, layoffs = best_with_layoffs(["6H1", "7H1", "8H1", "KC1"], table, rules)
    assert result.points == 10 and layoffs == []


def test_gin_e5_meld_validity():
    rules = gin_rules()
    assert is_valid_meld(["AH1", "2H1", "3H1"], rules)
    assert not is_valid_meld(["QH1", "KH1", "AH1"], rules)
    assert deadwood(["QH1", "KH1", "AH1"], rules) == 21


def test_gin_ties_prefer_cards_in_sets():
    rules = gin_rules()
    arr = best_arrangement(["JH1", "QH1", "KH1", "QS1", "QD1"], rules)
    assert arr.points == 20
    assert arr.melds == [["QS1", "QH1", "QD1"]]


def test_arrangement_is_deterministic():
    rules = thanasis_rules("9")
    hand = ["9C1", "JK1", "4H1", "5H1", "6H2", "6S1", "6D1", "QC1", "KC2", "2D1", "3D1"]
    first = best_arrangement(hand, rules)
    for seed in range(5):
        shuffled = hand[:]
        random.Random(seed).shuffle(shuffled)
        assert best_arrangement(shuffled, rules) == first


def test_bad_input():
    rules = thanasis_rules("7")
    with pytest.raises(ValueError):
        deadwood(["ZZ1", "2S1"], rules)
    with pytest.raises(ValueError):
        deadwood(["2S1", "2S1"], rules)
    with pytest.raises(ValueError):
        best_with_layoffs(["2S1"], [["2S1", "9D1", "KC1"]], gin_rules())
    with pytest.raises(ValueError):
        thanasis_rules("Z")


def test_duplicates_from_two_decks():
    rules = thanasis_rules(None)
    hand = ["4S1", "5S1", "6S1", "4S2", "5S2", "6S2", "QH1", "QH2", "QD1", "QC1"]
    assert deadwood(hand, rules) == 10  # two identical runs, one set QH-QD-QC, one QH left
    assert deadwood(hand, rules) == ref_deadwood(hand, rules)
    assert_consistent(hand, rules, best_arrangement(hand, rules))


def test_empty_and_all_wild_hands():
    rules = thanasis_rules("7")
    assert deadwood([], rules) == 0
    assert best_arrangement([], rules) == Arrangement(0, [], [], {})
    hand = ["7S1", "7H1", "JK1", "JK2", "7D2"]
    arr = best_arrangement(hand, rules)
    assert arr.points == 0
    assert_consistent(hand, rules, arr)
    assert deadwood(["7S1", "JK1"], rules) == 32


# ----- properties against the reference -------------------------------------------------------------------------


@SETTINGS
@given(case=st.one_of(thanasis_cases(10), thanasis_cases(11)))
def test_thanasis_matches_reference(case):
    rules, hand = case
    expected = ref_deadwood(hand, rules)
    assert deadwood(hand, rules) == expected
    arr = best_arrangement(hand, rules)
    assert arr.points == expected
    assert_consistent(hand, rules, arr)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=thanasis_cases(10, max_wilds=9))
def test_thanasis_many_wilds_match_reference(case):
    rules, hand = case
    assert deadwood(hand, rules) == ref_deadwood(hand, rules)
    assert_consistent(hand, rules, best_arrangement(hand, rules))


@SETTINGS
@given(case=st.one_of(gin_cases(10), gin_cases(11)))
def test_gin_matches_reference(case):
    rules, hand = case
    expected = ref_deadwood(hand, rules)
    assert deadwood(hand, rules) == expected
    arr = best_arrangement(hand, rules)
    assert arr.points == expected
    assert_consistent(hand, rules, arr)


@SETTINGS
@given(case=st.one_of(variant_cases(10), variant_cases(11), variant_cases(14, max_wilds=2)))
def test_rule_variants_match_reference(case):
    rules, hand = case
    expected = ref_deadwood(hand, rules)
    assert deadwood(hand, rules) == expected
    arr = best_arrangement(hand, rules)
    assert arr.points == expected
    assert_consistent(hand, rules, arr)


@SETTINGS
@given(rules=variant_rules(), data=st.data())
def test_is_valid_meld_matches_reference(rules, data):
    size = data.draw(st.integers(1, 7))
    cards = data.draw(hands(size, rules, max_wilds=3, jokers=4))
    assert is_valid_meld(cards, rules) == ref_valid(cards, rules)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.one_of(thanasis_cases(11), gin_cases(11), variant_cases(11)))
def test_best_discards_is_min_over_single_solves(case):
    rules, hand = case
    result = best_discards(hand, rules)
    assert set(result) == set(hand)
    for card in hand:
        assert result[card] == deadwood([c for c in hand if c != card], rules)


def ref_layoffs(hand, table, rules):
    """Every way to give each table meld a (possibly empty) group of the hand's cards."""
    options = []
    for meld in table:
        groups = [()]
        for size in range(1, 5):
            groups += [g for g in combinations(hand, size) if ref_valid(meld + list(g), rules)]
        options.append(groups)
    best = None
    for choice in product(*options):
        used = [c for g in choice for c in g]
        if len(set(used)) != len(used):
            continue
        points = ref_deadwood([c for c in hand if c not in used], rules)
        best = points if best is None else min(best, points)
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_gin_showdown_matches_reference(seed):
    rules = gin_rules()
    rng = random.Random(seed)
    cards = ONE_DECK[:]
    rng.shuffle(cards)
    # Bias towards hands with melds: deal from a few suits and ranks.
    cards.sort(key=lambda c: (rng.random() < 0.5, rng.random()))
    knocker, opponent = cards[:10], cards[10:20]
    table = best_arrangement(knocker, rules).melds
    result, layoffs = best_with_layoffs(opponent, table, rules)
    assert result.points == ref_layoffs(opponent, table, rules)
    laid = [c for c, _ in layoffs]
    assert Counter(laid + [c for m in result.melds for c in m] + result.deadwood) == Counter(opponent)
    grown = [list(m) for m in table]
    for card, index in layoffs:
        grown[index].append(card)
        assert is_valid_meld(grown[index], rules)  # each lay-off is legal when made
    assert_consistent([c for c in opponent if c not in laid], rules, result)


@pytest.mark.slow
def test_thousands_of_random_hands_against_reference():
    rng = random.Random(20240601)
    pool = deck(copies=2, jokers=2)
    for i in range(3000):
        if i % 3 == 2:
            rules, hand = gin_rules(), rng.sample(ONE_DECK, 10 + i % 2)
        else:
            rules, hand = thanasis_rules(rng.choice([*RANKS, None])), rng.sample(pool, 10 + i % 2)
        assert deadwood(hand, rules) == ref_deadwood(hand, rules), (hand, rules)


# ----- the plain fast path (engine.melds.plain) against the generic solver ------------------------------------


def generic(func, hand, rules):
    """`func` with engine.melds.plain switched off: the generic solver's answer."""
    comp = compiled(rules)
    cap = comp.plain_cap
    comp.plain_cap = 0
    try:
        return func(hand, rules)
    finally:
        comp.plain_cap = cap


@st.composite
def plain_cases(draw, size):
    """Rules engine.melds.plain serves, and hands without wilds (dead jokers allowed), one copy per face."""
    rules = draw(st.one_of(st.just(gin_rules()), st.builds(
        MeldRules, jokers_wild=st.just(False), set_max=st.sampled_from([3, 4, 6]),
        set_distinct_suits=st.booleans(), run_max=st.sampled_from([5, 6, 13]), all_wild_ok=st.booleans(),
        min_naturals=st.sampled_from([0, 1, 2, 3]), joker_value=st.sampled_from([15, 25]))))
    assert compiled(rules).plain_cap
    return rules, draw(hands(size, rules, max_wilds=2, copies=1, jokers=2))


@SETTINGS
@given(case=st.one_of(plain_cases(10), plain_cases(11), plain_cases(7), plain_cases(13)))
def test_plain_path_is_the_generic_answer(case):
    rules, hand = case
    assert deadwood(hand, rules) == generic(deadwood, hand, rules) == ref_deadwood(hand, rules)
    assert best_arrangement(hand, rules) == generic(best_arrangement, hand, rules)
    assert best_discards(hand, rules) == generic(best_discards, hand, rules)


def test_plain_path_on_dense_gin_hands():
    """Many random hands from few suits and ranks (sets of four, long runs, three set ranks)."""
    rules = gin_rules()
    rng = random.Random(20261203)
    for _ in range(1500):
        suits = rng.sample(SUITS, rng.randint(1, 4))
        low = rng.randint(0, 6)
        pool = [c for c in ONE_DECK if c[-2] in suits and low <= RANKS.index(c[:-2]) < low + rng.choice((5, 7, 13))]
        hand = rng.sample(pool, min(len(pool), rng.choice((7, 10, 11, 13))))
        assert deadwood(hand, rules) == generic(deadwood, hand, rules)
        assert best_arrangement(hand, rules) == generic(best_arrangement, hand, rules)
        assert best_discards(hand, rules) == generic(best_discards, hand, rules)


def test_plain_path_refuses_what_it_does_not_serve():
    assert compiled(gin_rules()).plain_cap == 4
    assert not compiled(thanasis_rules("7")).plain_cap  # ace low and high
    assert not compiled(MeldRules(run_min=4)).plain_cap
    assert not compiled(MeldRules(run_max=4)).plain_cap
    with pytest.raises(ValueError):
        deadwood(["JK1", "JK1", "2S1"], gin_rules())  # a dead joker twice
    assert deadwood(["JK1", "JK2", "2S1", "3S1", "4S1"], gin_rules()) == 50
    arr = best_arrangement(["JK2", "AS1", "2S1", "3S1", "KD1"], gin_rules())
    assert arr == Arrangement(35, [["AS1", "2S1", "3S1"]], ["KD1", "JK2"], {})
