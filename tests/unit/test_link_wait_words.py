"""What apply and revert say once the link is back (walk 22): a bounce shorter than a second
reads "within a second", never "within 0.1 s" (or 0.0 s) right after "drops for about 3 s"."""

from __future__ import annotations

from sbctune.tuning.link_wait import parse, words


def test_a_link_back_in_hundredths_of_a_second_reads_within_a_second() -> None:
    # `tune apply --nic eth1 --tweak nic-rings` on the lab cm4-i340-igb (igb's reset as the
    # lab's veth bounce) said "came back within 0.1 s": a line of that kind (0.03 s)
    wait = parse("sbctune-link back 1 0 3\n", "eth1")
    assert words(wait, "eth1") == "the link of eth1 dropped and came back within a second"


def test_a_link_back_after_seconds_gives_them() -> None:
    wait = parse("sbctune-link back 3 24 270", "eth0")
    assert words(wait, "eth0") == "the link of eth0 dropped and came back within 2.7 s"
