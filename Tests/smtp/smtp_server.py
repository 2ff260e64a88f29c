#!/usr/bin/env python3
"""A scriptable SMTP server on loopback for GatehouseSMTP's tests, built on aiosmtpd.

    python3 Tests/smtp/smtp_server.py --tls starttls --auth user:secret [--mechanisms PLAIN,LOGIN]

It listens on 127.0.0.1 on an ephemeral port and prints one JSON line, {"port", "ca", "dir"}, then
serves until its standard input closes (so it dies with the test process). Options:
  --tls none|starttls|implicit  STARTTLS offered, or TLS from the first byte, on a certificate for
                                localhost and 127.0.0.1 signed by a CA it generates (the "ca" file);
  --auth user:password          AUTH required (offered in clear too when --tls none);
  --mechanisms PLAIN,LOGIN      the AUTH mechanisms offered;
  --rset421                     RSET (sent before reusing a connection) answered 421, then closed;
  --delay SECONDS               every message's data answered (and recorded) only after SECONDS;
  --hang                        no message's data is ever answered (nor recorded): a dead server.
Scripted failures, chosen by the recipient's local part:
  fail421 / fail451 / fail550            that reply to RCPT TO (421 then closes the connection);
  fail421-data / fail451-data / fail550-data   that reply after the message data;
  hang   never answers RCPT TO;   drop   closes the connection after the message data, no reply;
  slow   answers the message data after 2 seconds.
Delivered messages are written to "dir" as N.eml (the data as received, dot-unstuffed) and N.json
({"mail_from", "rcpt_tos", "auth", "tls"}); "dir"/events.log gets one line per connection
("connect"), AUTH ("auth MECHANISM user"), STARTTLS ("starttls") and a reply it starts to withhold
("hang rcpt", "hang data"). A line "close" on standard input
closes every open connection and is answered with "closed N".
"""
import argparse
import asyncio
import datetime
import ipaddress
import json
import os
import shutil
import ssl
import sys
import tempfile
import threading

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_certificates(directory):
    """A CA and a server certificate it signs, for localhost and 127.0.0.1. Returns (ca, cert, key) paths."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Gatehouse test SMTP CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = [os.path.join(directory, name) for name in ("ca.pem", "server.pem", "server.key")]
    with open(paths[0], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths[1], "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(paths[2], "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return paths


class Recorder:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.lock = threading.Lock()

    def event(self, line):
        with self.lock, open(os.path.join(self.directory, "events.log"), "a") as f:
            f.write(line + "\n")

    def message(self, envelope, session, tls):
        with self.lock:
            self.count += 1
            number = self.count
        base = os.path.join(self.directory, "%d" % number)
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content)
        info = {"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                "auth": getattr(session, "gatehouse_user", None), "tls": tls}
        with open(base + ".json.tmp", "w") as f:
            json.dump(info, f)
        os.rename(base + ".json.tmp", base + ".json")


def local_part(address):
    return address.split("@", 1)[0].lower()


class Handler:
    def __init__(self, recorder, delay=0.0, hang=False):
        self.recorder = recorder
        self.delay = delay
        self.hang = hang

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        script = local_part(address)
        if script in ("fail421", "fail451", "fail550"):
            if script == "fail421":
                asyncio.get_running_loop().call_soon(server.transport.close)
            return "%s 4.7.0 scripted failure for %s" % (script[4:], address)
        if script == "hang":
            self.recorder.event("hang rcpt")
            await asyncio.sleep(3600)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        script = local_part(envelope.rcpt_tos[0])
        if script in ("fail421-data", "fail451-data", "fail550-data"):
            if script == "fail421-data":
                asyncio.get_running_loop().call_soon(server.transport.close)
            return "%s scripted failure after data" % script[4:7]
        if script == "drop":
            server.transport.close()
            await asyncio.sleep(3600)
        if script == "slow":
            await asyncio.sleep(2)
        if self.hang:
            self.recorder.event("hang data")
            await asyncio.sleep(365 * 86400)
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        self.recorder.message(envelope, session, server.transport.get_extra_info("ssl_object") is not None)
        return "250 2.0.0 queued"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", choices=["none", "starttls", "implicit"], default="none")
    parser.add_argument("--auth", default=None)
    parser.add_argument("--mechanisms", default="PLAIN,LOGIN")
    parser.add_argument("--rset421", action="store_true")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--hang", action="store_true")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="gatehouse-smtp-")
    recorder = Recorder(directory)
    ca, cert, key = make_certificates(directory)
    context = None
    if args.tls != "none":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
    user, _, password = (args.auth or "").partition(":")
    mechanisms = {m.strip().upper() for m in args.mechanisms.split(",")}
    excluded = [m for m in ("PLAIN", "LOGIN") if m not in mechanisms]
    connections = set()

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user and auth_data.password.decode() == password
        recorder.event("auth %s %s %s" % (mechanism, auth_data.login.decode(errors="replace"), "ok" if ok else "refused"))
        if ok:
            session.gatehouse_user = user
        return AuthResult(success=ok, handled=False)  # not handled: aiosmtpd answers 535

    class RecordingSMTP(SMTP):
        def connection_made(self, transport):
            if self._original_transport is None:  # not the TLS transport STARTTLS makes
                recorder.event("connect")
            connections.add(self)
            super().connection_made(transport)

        def connection_lost(self, error):
            connections.discard(self)
            super().connection_lost(error)

        async def smtp_RSET(self, arg):
            if args.rset421:
                await self.push("421 4.3.2 closing (scripted)")
                self.transport.close()
                return
            await super().smtp_RSET(arg)

        async def smtp_STARTTLS(self, arg):
            recorder.event("starttls")
            await super().smtp_STARTTLS(arg)

    def factory():
        return RecordingSMTP(
            Handler(recorder, delay=args.delay, hang=args.hang), hostname="smtp.test", ident="gatehouse-test-smtp",
            tls_context=context if args.tls == "starttls" else None,
            authenticator=authenticator if args.auth else None, auth_required=bool(args.auth),
            # aiosmtpd counts only STARTTLS as TLS; over implicit TLS it must be told AUTH is safe.
            auth_require_tls=args.tls == "starttls", auth_exclude_mechanism=excluded,
        )

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(
        loop.create_server(factory, host="127.0.0.1", port=0, ssl=context if args.tls == "implicit" else None))
    port = server.sockets[0].getsockname()[1]
    print(json.dumps({"port": port, "ca": ca, "dir": directory}), flush=True)

    def close_all():
        count = len(connections)
        for protocol in list(connections):
            if protocol.transport is not None:
                protocol.transport.close()
        print("closed %d" % count, flush=True)

    def read_stdin():
        for line in sys.stdin:
            if line.strip() == "close":
                loop.call_soon_threadsafe(close_all)
        loop.call_soon_threadsafe(loop.stop)

    threading.Thread(target=read_stdin, daemon=True).start()
    loop.run_forever()
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
