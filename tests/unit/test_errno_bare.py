"""A driver line that reports -1 is not told it means EPERM: drivers return a bare -1 for any
failure (explanations.json ``errno_bare``). The real line is the Orange Pi 5's vendor kernel
(corpus soc44_opi5_pxvirt_109_*, jiangcuo/pxvirt: `dmesg | grep rk_get_eth_addr`)."""

from __future__ import annotations

from sbctune.advice.log_words import errno_words

VENDOR_LINE = (
    "rk_gmac-dwmac fe1c0000.ethernet: rk_get_eth_addr: rk_vendor_read eth mac address failed (-1)"
)


def test_minus_one_says_only_that_the_call_failed() -> None:
    words = errno_words([VENDOR_LINE])
    assert "Error -1 is EPERM" not in words
    assert "would be EPERM" in words and "bare -1" in words
    assert "not why" in words


def test_a_real_errno_keeps_its_name_and_meaning() -> None:
    words = errno_words(["r8152 2-1:1.0: probe of 2-1:1.0 failed with error -110"])
    assert words.startswith(" Error -110 is ETIMEDOUT")
