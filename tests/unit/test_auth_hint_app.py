"""Walking the app (issue 22): Connect with the password left empty told the user to "pass it
with --password-stdin or the SBCTUNE_PASSWORD environment variable, or use a key (-i FILE…)",
the command line's options. The app names its own fields; the CLI keeps its options."""

from __future__ import annotations

from sbctune.remote.errors import AuthFailed
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
