"""David Teach's GinRummy (1991-2004), reimplemented from its document.

There is no original binary: every rule here comes from the document
(seed 001) and the tests cite the lines they check.  Layout follows OpenSpiel:

* ``state``    - what is on the table (hands, stock, pile, scores)
* ``rules``    - legal moves and how a move changes the state
* ``scoring``  - gin, knock, lay-offs and undercut at the end of a hand
* ``strategy`` - the computer's fixed formulas (also used for hints)
* ``players``  - computer, random and scripted players
* ``files``    - GINRUMMY.CFG / .STA / .SCR (``records`` holds the lists)
* ``spiel``    - one hand through the one game interface (``games_py.interface``)
* ``screens``, ``human``, ``console`` - the program ``play`` runs, in lines;
  ``screen_console`` puts it on the whole terminal (``games_py.tui``)
* ``commandline``, ``cli`` - the DOS command line and ``python -m`` entry
"""
