"""A transmit-timeout handler's line repeated under new clocks is asked of the handler table
once per distinct line (nic_log._handler_lines; issue 24, speed), and every repeat is still
counted as the timeout, none as a complaint."""

from __future__ import annotations

from sbctune.inventory import nic_log
from tests.corpus_support import dmesg_inventory

_HANDLER = "ixgbe 0000:01:00.0 eth2: initiating reset due to tx timeout"  # ixgbe_main.c's
_REPEATS = 200


def test_a_repeated_handler_line_is_asked_once(monkeypatch) -> None:
    asked: list[str] = []
    real = nic_log.tx_timeout_message

    def counting(text: str, driver: object):  # type: ignore[no-untyped-def]
        asked.append(text)
        return real(text, driver)

    monkeypatch.setattr(nic_log, "tx_timeout_message", counting)
    lines = [
        "[    2.000000] ixgbe 0000:01:00.0: Intel(R) 10 Gigabit Network Connection",
        "[    2.100000] ixgbe 0000:01:00.0 eth2: renamed from eth0",
        *(f"[{1000 + i}.100000] {_HANDLER}" for i in range(_REPEATS)),
    ]
    (nic,) = [n for n in dmesg_inventory(*lines).nics if n.name == "eth2"]
    assert nic.log_counts.get("tx_timeout") == _REPEATS
    assert "kernel_error" not in nic.log_counts
    assert len(asked) <= 2  # the handler's line (and another error line, if any), not 200
