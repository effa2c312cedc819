"""`refassist watch`: the referee's week run by itself (docs/watch.md).

Owns the rounds (`watcher`), the mail watch writes of its own (`notices`: reminders, the
referee's mail at the deadline), its log (`log`, shown on the archive site by `page`) and its
retries (`retry`).  It schedules and remembers; the work is the existing commands' own code:
the intake, sending, resolve, the reports and the archive.  Layer 13 with the other
whole-game modules (`refassist.layers`): it may import everything but the commands.
"""
