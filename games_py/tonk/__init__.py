"""Tommy's Tonk (1990, Tommy's Toys) rebuilt from its document, TONK.DOC.

Layout, as OpenSpiel separates a game:
  state.py    what is on the table (cards, whose turn, phase, outcome)
  rules.py    the deal, legal moves, applying a move, scoring a hand
  players.py  computer, random and scripted players
  match.py    a sequence of hands: shuffle and cut, alternate deal, replay, running a hand
  pot.py      the bet, the carried-over stake and TONK.SCR
  options.py  the DOS command-line switches S, M, C, P
  spiel.py    one hand through the one game interface (games_py.interface)
  terminal.py the game at a terminal, line-based (rendering and human commands)
  screen_game.py, table_screen.py  the same game full-screen (games_py.tui)
"""
