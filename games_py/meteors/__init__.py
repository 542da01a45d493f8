"""Tommy's Meteors (PC-SIG disk #1612), to be compared frame for frame with METEORS.EXE."""
