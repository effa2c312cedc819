"""refassist: a referee's assistant for play-by-mail strategy wargames."""

__version__ = "0.1.0"
