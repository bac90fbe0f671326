"""known_hosts read line by line as OpenSSH reads it: a line it would skip is skipped with a
warning naming the file and line, and never stops the lines after it from counting."""

from __future__ import annotations

import asyncssh
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.remote.hostkeys import parse_known_hosts

KEY = asyncssh.generate_private_key("ssh-ed25519")
FINGERPRINT = KEY.get_fingerprint()
LINE = " ".join(KEY.export_public_key("openssh").decode().split()[:2])


def test_bad_lines_are_skipped_and_the_rest_counts() -> None:
    text = (
        "# comment\n"
        "@no-such-marker pi.local " + LINE + "\n"
        "only-a-host\n"
        "|1|not-base64|x " + LINE + "\n"
        "@cert-authority *.example.com " + LINE + "\n"
        "@revoked old.local " + LINE + "\n"
        "pi.local " + LINE + "\n"
    )
    known, skipped = parse_known_hosts(text, "kh")
    assert [w.split(" skipped")[0] for w in skipped] == ["kh line 2", "kh line 3", "kh line 4"]
    assert [k.get_fingerprint() for k in known.match("pi.local", "", None)[0]] == [FINGERPRINT]
    assert [k.get_fingerprint() for k in known.match("a.example.com", "", None)[1]] == [
        FINGERPRINT
    ]  # a CA for those hosts
    assert [k.get_fingerprint() for k in known.match("old.local", "", None)[2]] == [
        FINGERPRINT
    ]  # revoked


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=60), st.sampled_from(["@revoked", "@x", "|1|", LINE]))))
def test_any_text_gives_entries_or_warnings_never_an_error(parts: list[str]) -> None:
    text = "\n".join(" ".join(parts[i : i + 3]) for i in range(0, len(parts), 3))
    _known, skipped = parse_known_hosts(text)
    assert all(w.startswith("known_hosts line ") and "\x1b" not in w for w in skipped)


def test_a_file_of_broken_lines_gives_a_few_warnings_not_one_per_line() -> None:
    text = "pi.local " + LINE + "\n" + "@bogus pi.local ssh-ed25519 AAAA\n" * 20_000
    known, skipped = parse_known_hosts(text, "kh")
    assert [w.split(" skipped")[0] for w in skipped[:5]] == [f"kh line {n}" for n in range(2, 7)]
    assert skipped[5:] == ["kh line 7 and 19994 more lines after it skipped too, as OpenSSH does"]
    assert [k.get_fingerprint() for k in known.match("pi.local", "", None)[0]] == [FINGERPRINT]
