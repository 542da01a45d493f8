"""The graphical front end: the screen as the card draws it, the speaker, the keyboard.

* ``palette``  - the colours of the CGA (RGBI, with brown) and of the mono monitors
* ``display``  - video memory and card registers to a picture; PNG screenshots
* ``scaling``  - integer scale factors that keep the CRT's 4:3 shape
* ``sound``    - the speaker's event log as a square wave: WAV files and live audio
* ``keymap``   - host keys to the set-1 scancodes of an AT keyboard
* ``pacing``   - virtual time held to wall time (turbo and pause)
* ``window``   - the pygame-ce window that ties them together
"""
