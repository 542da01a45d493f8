"""The scripted human players (games_py/ginrummy/human.py) and the human's turn in the
Python game."""
from __future__ import annotations

import pytest

from games_py.cards import Card
from games_py.ginrummy import human


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def _view(places: str, unmatched_from: int, upcard: str | None = None, points: int = 0) -> human.HumanView:
    return human.HumanView(places=_cards(places), unmatched_from=unmatched_from, points=points,
                           upcard=Card.parse(upcard) if upcard else None,
                           pile=_cards(upcard) if upcard else (), knock=10, double=False, stock=31,
                           turn=1, variant="standard")


def test_simple_takes_an_upcard_that_joins_a_meld_and_draws_otherwise():
    simple = human.SimplePolicy()
    hand = "3C 3D 3S 9H KS 2C 6D 7D QH 10S"
    assert simple.draw(_view(hand, 4, "3H")) == human.UPCARD          # a fourth three
    assert simple.draw(_view(hand, 4, "8D")) == human.UPCARD          # 6D 7D 8D
    assert simple.draw(_view(hand, 4, "4H")) == human.DECK
    assert simple.draw(_view(hand, 4, None)) == human.DECK


def test_simple_discards_the_highest_unmatched_card_and_always_knocks():
    simple = human.SimplePolicy()
    view = _view("3C 3D 3S 9H KS 2C QH 10S 6D 7D AS", 4)
    assert simple.discard(view) == 5                                   # KS: 10 points, highest rank
    assert simple.discard(_view("3C 3D 3S 9H 10S JS", 4)) == 6         # JS beats 10S on rank
    assert simple.discard(_view("3C 3D 3S 4C 4D 4S", 7)) in range(1, 7)   # nothing unmatched
    assert simple.knock(view) is True


def test_random_policy_is_seeded_legal_and_uses_every_answer():
    view = _view("3C 3D 3S 9H KS 2C QH 10S 6D 7D AS", 4, "8D")
    first, second = human.policy_from("random:7"), human.policy_from("random:7")
    answers = [(p.draw(view), p.discard(view), p.knock(view)) for p in (first,) for _ in range(200)]
    again = [(second.draw(view), second.discard(view), second.knock(view)) for _ in range(200)]
    assert answers == again
    assert {a[0] for a in answers} == {human.UPCARD, human.DECK}
    assert {a[1] for a in answers} == set(range(1, 12))
    assert {a[2] for a in answers} == {True, False}
    other = human.policy_from("random:8")
    assert [(other.draw(view), other.discard(view), other.knock(view)) for _ in range(200)] != answers
    no_upcard = _view("3C 3D 3S 9H KS 2C QH 10S 6D 7D", 4)
    assert {first.draw(no_upcard) for _ in range(50)} == {human.DECK}


def test_checked_answers_refuse_what_the_prompt_does_not_accept():
    class Bad:
        def draw(self, view): return human.UPCARD
        def discard(self, view): return 11
        def knock(self, view): return 1
    view = human.HumanView(places=_cards("3C 3D 3S 9H KS") + (None,), unmatched_from=4, points=19,
                           upcard=None, pile=(), knock=10, double=False, stock=20, turn=3,
                           variant="standard")
    with pytest.raises(human.IllegalAnswer):
        human.checked_draw(Bad(), view)
    with pytest.raises(human.IllegalAnswer):
        human.checked_discard(Bad(), view)
    assert human.checked_knock(Bad(), view) is True


@pytest.mark.parametrize("text", ["", "simple:1", "random", "random:x", "greedy"])
def test_unknown_policies_are_refused(text):
    with pytest.raises(ValueError):
        human.policy_from(text)
