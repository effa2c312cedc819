"""Mail in and out, whatever a game: messages, attachments, servers, sending.

* `messages` (was mail.py at the top) - .eml building; reading mail (hostile input);
* `mail_unpack` - sheets inside winmail.dat (TNEF), Outlook .msg and zips;
* `mailserver` - server URLs, TLS, passwords (never in game.toml, never printed);
* `sending` - the outbox's mail sent through SMTP, recorded in ``.sent.json``.

May import: the store and every layer below it.  Filing what arrives is `refassist.intake`.
"""
