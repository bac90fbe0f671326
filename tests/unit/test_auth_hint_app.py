"""Walking the app (issue 22): Connect with the password left empty told the user to "pass it
with --password-stdin or the SBCTUNE_PASSWORD environment variable, or use a key (-i FILE…)",
the command line's options. The app names its own fields; the CLI keeps its options."""

from __future__ import annotations

from sbctune.remote.errors import AuthFailed, HostKeyChanged, HostKeyUnknown
from sbctune.workflow.problems import problem_from
from tests.plain_words import jargon


def test_an_empty_password_in_the_app_points_at_the_app_s_fields() -> None:
    exc = AuthFailed("pi", "198.18.0.2", "Permission denied", no_password=True)
    app = problem_from(exc, "gui")
    assert "--password-stdin" not in app.hint and "-i FILE" not in app.hint
    assert "type the Pi's password" in app.hint and "SSH key or agent" in app.hint
    assert not jargon(app.message + app.hint)
    cli = problem_from(exc, "cli")
    assert "--password-stdin" in cli.hint


def test_a_wrong_password_keeps_its_hint() -> None:
    exc = AuthFailed("pi", "198.18.0.2", "Permission denied", no_password=False)
    assert problem_from(exc, "gui").hint == problem_from(exc, "cli").hint


def test_a_wrong_password_is_said_once_with_what_to_do() -> None:
    """The walk of session 11: "did not accept the login for user 'pi' (Permission denied for
    user pi on host …)" said it twice, the second time in the server's words."""
    reason = "Permission denied for user pi on host 198.18.0.2"
    exc = AuthFailed("pi", "198.18.0.2", reason, password=True)
    shown = problem_from(exc, "gui")
    assert shown.message == "198.18.0.2 did not accept the password for user “pi”."
    assert "Permission denied" not in shown.message + shown.hint
    assert "Type the password again" in shown.hint and "Raspberry Pi Imager" in shown.hint
    assert not jargon(shown.message + shown.hint)


def test_a_server_reason_that_says_more_is_kept_bounded() -> None:
    exc = AuthFailed("pi", "198.18.0.2", "Too many failures\x1b[2J" + "x" * 500, password=True)
    message = problem_from(exc, "cli").message
    assert "The Pi said: “Too many failures" in message and "\x1b" not in message
    assert len(message) < 250


def test_a_declined_host_key_in_the_app_names_the_question_s_button() -> None:
    """Walk 18: Cancel in the app's fingerprint question ended with "then connect again with
    --accept-new-host-key", an option of the command line the app's user never sees."""
    exc = HostKeyUnknown("198.18.0.2", "ssh-ed25519", "SHA256:kmHqoW1FA")
    app = problem_from(exc, "gui")
    assert "--accept-new-host-key" not in app.hint
    assert "Connect" in app.hint and "Trust and connect" in app.hint
    assert "ssh-keygen -lf" in app.hint and "SHA256:kmHqoW1FA" in app.message
    assert not jargon(app.message + app.hint)
    assert "--accept-new-host-key" in problem_from(exc, "cli").hint


def test_a_changed_host_key_gives_the_whole_command_to_remove_the_old_entry() -> None:
    """Walk 18: the hint said "remove the old entry (“ssh-keygen -R 198.18.0.2” and “-f
    /home/…/known_hosts” if that file is not ~/.ssh/known_hosts)": two pieces for the user to
    put together into one command."""
    exc = HostKeyChanged("198.18.0.2", "ssh-ed25519", "SHA256:7L1i", "/home/me/.local/known_hosts")
    hint = problem_from(exc, "gui").hint
    assert "“ssh-keygen -R 198.18.0.2 -f /home/me/.local/known_hosts”" in hint, hint
    spaced = HostKeyChanged("pi", "ssh-ed25519", "SHA256:7L1i", r"C:\Users\Jo Doe\known_hosts")
    assert 'ssh-keygen -R pi -f "C:\\Users\\Jo Doe\\known_hosts"' in spaced.hint
