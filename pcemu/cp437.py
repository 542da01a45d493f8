"""Code page 437 as the IBM PC drew it: 00h-1Fh and 7Fh are glyphs on screen, not controls."""

_LOW = ("\u00a0☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼")
CP437 = [(_LOW[i] if i < 32 else "⌂" if i == 0x7F else bytes([i]).decode("cp437"))
         for i in range(256)]
CP437[0] = " "
