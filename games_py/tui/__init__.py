"""The terminal layer the full-screen games share: an 80x25 text screen of PC cells
(``screen``), its ANSI picture, and keys one at a time from a real terminal with resize
and Ctrl-L (``terminal``)."""
