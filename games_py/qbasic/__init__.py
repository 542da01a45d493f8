"""What the QuickBASIC 3.0 runtime computes, shared by the games compiled with it
(Tommy's Gin Rummy and Tommy's Meteors): MBF single arithmetic (``mbf``) and RND,
RANDOMIZE and TIMER (``rng``)."""
