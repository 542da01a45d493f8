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


# -- the human's turn in the Python game -------------------------------------------------------
class Recording:
    """Wraps a policy and keeps every question with its view and answer."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.asked: list[tuple[str, human.HumanView, object]] = []

    def _ask(self, what: str, view: human.HumanView):
        answer = getattr(self.policy, what)(view)
        self.asked.append((what, view, answer))
        return answer

    def draw(self, view):
        return self._ask("draw", view)

    def discard(self, view):
        return self._ask("discard", view)

    def knock(self, view):
        return self._ask("knock", view)


def _recorded(monkeypatch, run):
    """``run()`` with every policy it makes recorded: its events, and the questions the last
    policy was asked."""
    made = []
    real = human.policy_from

    def recording(text):
        made.append(Recording(real(text)))
        return made[-1]
    monkeypatch.setattr(human, "policy_from", recording)
    events = run()
    return events, made[-1].asked


def _recorded_trace(monkeypatch, settings, hands):
    from games_py.ginrummy import game
    return _recorded(monkeypatch, lambda: game.python_trace(settings, hands))


PY_CASES = [((13, 45, 12, 34), "standard", "simple"), ((9, 15, 33, 21), "oklahoma", "random:1"),
            ((21, 2, 7, 50), "cowboy", "random:5"), ((0, 0, 0, 0), "standard", "random:2")]


@pytest.mark.parametrize("time,variant,policy", PY_CASES)
def test_each_answer_is_what_the_trace_shows(monkeypatch, time, variant, policy):
    from games_py.ginrummy import game
    settings = game.Settings(time=time, variant=variant, demo=False, human=policy)
    events, asked = _recorded_trace(monkeypatch, settings, 4)
    mine = [e for e in events if e.get("player") == "you" and e["event"] in ("draw", "discard")]
    draws = [a for a in asked if a[0] == "draw"]
    discards = [a for a in asked if a[0] == "discard"]
    assert [e["from"] for e in mine if e["event"] == "draw"] == [a[2] for a in draws]
    assert [e["card"] for e in mine if e["event"] == "discard"] == \
        [str(view.places[place - 1]) for _what, view, place in discards]
    for _what, view, _answer in draws:                      # 10 cards in hand, the pile's top offered
        assert len(view.cards) == 10 and view.upcard == (view.pile[-1] if view.pile else None)
    for _what, view, _answer in discards:                   # 11 cards after the draw
        assert len(view.cards) == 11 and view.unmatched_from == 12 - len(view.unmatched())
    knocks = [a for a in asked if a[0] == "knock"]
    for _what, view, _answer in knocks:                     # asked only when allowed (line 5770)
        assert view.points <= view.knock or view.points == 0
    said_yes = sum(1 for a in knocks if a[2])
    assert said_yes == sum(1 for e in events if e["event"] in ("knock", "gin") and e["player"] == "you")


def test_the_simple_policy_always_knocks_when_asked(monkeypatch):
    from games_py.ginrummy import game
    settings = game.Settings(time=(13, 45, 12, 34), demo=False, human="simple")
    events, asked = _recorded_trace(monkeypatch, settings, 3)
    knocks = [a for a in asked if a[0] == "knock"]
    assert knocks and all(answer is True for _w, _v, answer in knocks)
    ends = [e for e in events if e["event"] in ("knock", "gin") and e["player"] == "you"]
    assert len(ends) == len(knocks)


def test_a_question_costs_two_message_colours_and_your_arrangement_no_thinking_pause():
    """Lines 5320-5460 and 5750-5890: the prompt and the cleared line are two messages, one
    FNR(4) each on a colour display; no question, no RND.  Line 8400: the thinking pause
    is only for the hand of the player FNCOMP says the computer plays."""
    from games_py.ginrummy import deal as original
    from games_py.ginrummy.computer import DRAW, KNOCK, Hand, arrange
    from games_py.ginrummy.human_hand import your_seat
    _s, dealt, random = original.first_deal((13, 45, 12, 34), sound=True, colour=True)
    hand = Hand.dealt(dealt.deck, dealt.dealer, "standard", random, seats=your_seat(human.SimplePolicy()))
    g, t = random.generator, hand.t

    def spent(action):
        before = g.calls
        result = action()
        return g.calls - before, result
    # this deal's hand for you (KH KD AH 5H 2H 7H 5D 10C JS 9S) has no melds, so no shared cards
    assert spent(lambda: arrange(t, 1, 10, random, moving=hand.plays_itself(1)))[0] == 0
    assert spent(lambda: arrange(t, 1, 10, random, moving=True))[0] >= 2
    assert not hand.plays_itself(1) and hand.plays_itself(2)
    assert spent(lambda: hand.decide(DRAW, 1)) == (2, False)        # QC joins no meld: deck
    t.knock_set, t.knock_value, t.pv[1] = True, 10, 11
    assert spent(lambda: hand.decide(KNOCK, 1)) == (0, False)              # above the knock value
    t.pv[1] = 10
    assert spent(lambda: hand.decide(KNOCK, 1)) == (2, True)               # asked, and simple knocks
    t.knock_value, t.pv[1] = 0, 0
    assert spent(lambda: hand.decide(KNOCK, 1)) == (2, True)               # gin is always asked
    t.knock_set = False
    assert spent(lambda: hand.decide(KNOCK, 1)) == (0, False)              # no knock value yet


def test_a_knock_declined_is_written_with_your_points(monkeypatch):
    from games_py.ginrummy import game
    settings = game.Settings(time=(8, 1, 1, 2), demo=False, human="random:1")
    events, asked = _recorded_trace(monkeypatch, settings, 2)
    declined = [e for e in events if e["event"] == "knock_declined"]
    noes = [view for what, view, answer in asked if what == "knock" and not answer]
    assert declined and len(declined) == len(noes)
    assert [e["points"] for e in declined] == [view.points for view in noes]


def test_demo_and_human_exclude_each_other():
    from games_py.ginrummy import game
    with pytest.raises(ValueError):
        game.Settings(time=(1, 2, 3, 4), demo=True, human="simple")
    with pytest.raises(ValueError):
        game.Settings(time=(1, 2, 3, 4), demo=False, human="nobody")


def test_the_trace_command_takes_human_and_writes_it_in_the_start_event(tmp_path):
    import json
    from click.testing import CliRunner
    from games_py.ginrummy import cli
    out = tmp_path / "t.jsonl"
    result = CliRunner().invoke(cli.main, ["trace", "--time", "10:00", "--human", "random:3",
                                           "--hands", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert events[0]["human"] == "random:3" and events[0]["demo"] is False
    assert sum(1 for e in events if e["event"] == "deal") >= 2
    bad = CliRunner().invoke(cli.main, ["trace", "--time", "10:00", "--human", "greedy"])
    assert bad.exit_code == 2 and "greedy" in bad.output
    both = CliRunner().invoke(cli.main, ["trace", "--time", "10:00", "--human", "simple", "--demo"])
    assert both.exit_code == 2


# -- against the original ----------------------------------------------------------------------
from tests.machine_helpers import needs_originals  # noqa: E402

# the first two run on every test run (about 15 s each); the others are slow (pytest -m slow)
ORIGINAL_CASES = [((13, 45, 12, 34), "standard", True, "simple"),
                  ((8, 1, 1, 2), "standard", True, "random:1"),        # a knock declined
                  pytest.param((9, 15, 33, 21), "oklahoma", False, "random:1", marks=pytest.mark.slow),
                  pytest.param((21, 2, 7, 50), "cowboy", True, "random:5", marks=pytest.mark.slow),
                  pytest.param((6, 30, 0, 5), "cowboy", False, "simple", marks=pytest.mark.slow)]


def _strip(events):
    from games_py.ginrummy import trace
    return [{k: v for k, v in e.items() if k not in trace.METADATA_KEYS} for e in events]


@needs_originals
@pytest.mark.parametrize("time,variant,sound,policy", ORIGINAL_CASES)
def test_two_hands_match_the_original_question_for_question(monkeypatch, time, variant, sound, policy):
    """Both sides ask the policy the same questions from the same views, and write the
    same events (two hands: a few seconds of emulation each)."""
    from games_py.ginrummy import game
    from games_py.ginrummy.original import trace_original
    settings = game.Settings(time=time, variant=variant, sound=sound, demo=False, human=policy)
    mine, asked = _recorded_trace(monkeypatch, settings, 2)
    monkeypatch.undo()
    theirs, their_asked = _recorded(monkeypatch, lambda: trace_original(settings, hands=2))
    assert their_asked == asked
    assert _strip(theirs) == _strip(mine)
    if policy == "random:1" and variant == "standard":
        assert any(e["event"] == "knock_declined" for e in theirs)


def _game_cases():
    """Start times of ``pcemu trace ginrummy-sweep`` (sweep_times(200, seed=5)): cases
    0-5 are the three variants with sound on, then off."""
    from games_py.ginrummy.original_sweep import sweep_times, with_human
    cases = sweep_times(200, seed=5)[:6]
    return with_human(cases[0::2], "simple") + with_human(cases[1::2], "random")


@needs_originals
@pytest.mark.slow
@pytest.mark.parametrize("case", _game_cases(), ids=lambda c: f"{c.time}-{c.variant}-{c.human}")
def test_whole_first_game_with_a_human_matches_the_original(case):
    """About a minute of emulation per game."""
    from games_py.ginrummy.original_sweep import check_game
    result = check_game(case)
    assert result.equal, result.detail
