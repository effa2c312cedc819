"""The intake: what players send, filed.

* `inbox` - filing received sheets (files, saved mail): received/, accepted/, late/, the
  checks, the replies owed;
* `imap_intake` - the turn-mail folder over IMAP: list, fetch (PEEK), mark filed or move.

Reading mail is `refassist.mail`; the record of a step's filing is
`refassist.store.inbox_index`.  May import: `refassist.turns` and every layer below it.
"""
