"""Legal moves and their effects: the deal, the turn, the end of a hand and of a game.

Document references (seed 001): the deal line 167, the turn lines 173-177 and 77,
the draw rule line 180, gin line 184, knock line 186, Oklahoma line 190, the
knock question and 'Play to Gin' line 79, game end lines 80, 127 and 192.
"""
from __future__ import annotations

import random

from games_py.cards import Card, shuffled_deck
from games_py.teach_gin import scoring
from games_py.teach_gin.deadwood import deadwood
from games_py.teach_gin.options import Options
from games_py.teach_gin.state import (
    DRAW_WHEN_STOCK, HAND_SIZE, HUMAN, Discard, DrawDeck, DrawPile, GameState,
    HandState, Knock, Move, NoKnock, Phase, PlayToGin, Undo)

NORMAL_KNOCK = 10   # "if ... the total of his unmatched cards is 10 points or less"


class IllegalMove(ValueError):
    pass


def knock_limit(options: Options, upcard: Card) -> int:
    """Most deadwood a player may knock with; 0 means gin only.

    Knocking disabled draws "a zero ... for the knock card value" (line 55).
    Oklahoma: "the value of the first card on the discard pile ... determines
    the knock value"; "If an ACE is the first upcard, a player must GIN" (line 190).
    """
    if not options.knocking:
        return 0
    if options.oklahoma:
        return 0 if upcard.rank == 1 else upcard.pip_value
    return NORMAL_KNOCK


def doubles(options: Options, upcard: Card) -> bool:
    """Oklahoma: "If the first upcard is a SPADE, all points scored in that hand are
    DOUBLED" - "still in effect even if knocking is disabled" (line 49)."""
    return options.oklahoma and upcard.suit == "S"


def deal(options: Options, rng: random.Random) -> HandState:
    """"Each player is dealt 10 cards, the next card is turned face up" (line 167)."""
    deck = shuffled_deck(rng)
    hands = [deck[0:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE]]
    upcard = deck[2 * HAND_SIZE]
    stock = deck[2 * HAND_SIZE + 1:]
    stock.reverse()     # the card dealt next is the top (last element)
    return HandState(hands=hands, stock=stock, pile=[upcard], upcard=upcard,
                     knock_limit=knock_limit(options, upcard),
                     doubled=doubles(options, upcard), to_move=HUMAN)


def new_game(options: Options, rng: random.Random) -> GameState:
    return GameState(options=options, rng=rng, hand=deal(options, rng))


def legal_moves(hand: HandState) -> list[Move]:
    p = hand.to_move
    if hand.phase is Phase.DRAW:
        return [DrawDeck(), DrawPile()]
    if hand.phase is Phase.DISCARD:
        # A card just taken from the pile cannot be thrown back: that would be a
        # turn without a draw.  The document's way to change one's mind is UNDO.
        moves: list[Move] = [Discard(c) for c in hand.hands[p]
                             if not (hand.drawn_from == "pile" and c == hand.drawn)]
        if hand.drawn_from == "pile":
            moves.append(Undo())
        return moves
    if hand.phase is Phase.KNOCK:
        return [Knock(), NoKnock(), PlayToGin()]
    return []


def can_knock(hand: HandState, player: int) -> bool:
    """Whether ``player`` (holding 10 cards after a discard) is asked to knock."""
    return (hand.knock_limit > 0 and not hand.play_to_gin[player]
            and 0 < deadwood(hand.hands[player]) <= hand.knock_limit)


def apply_move(hand: HandState, move: Move, options: Options) -> HandState:
    """Play ``move`` for the player to move, changing ``hand`` in place."""
    if move not in legal_moves(hand):
        raise IllegalMove(f"{move} is not allowed now ({hand.phase.value} phase)")
    p = hand.to_move
    if isinstance(move, DrawDeck):
        if len(hand.stock) <= DRAW_WHEN_STOCK:
            # "if either player draws from the deck, the hand is a draw" (line 180)
            _finish(hand, scoring.drawn_hand(hand.hands, hand.doubled))
            return hand
        card = hand.stock.pop()
        hand.hands[p].append(card)
        hand.drawn, hand.drawn_from = card, "deck"
        hand.phase = Phase.DISCARD
        hand.computer_took_pile = False
    elif isinstance(move, DrawPile):
        card = hand.pile.pop()
        hand.hands[p].append(card)
        hand.taken[p].append(card)
        hand.drawn, hand.drawn_from = card, "pile"
        hand.phase = Phase.DISCARD
        hand.computer_took_pile = p != HUMAN
    elif isinstance(move, Undo):
        card = hand.drawn
        hand.hands[p].remove(card)
        hand.pile.append(card)
        hand.taken[p].pop()
        hand.drawn = hand.drawn_from = None
        hand.phase = Phase.DRAW
    elif isinstance(move, Discard):
        hand.hands[p].remove(move.card)
        hand.pile.append(move.card)
        hand.discards.append((p, move.card))
        hand.drawn = hand.drawn_from = None
        if deadwood(hand.hands[p]) == 0:
            # "If, after discarding, all of the remaining cards ... are formed into
            # matched sets, the player has GIN" (line 184): the hand ends at once.
            _finish(hand, scoring.settle(hand.hands, p, options, hand.doubled))
        elif can_knock(hand, p):
            hand.phase = Phase.KNOCK
        else:
            _next_turn(hand)
    elif isinstance(move, Knock):
        _finish(hand, scoring.settle(hand.hands, p, options, hand.doubled))
    elif isinstance(move, NoKnock):
        _next_turn(hand)
    elif isinstance(move, PlayToGin):
        # "You cannot knock again until the next hand" (line 79)
        hand.play_to_gin[p] = True
        _next_turn(hand)
    return hand


def _next_turn(hand: HandState) -> None:
    hand.to_move = 1 - hand.to_move
    hand.phase = Phase.DRAW
    hand.turns += 1


def _finish(hand: HandState, result) -> None:
    hand.result = result
    hand.phase = Phase.OVER


def finish_hand(game: GameState) -> None:
    """Add the finished hand's score; end the game or deal the next hand.

    "scores are accumulated until reaching the limit" (line 80): a game ends when
    a score is "greater or equal to the agreed scoring limit" (line 192); with a
    limit of 0 "exactly one hand will be played, even if it ends in a draw" (127).
    """
    result = game.hand.result
    if result is None:
        raise IllegalMove("the hand is not over")
    game.history.append(result)
    game.hands_played += 1
    if result.winner is not None:
        game.scores[result.winner] += result.points
    limit = game.options.score_limit
    if limit == 0:
        game.over = True
    elif max(game.scores) >= limit:
        game.over = True
    if game.over:
        a, b = game.scores
        game.winner = 0 if a > b else 1 if b > a else None
        return
    # "The cards are then re-shuffled and dealt again for a new hand" (line 180)
    game.hand_number += 1
    game.hand = deal(game.options, game.rng)


def play_move(game: GameState, move: Move) -> None:
    """Apply a move to the game's current hand; settle it if the move ended it."""
    if game.over:
        raise IllegalMove("the game is over")
    apply_move(game.hand, move, game.options)
    if game.hand.phase is Phase.OVER:
        finish_hand(game)
