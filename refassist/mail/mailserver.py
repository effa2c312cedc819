"""Where the referee's mail lives: server addresses as URLs, TLS, and the password.

A referee's mailbox is an account at a provider, reached over TLS with a login.  The servers
are named as URLs, the way mail programs and ``curl`` name them:

* ``imaps://referee@mail.example.org/Turns`` (implicit TLS, port 993) and
  ``imap://referee@mail.example.org:143/Turns`` (STARTTLS, required): the folder turn mail is in;
* ``smtps://referee@mail.example.org`` (implicit TLS, port 465) and
  ``smtp://referee@mail.example.org:587`` (STARTTLS, required), with login;
* ``HOST:PORT`` alone: a plain SMTP relay without TLS or login (a relay on the referee's own
  machine or network), which is what ``--smtp`` meant before URLs.

The certificate is checked against the system's authorities; ``ca_file`` names another (a
self-hosted server's own).  A URL never carries the password (it would end up in
``game.toml``, the shell history and the process list): `password_for` reads it from an
environment variable, a file only the referee can read, or the system keyring, in that order,
and never prints it or puts it in an error.
"""

from __future__ import annotations

import getpass
import os
import ssl
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from refassist.errors import UsageError

DEFAULT_PORTS = {"imaps": 993, "imap": 143, "smtps": 465, "smtp": 587}
#: The keyring service the passwords are stored under (``keyring set refassist USER@HOST``).
KEYRING_SERVICE = "refassist"


@dataclass(frozen=True)
class ServerURL:
    """A mail server as the referee named it: protocol, TLS, login and (IMAP) folder."""

    scheme: str  # imap, imaps, smtp, smtps, or "relay" for a bare HOST:PORT
    host: str
    port: int
    user: str = ""
    folder: str = ""

    @property
    def implicit_tls(self) -> bool:
        return self.scheme in ("imaps", "smtps")

    @property
    def starttls(self) -> bool:
        return self.scheme in ("imap", "smtp")

    @property
    def protocol(self) -> str:
        return "imap" if self.scheme.startswith("imap") else "smtp"

    @property
    def account(self) -> str:
        """``user@host``: the name the password is stored under, and shown in messages."""
        return f"{self.user}@{self.host}" if self.user else self.host

    def __str__(self) -> str:
        """The URL without any secret, for messages and records."""
        if self.scheme == "relay":
            return f"{self.host}:{self.port}"
        user = f"{self.user}@" if self.user else ""
        folder = f"/{self.folder}" if self.folder else ""
        return f"{self.scheme}://{user}{self.host}:{self.port}{folder}"


def parse_server(text: str, protocol: str, option: str) -> ServerURL:
    """A `ServerURL` from the command line or ``game.toml``; ``protocol`` is ``imap`` or
    ``smtp`` (what the option expects), ``option`` names it in errors."""
    text = (text or "").strip()
    example = (
        "imaps://referee@mail.example.org/Turns"
        if protocol == "imap"
        else "smtps://referee@mail.example.org or smtp://referee@mail.example.org:587"
    )
    if "://" not in text:
        host, sep, number = text.rpartition(":")
        if protocol == "smtp" and sep and host and number.isdigit() and "@" not in host:
            return ServerURL("relay", host, int(number))
        raise UsageError(f"{option} {text!r} is not a server URL; e.g. {example}")
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    allowed = ("imap", "imaps") if protocol == "imap" else ("smtp", "smtps")
    if scheme not in allowed:
        raise UsageError(
            f"{option} must start with {' or '.join(s + '://' for s in allowed)}, "
            f"not {scheme}://; e.g. {example}"
        )
    if parts.password is not None:
        raise UsageError(
            f"{option}: leave the password out of the URL (it would be kept in game.toml and "
            "your shell history); give it as docs/mail.md says: an environment variable, a "
            "file only you can read, or the system keyring"
        )
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError as exc:
        raise UsageError(f"{option}: the port of {text!r} is not a number") from exc
    if not parts.hostname:
        raise UsageError(f"{option} {text!r} names no server; e.g. {example}")
    folder = unquote(parts.path.lstrip("/")) if protocol == "imap" else ""
    if protocol == "imap" and not folder:
        folder = "INBOX"
    user = unquote(parts.username or "")
    if not user:
        raise UsageError(f"{option} {text!r} names no user to log in as; e.g. {example}")
    return ServerURL(scheme, parts.hostname, port, user, folder)


def tls_context(ca_file: Path | str | None = None) -> ssl.SSLContext:
    """A client TLS context that checks the server's certificate and name: against the
    system's authorities, or ``ca_file`` (a self-hosted server's own certificate)."""
    if ca_file:
        path = Path(ca_file)
        if not path.is_file():
            raise UsageError(f"CA file {path} not found")
        try:
            return ssl.create_default_context(cafile=str(path))
        except ssl.SSLError as exc:
            raise UsageError(f"CA file {path} is not a PEM certificate ({exc})") from exc
    return ssl.create_default_context()


def tls_failure(server: ServerURL, exc: Exception) -> str:
    """What to say when the TLS handshake fails: most often a certificate the machine does not
    trust, which ``--ca-file`` fixes for a self-hosted server."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (
            f"the certificate of {server.host} is not trusted ({exc.verify_message}); if it is "
            "your own server's, give its certificate with --ca-file"
        )
    return f"TLS with {server.host}:{server.port} failed ({exc})"


def _env_name(server: ServerURL, suffix: str = "") -> str:
    return f"REFASSIST_{server.protocol.upper()}_PASSWORD{suffix}"


def _from_file(path: Path) -> str:
    """A password file: readable by its owner only, the password on its first line."""
    try:
        info = path.stat()
    except OSError as exc:
        raise UsageError(f"password file {path} cannot be read ({exc.strerror})") from exc
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UsageError(
            f"password file {path} can be read by others; make it yours alone "
            f"(chmod 600 {path}) and run the command again"
        )
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UsageError(f"password file {path} belongs to another user; use a file of your own")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"password file {path} cannot be read") from exc
    if not lines or not lines[0]:
        raise UsageError(f"password file {path} is empty")
    return lines[0]


def _from_keyring(server: ServerURL) -> str | None:
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:
        return None
    try:
        return keyring.get_password(KEYRING_SERVICE, server.account)
    except KeyringError:
        return None
    except Exception:  # a broken keyring backend (no D-Bus session): as if nothing is stored
        return None


def password_for(server: ServerURL, *, ask: bool | None = None) -> str:
    """The password for ``server``'s login, from (in order) ``REFASSIST_IMAP_PASSWORD`` /
    ``REFASSIST_SMTP_PASSWORD``, the file named by ``..._PASSWORD_FILE``, the system keyring
    (service ``refassist``, user ``USER@HOST``), or a hidden prompt when run at a terminal."""
    value = os.environ.get(_env_name(server))
    if value:
        return value
    file = os.environ.get(_env_name(server, "_FILE"))
    if file:
        return _from_file(Path(file).expanduser())
    stored = _from_keyring(server)
    if stored:
        return stored
    if ask is None:
        ask = sys.stdin.isatty()
    if ask:
        return getpass.getpass(f"password for {server.account} ({server.protocol}): ")
    raise UsageError(
        f"no password for {server.account}: set {_env_name(server)}, or "
        f"{_env_name(server, '_FILE')} to a file only you can read, or store it in the system "
        f"keyring with: keyring set {KEYRING_SERVICE} {server.account}"
    )
