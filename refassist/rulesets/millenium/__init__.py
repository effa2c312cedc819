"""Millenium (Simulation Games): the Empire against the Extraterrestrials, in French.

Being built (issue 20): the rules modules come first, each with its scripted-dice tests; the
package registers its ruleset (a module-level ``RULESET``) once sheets, resolution and reports
play a game end to end.  Until then the registry skips it as a helper package.
"""
