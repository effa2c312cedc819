"""Words and languages: the lowest layer after `refassist.errors` and `refassist.atomic`.

* `words` - counting words and the ``N_`` marker;
* `i18n` - the reader's language: gettext catalogs (``refassist/locale``, each game's
  ``locale/``), `speaking_to`, `said` texts said again in each reader's language;
* `message_text` - what a player's message may cost its readers, and how it is shown;
* `datalines` - an event's data as indented text lines for a report.

May import: the standard library, Babel, `refassist.errors`.  Nothing else of refassist.
"""
