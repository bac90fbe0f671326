"""Typed errors of the SSH layer, each with a message a non-expert understands and a hint."""

from __future__ import annotations

import platform

from sbctune.errors import UserError
from sbctune.limits import size_text
from sbctune.textsafe import visible
from sbctune.wording import counted

_ENABLE_SSH = (
    "Is SSH enabled on the Pi? On Raspberry Pi OS run `sudo raspi-config` → Interface Options → "
    "SSH, or create an empty file named `ssh` on the boot partition."
)


class RemoteError(UserError):
    """Anything that went wrong talking to the Pi."""


# macOS 15 and later answer "No route to host" to an app refused the Local Network
# permission (Apple TN3179): the one thing the user can change is that switch.
_MACOS_LOCAL_NETWORK = (
    " On macOS, sbctune also needs the Local Network permission: System Settings → Privacy & "
    "Security → Local Network → turn sbctune on (Terminal, for the command line), then try again."
)


class HostUnreachable(RemoteError):
    def __init__(self, host: str, detail: str = "", system: str | None = None) -> None:
        macos = (system or platform.system()) == "Darwin"
        super().__init__(
            f"Cannot reach {host}{': ' + detail if detail else ''}.",
            "Check that the Pi is powered on and on the same network as this computer, and that "
            "the address is right (try `ping` from this computer)."
            + (_MACOS_LOCAL_NETWORK if macos else ""),
        )


class NameNotResolved(RemoteError):
    def __init__(self, host: str) -> None:
        super().__init__(
            f"The name “{host}” could not be resolved to an address.",
            "Check the spelling, or use the Pi's IP address instead (your router's client list "
            "shows it; on the Pi, `hostname -I` prints it).",
        )


class ConnectionRefused(RemoteError):
    def __init__(self, host: str, port: int) -> None:
        # The desktop app's words (sbctune.workflow.problems): its Port field alone.
        self.app_hint = _ENABLE_SSH + " If SSH runs on another port, type that port in Port."
        super().__init__(
            f"{host} refused the connection on port {port}: no SSH server is listening there.",
            _ENABLE_SSH + " If SSH runs on another port, give that port: in the app's Port "
            "field, or as host:port on the command line.",
        )


class ConnectTimeout(RemoteError):
    def __init__(self, host: str, seconds: float) -> None:
        super().__init__(
            f"No answer from {host} within {seconds:g} s.",
            "The Pi may be off, on another network, or behind a firewall that drops SSH. "
            + _ENABLE_SSH,
        )


class AuthFailed(RemoteError):
    def __init__(
        self,
        user: str,
        host: str,
        methods: str = "",
        *,
        no_password: bool = False,
        password: bool = False,
    ) -> None:
        who = f" for user “{user}”" if user else ""
        what = "the password" if password else "the login"
        hint = (
            "Check the user name and password, or the key file. On Raspberry Pi OS the user is "
            "the one you created in Raspberry Pi Imager (older images: “pi”)."
        )
        if password:
            hint = (
                "Type the password again (mind Caps Lock) and check the user name: on Raspberry "
                "Pi OS it is the one you created in Raspberry Pi Imager (older images: “pi”)."
            )
        if not user:
            hint = "Give the Pi's user name as user@host (e.g. pi@raspberrypi.local). " + hint
        # The desktop app's words (sbctune.workflow.problems): its fields, not the CLI's options.
        self.no_password = no_password
        self.app_hint = (
            "No password was typed: type the Pi's password, or choose “SSH key or agent”. "
            "On Raspberry Pi OS the user is the one you created in Raspberry Pi Imager."
        )
        if no_password:
            hint = (
                "No password was given: pass it with --password-stdin or the SBCTUNE_PASSWORD "
                "environment variable, or use a key (-i FILE or the SSH agent). " + hint
            )
        super().__init__(f"{host} did not accept {what}{who}.{_server_words(methods)}", hint)


def _server_words(reason: str) -> str:
    """The server's reason only when it says more than "permission denied" (which the message
    already says, with the user and host again: the walk of session 11); bounded and made
    visible, as any text from the Pi."""
    reason = " ".join(visible(reason or "").split())
    if not reason or reason.lower().startswith("permission denied"):
        return ""
    short = reason if len(reason) <= 120 else reason[:119] + "…"
    return f" The Pi said: “{short}”."


class KeyFileUnusable(RemoteError):
    """A key file given with -i (or found in ~/.ssh) that cannot be read or used."""

    def __init__(self, path: str, reason: str) -> None:
        hint = "Give the private key file (not the .pub one) with -i FILE, or leave -i out."
        if "passphrase" in reason.lower():
            hint = (
                "The key is protected by a passphrase: load it into the SSH agent "
                f"(`ssh-add {path}`) and connect again; sbctune uses the agent's keys."
            )
        super().__init__(f"The SSH key {path} cannot be used: {reason}.", hint)


