"""The F5 help screen: the rules in brief and the terminal commands (our own words)."""

HELP = """\
TOMMY'S TONK -- rules in brief (see docs/games/tonk.md for the full mapping)

 * Two players, 7 cards each; the next card starts the face-up upcard pile.
   Ace = 1, faces = 10, others their pips.  Melds: 3-4 of a rank, or 3+ in
   suit sequence, ace low (A-2-3 yes, Q-K-A no).  Your count is the total of
   the unmatched cards in your hand; lower is better.
 * Before the first pluck or draw, a hand of only ten-point cards wins by
   calling tonk.
 * At the start of any turn either player may call tonk: the tonker wins with
   the same or fewer points; if the other has fewer (an undercut) the tonker
   pays double.
 * Your turn: pluck the upcard and lay it down in a NEW meld with cards from
   your hand, or give it back (that ends your turn); or draw from the deck.
   Then discard to the pile or hit one of your own melds on the table.
 * When 2 cards are left the next player to draw is the breaker.  After the
   break you can tonk only with zero points.  Deck exhausted: lowest count
   wins, the breaker wins ties.
 * Three pluck-and-return turns each in a row: the hand is dead and its stake
   is carried over to the next hand.

COMMANDS
  your turn:     T = call tonk, P = pluck the upcard, D = draw,
                 S i j = switch cards i and j of your hand (sorting)
  after a pluck: M i j ... = meld the upcard with your cards i j ... (numbers
                 or names like QH 10S), R = return the upcard
  discard:       a card number or name discards it to the pile,
                 H card meld = hit your meld number `meld` with that card
  computer's turn: <Enter> lets it play, T calls tonk first
  any time:      F1 sound, F2 demo (computer plays your hand), F3 autosort,
                 F5 this help, F7 quit (the pot is saved), F10 border color
"""
