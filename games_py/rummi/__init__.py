"""Rummi: Rummikub for two players, after Yvon Rozijn's Amiga game (1995).

tiles   pieces and valid series       rules    turns, penalty, the end
state   the game state                solver   exact best-play search
players Beginner, Expert, scripted    turn     piece-by-piece turn building
game    running a game                terminal the text-mode game
"""
