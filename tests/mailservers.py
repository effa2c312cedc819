"""Real mail servers on 127.0.0.1 for the tests: an SMTP server with TLS and login (aiosmtpd)
and an IMAP server as providers run it (Dovecot from Debian's packages), each with a throw-away
configuration and a self-signed certificate made for the test.  Nothing listens beyond
127.0.0.1."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

USER = "referee"
PASSWORD = "correct horse battery staple"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Certificate:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key."""

    cert: Path
    key: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        return context


def make_certificate(folder: Path, name: str = "server") -> Certificate:
    """A certificate made with openssl for this test only (valid two days)."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    key.chmod(0o600)
    return Certificate(cert, key)


# -- SMTP ------------------------------------------------------------------------------------


@dataclass
class SmtpInbox:
    """What the SMTP server took, and how it misbehaves when a test asks it to."""

    received: list[tuple[str, list[str], bytes]] = field(default_factory=list)
    #: Recipients refused with 550.
    refuse: set[str] = field(default_factory=set)
    #: Drop the connection instead of taking the message after this many were taken.
    drop_after: int | None = None
    logins: list[str] = field(default_factory=list)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # type: ignore[no-untyped-def]
        if address in self.refuse:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        if self.drop_after is not None and len(self.received) >= self.drop_after:
            server.transport.close()
            return "421 closing"
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


@dataclass
class SmtpServer:
    inbox: SmtpInbox
    host: str
    port: int
    ca_file: Path
    implicit_tls: bool

    def url(self, user: str = USER) -> str:
        scheme = "smtps" if self.implicit_tls else "smtp"
        return f"{scheme}://{user}@{self.host}:{self.port}"


@contextmanager
def smtp_server(folder: Path, *, implicit_tls: bool = False) -> Iterator[SmtpServer]:
    """aiosmtpd with login (``USER``/``PASSWORD``), only after TLS: STARTTLS required, or TLS
    from the first byte (``implicit_tls``)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    certificate = make_certificate(folder / "smtp-tls")
    inbox = SmtpInbox()

    def authenticator(server, session, envelope, mechanism, auth_data):  # type: ignore[no-untyped-def]
        login = auth_data.login.decode() if isinstance(auth_data.login, bytes) else ""
        password = auth_data.password.decode() if isinstance(auth_data.password, bytes) else ""
        ok = login == USER and password == PASSWORD
        if ok:
            inbox.logins.append(login)
        return AuthResult(success=ok, handled=False)  # a failure answers 535

    port = free_port()
    context = certificate.server_context()
    if implicit_tls:
        controller = Controller(
            inbox,
            hostname="127.0.0.1",
            port=port,
            ssl_context=context,
            authenticator=authenticator,
            auth_require_tls=False,  # the whole connection is TLS already
            auth_required=True,
        )
    else:
        controller = Controller(
            inbox,
            hostname="127.0.0.1",
            port=port,
            tls_context=context,
            require_starttls=True,
            authenticator=authenticator,
            auth_required=True,
        )
    controller.start()
    try:
        yield SmtpServer(inbox, "127.0.0.1", port, certificate.cert, implicit_tls)
    finally:
        controller.stop()


# -- IMAP (Dovecot) --------------------------------------------------------------------------


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or (
        "/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None
    )


@dataclass
class ImapServer:
    """A running Dovecot: its ports (STARTTLS and implicit TLS), certificate, and the Maildir
    of the one account (``USER``)."""

    host: str
    port: int
    tls_port: int
    ca_file: Path
    home: Path
    process: subprocess.Popen[bytes]

    def url(self, folder: str = "Turns", *, implicit_tls: bool = True) -> str:
        if implicit_tls:
            return f"imaps://{USER}@{self.host}:{self.tls_port}/{folder}"
        return f"imap://{USER}@{self.host}:{self.port}/{folder}"

    def client(self):  # type: ignore[no-untyped-def]
        """An imaplib client logged in as the test's referee (to deliver and inspect)."""
        import imaplib

        context = ssl.create_default_context(cafile=str(self.ca_file))
        client = imaplib.IMAP4_SSL(self.host, self.tls_port, ssl_context=context)
        client.login(USER, PASSWORD)
        return client


DOVECOT_CONF = """\
base_dir = {base}/run
state_dir = {base}/state
instance_name = refassist-test-{port}
listen = 127.0.0.1
protocols = imap
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain login
log_path = {base}/dovecot.log
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {internal_group}
mail_location = maildir:{base}/mail/%u
mail_uid = {uid}
mail_gid = {gid}
first_valid_uid = 0
first_valid_gid = 0
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={base}/home/%u
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Turns {{
    auto = create
  }}
  mailbox Filed {{
    auto = create
  }}
}}
"""


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                "dovecot stopped: " + (log.read_text() if log.exists() else "(no log)")
            )
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError("dovecot did not start listening")


@contextmanager
def imap_server() -> Iterator[ImapServer]:
    """Dovecot in the foreground with a configuration of its own in a fresh folder under the
    system's temporary folder (pytest's own is closed to Dovecot's unprivileged users).

    Run as root (CI), Dovecot's own users serve the mail, as on a real server; run as anyone
    else, that user serves everything."""
    binary = dovecot_binary()
    if binary is None:
        raise RuntimeError("dovecot is not installed (scripts/test installs dovecot-imapd)")
    import grp
    import pwd

    base = Path(tempfile.mkdtemp(prefix="refassist-dovecot-"))
    base.chmod(0o755)
    for sub in ("run", "state", "mail", "home"):
        (base / sub).mkdir()
    certificate = make_certificate(base, "imap")
    root = os.getuid() == 0
    if root:  # mail may not be served as root: as Dovecot's own user
        owner = pwd.getpwnam("dovecot")
        uid, gid = owner.pw_uid, owner.pw_gid
        for sub in ("mail", "home"):
            os.chown(base / sub, uid, gid)
        (base / "run").chmod(0o755)
    else:
        uid, gid = os.getuid(), os.getgid()
    login_user = "dovenull" if root else pwd.getpwuid(uid).pw_name
    internal_user = "dovecot" if root else pwd.getpwuid(uid).pw_name
    internal_group = "dovecot" if root else grp.getgrgid(gid).gr_name
    port, tls_port = free_port(), free_port()
    (base / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n")
    conf = base / "dovecot.conf"
    conf.write_text(
        DOVECOT_CONF.format(
            base=base,
            port=port,
            tls_port=tls_port,
            cert=certificate.cert,
            key=certificate.key,
            uid=uid,
            gid=gid,
            login_user=login_user,
            internal_user=internal_user,
            internal_group=internal_group,
        )
    )
    process = subprocess.Popen(
        [binary, "-F", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        _wait_for_port(tls_port, process, base / "dovecot.log")
        yield ImapServer("127.0.0.1", port, tls_port, certificate.cert, base, process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
