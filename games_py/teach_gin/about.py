"""Texts for help, view and the screens, written for this reimplementation."""

COMMAND_HELP = """\
GinRummy (after David Teach's GinRummy) - command line

  python -m games_py.teach_gin [play] [parameters] [--seed N] [--plain]
  python -m games_py.teach_gin demo  [parameters] [--seed N] [--oklahoma] [--easy] [--no-knock]

play: on a terminal the game fills the screen (80x25) and takes one key where one key
is an answer; --plain (and any stdin or stdout that is not a terminal) gives lines.
--seed N deals as seed N did (default: random).
demo: the computer plays both seats (South first, as the human would); --easy makes
South use the EASY discard rule, --oklahoma and --no-knock set those options.

The first parameter may instead be:
  ? /? help    this help            list   the names in GINRUMMY.STA
  view         the rules (GINRUMMY.DOC if the data directory has one)

Parameters, in any order, case-insensitive except the name; only the first
seven are read:
  nnn       score limit, three digits 000-999 (000: exactly one hand)
  path      data directory for GINRUMMY.CFG/.STA/.SCR; must start with /, \\,
            .. or a drive letter (an invalid path falls back to the current one)
  GO        start playing at once, without the title screen
  NOBLANK   no screen blanking (and no ESC boss key)
  LAPTOP    no colours (monochrome display)
  NODISK    read and write no files at all
  NOKEYS    mouse only - there is no mouse in a terminal, so this has no effect
  name      any other word: your name (the last such word, up to 8 characters)
"""

RULES_SUMMARY = """\
GinRummy - rules as this program plays them

Cards rank K (high) down to A; faces count 10, aces 1, others their pips.
Each player gets 10 cards, the next card starts the discard pile. You always
go first. On a turn draw from the deck (D) or the discard pile (P), then
discard: 1-9, 0 pick a card of your hand, D the card just drawn. A card taken
from the pile cannot be thrown back, but U undoes that draw.

Melds are 3 or 4 of a kind, or 3 or more in sequence in one suit (ace low).
GIN: all 10 cards melded after your discard - bonus (25) plus the opponent's
deadwood. KNOCK: deadwood at most the knock value (10) after discarding; the
other player lays off deadwood on the knocker's melds. Lower deadwood for the
knocker scores the difference; otherwise the other player undercuts and scores
the undercut bonus (25) plus the difference. 'Play to gin' gives up knocking
for the rest of the hand.

When only two cards are left in the deck, a draw from the deck ends the hand
as a draw (no score); taking from the discard pile is still allowed.

Oklahoma: the first upcard's value is the knock value (an ace means gin
only) and a spade upcard doubles every point of the hand.

The game ends when a score reaches the limit (100 unless changed); with a
limit of 0 exactly one hand is played.
"""
