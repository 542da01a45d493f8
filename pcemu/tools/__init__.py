"""Tools for reading the original programs: MZ/EXEPACK, runtime signatures, disassembly."""
