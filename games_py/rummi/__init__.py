"""Rummi: Rummikub for two players, after Yvon Rozijn's Amiga game (1995).

tiles   pieces and valid series       rules     turns, swaps, penalty, the end
state   the game state                solver    exact best-play search
players Beginner, Expert, scripted    turn      piece-by-piece turn building
spiel   the one game interface        game      running a game through it
account a turn's table changes, said  savefile  save and resume
terminal the line game and the demo   fullscreen, table_screen  the full-screen game
"""
