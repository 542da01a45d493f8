"""David Teach's Cribbage (CRIBBAGE.DOC v1.2, 1993) reimplemented in Python.

Layout, as OpenSpiel separates a game:

* ``scoring``  - what a hand or a pegging play is worth (pure functions);
* ``state``    - the data of a game in progress, actions and events;
* ``rules``    - legal actions and the transitions between states;
* ``strategy`` - the computer's judgement (also used for hints);
* ``players``  - computer, random, scripted and human seats;
* ``spiel``    - the game on the one interface (``games_py.interface``), the pegs;
* ``match``    - drives one game between two players through it;
* ``config`` / ``stats`` - CRIBBAGE.CFG options and the statistics file;
* ``render`` / ``terminal`` - the line-based user interface;
* ``table_screen`` / ``fullscreen`` - the full-screen table with the pegging board.
"""
