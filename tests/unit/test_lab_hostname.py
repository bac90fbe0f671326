"""The lab's Pi's host name from its profile's captures (sbctune.lab.hostname): real captures
name it; anything else a capture holds (untrusted text) never becomes a host name."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.bundle import Bundle, read_bundle
from sbctune.lab.hostname import DEFAULT, lab_hostname, write_etc
from sbctune.lab.profile import find_profile

CORPUS = Path(__file__).parents[1] / "captures" / "corpus"


def test_profiles_and_real_captures_name_the_pi() -> None:
    assert lab_hostname(read_bundle(find_profile("pi5-macb"))) == DEFAULT  # nothing shows one
    assert lab_hostname(read_bundle(find_profile("pi4-ax88179"))) == "lbox"  # seed 000's prompt
    # raspberrypi/linux issue 6832's `uname -a`: "Linux raspberrypi10 6.12.20+rpt-rpi-2712 ..."
    igc = read_bundle(CORPUS / "pi5_linux_6832_igc_i226_probe_eacces_uname")
    assert lab_hostname(igc) == "raspberrypi10"


@given(st.text(max_size=200), st.text(max_size=200), st.text(max_size=80))
def test_any_capture_gives_a_plain_name(uname: str, hostname: str, host: str) -> None:
    bundle = Bundle(Path("x"), host, "", commands={"uname -a": uname, "hostname": hostname})
    name = lab_hostname(bundle)
    assert name == DEFAULT or (
        0 < len(name) <= 63 and all(c.isascii() and (c.isalnum() or c == "-") for c in name)
    )


def test_hostile_name_is_not_taken() -> None:
    bad = Bundle(Path("x"), "a;rm -rf", "", commands={"hostname": "$(reboot)\n"})
    assert lab_hostname(bad) == DEFAULT


def test_etc_names_the_pi_on_127_0_1_1(tmp_path: Path) -> None:
    write_etc(tmp_path, "lbox")
    assert (tmp_path / "hostname").read_text(encoding="utf-8") == "lbox\n"
    hosts = (tmp_path / "hosts").read_text(encoding="utf-8").splitlines()
    assert [ln for ln in hosts if ln.startswith("127.0.1.1")] == ["127.0.1.1\tlbox"]
