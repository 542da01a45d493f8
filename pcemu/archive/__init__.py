"""Tools for archivists: look inside a running original, and share a run anyone can replay.

* ``session``   - record a run (disks, machine profile, start time, every input
  with its virtual time) and replay it exactly, reporting the first divergence;
* ``tracer``    - JSON Lines traces of interrupts, DOS and BIOS services, ports,
  video, sound, keys and files, attached through the machine's listeners;
* ``report``    - the readable summary of a trace (services, counts, first use,
  what pcemu lacks) and ``files_report`` (files touched, overlay changes, diffs);
* ``debugger``  - breakpoints on addresses, services, ports and memory writes,
  stepping and memory views, with disassembly that names runtime routines;
* ``filmstrip`` - the screen captured whenever it settles, as PNG frames, a GIF
  and one HTML page.

Everything here observes the machine without changing its timeline: hooks are
listeners the machine calls anyway, and Unicorn hooks exist only while a
breakpoint is set.
"""