class HandshakeLost(RemoteError):
    """The TCP connection opened but closed before SSH spoke: not an SSH server, or a
    firewall/proxy in the way."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(
            f"{host} accepted a connection on port {port} but closed it before the SSH login.",
            "Check that the address is your Pi's and that SSH runs on that port (something "
            "else, or a firewall or proxy, may be answering there). " + _ENABLE_SSH,
        )


class HostKeyUnknown(RemoteError):
    """The host's key is not known yet: the user must confirm its fingerprint once."""

    def __init__(self, host: str, key_type: str, fingerprint: str) -> None:
        # The desktop app's words (sbctune.workflow.problems): there this follows the user's
        # own "Cancel" in the fingerprint question, so its button, not the CLI's option.
        self.app_hint = (
            "If you trust this device, compare the fingerprint with the Pi's own (on the Pi: "
            "`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`); if they match, press Connect "
            "again and choose “Trust and connect”."
        )
        super().__init__(
            f"This is the first connection to {host}. Its {key_type} key fingerprint is "
            f"{fingerprint}.",
            "If you trust this device, confirm the fingerprint (on the Pi: "
            "`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`), then connect again with "
            "--accept-new-host-key.",
        )
        self.host = host
        self.key_type = key_type
        self.fingerprint = fingerprint


def _arg(path: str) -> str:
    """A file name as one argument on a command line, in double quotes when it has spaces (a
    Windows user folder: cmd, PowerShell and POSIX shells all read those)."""
    return f'"{path}"' if any(c.isspace() for c in path) else path


class HostKeyChanged(RemoteError):
    """The host presented a different key than the one recorded: a hard stop."""

    exit_code = 3

    def __init__(self, host: str, key_type: str, fingerprint: str, known_in: str) -> None:
        super().__init__(
            f"WARNING: the identity of {host} has CHANGED. It now presents a {key_type} key "
            f"{fingerprint}, which differs from the one recorded in {known_in}. sbctune will not "
            "connect.",
            # The whole command, the file included (walk 18: "`ssh-keygen -R host` and `-f
            # FILE` if that file is not ~/.ssh/known_hosts" left the user to put it together).
            "If you reinstalled the Pi's operating system, this is expected: remove the old "
            f"entry with `ssh-keygen -R {host} -f {_arg(known_in)}` and connect again. "
            "Otherwise someone may be intercepting the connection.",
        )
        self.host = host
        self.key_type = key_type
        self.fingerprint = fingerprint


class HostKeyRevoked(HostKeyChanged):
    """The host presented a key known_hosts marks `@revoked`: refused, as OpenSSH does."""

    def __init__(self, host: str, key_type: str, fingerprint: str, known_in: str) -> None:
        RemoteError.__init__(
            self,
            f"REVOKED HOST KEY DETECTED: the {key_type} host key {fingerprint} of {host} is "
            f"marked as revoked in {known_in}. This could mean that a stolen key is being used "
            "to impersonate this host. sbctune will not connect.",
            "Ask whoever runs the Pi for its current host key. If the Pi got a new key, remove "
            f"the @revoked line from {known_in} only once you know why it was there.",
        )
        self.host = host
        self.key_type = key_type
        self.fingerprint = fingerprint


class CommandFailed(RemoteError):
    def __init__(self, command: str, exit_code: int | None, stderr: str) -> None:
        tail = stderr.strip().splitlines()[-3:] if stderr.strip() else []
        super().__init__(
            f"The command `{command}` failed on the Pi (exit code {exit_code})"
            + (": " + " / ".join(tail) if tail else "."),
            "The error above comes from the Pi itself.",
        )
        self.command = command
        self.returncode = exit_code
        self.stderr = stderr


class SudoFailed(RemoteError):
    def __init__(self, user: str, reason: str) -> None:
        super().__init__(
            f"sudo on the Pi failed for user “{user}”: {reason}",
            "Give the sudo password (--sudo-password-stdin or SBCTUNE_SUDO_PASSWORD; by default "
            "the login password is used), and check that the user may use sudo "
            "(`groups` on the Pi lists “sudo”).",
        )


class RemoteTimeout(RemoteError):
    def __init__(self, command: str, seconds: float) -> None:
        super().__init__(
            f"`{command}` did not finish on the Pi within {seconds:g} s; it was stopped.",
            "The Pi may be overloaded or the link may have dropped. Try again.",
        )


class ScriptTimeout(RemoteTimeout):
    """A batch of commands (one `sh -s` round trip, `Session.run_script`) ran past its limit
    (`sbctune.remote.script_time`): said by what it was doing, never as "sh -s"."""

    def __init__(self, what: str, steps: int, seconds: float) -> None:
        doing = what or "the commands sbctune sent"
        count = counted(steps, "command")
        RemoteError.__init__(
            self,
            f"The Pi did not finish {doing} ({count}) within {seconds:g} s; sbctune stopped "
            "waiting.",
            "The Pi is overloaded or very slow, or the link dropped. Check that it still "
            "answers (log in with ssh and run `uptime`: a load far above its number of cores "
            "means it is busy), then try again.",
        )
        self.seconds = seconds


class Disconnected(RemoteError):
    def __init__(self, host: str, detail: str = "") -> None:
        super().__init__(
            f"The connection to {host} was lost{': ' + detail if detail else ''}.",
            "Check the network and power of the Pi, then connect again.",
        )


class OutputTooLarge(RemoteError):
    """The Pi sent more than sbctune reads from one command (README: Limits)."""

    def __init__(self, command: str, limit: int) -> None:
        super().__init__(
            f"The Pi sent more than {size_text(limit)} for `{command}`; sbctune stopped reading"
            " there.",
            "A real Pi's outputs are far smaller: check what that command prints on the Pi.",
        )
