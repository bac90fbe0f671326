"""The boot tweaks know the Compute Module 5 and the Raspberry Pi 500 (walk 25; audit 23 L4).

Raspberry Pi's documentation ("Introduction" model tables) makes both BCM2712 boards, as the
Pi 5; the overclocking page's defaults table gives the BCM2712's arm_freq (2400, its Pi 5
column). The Pi 500's device tree is the Pi 5's (raspberrypi/linux bcm2712-rpi-500.dts includes
bcm2712d0-rpi-5-b.dts, `model = "Raspberry Pi 500"`) but the board has no PCIe connector, so
dtparam=pciex1_gen is not for it. Before: a real CM5 was told arm_freq is "only for Raspberry
Pi 4, ..., Raspberry Pi 5", and a Pi 500 was taken for a Pi 5 ("Raspberry Pi 5" is the start of
"Raspberry Pi 500"), Gen 3 of a connector it does not have included."""

from __future__ import annotations

from pathlib import Path

from sbctune.inventory.bundle import Bundle
from sbctune.inventory.inspect import identify, raw_from_bundle
from sbctune.inventory.model import Board, Inventory
from sbctune.tuning import catalog, source_rule, tryboot
from sbctune.tuning.board_names import names_board
from tests.unit.test_lab_audit23 import _plan

CAPTURE = Path(__file__).resolve().parents[1] / "captures" / "cpuinfo" / "cm5_rev10_pigpio_621.txt"
# the Pi 500's device tree model (bcm2712-rpi-500.dts); the firmware appends " Rev 1.0". No
# capture of a real Pi 500's /proc/cpuinfo or device-tree model was found (walk 25)
PI500 = "Raspberry Pi 500"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"  # tests/captures/cpuinfo/pi5_rev10_mobile_montgomery.txt


def _cm5_model() -> str:
    bundle = Bundle(source=Path("."), host="cm5", created="",
                    files={"/proc/cpuinfo": CAPTURE.read_text(encoding="utf-8")})  # fmt: skip
    model = identify(raw_from_bundle(bundle))[0].board.model
    assert model == "Raspberry Pi Compute Module 5 Rev 1.0"
    return model


def test_a_real_cm5_gets_the_bcm2712_clock() -> None:
    item = _plan("boot-arm-freq", None, _cm5_model())
    assert item.applicable, item.reason
    assert "arm_freq=2800" in item.reason


def test_a_pi500_gets_its_own_row_and_no_pcie_connector() -> None:
    item = _plan("boot-arm-freq", None, PI500 + " Rev 1.0")
    assert item.applicable and "arm_freq=2800" in item.reason, item.reason
    inventory = Inventory(board=Board(model=PI500 + " Rev 1.0"))
    names = list(catalog.tweak("boot-arm-freq").params["boards"])
    assert source_rule.board_named({}, inventory, names) == "Raspberry Pi 500"
    gen3 = catalog.tweak("boot-pi5-pcie-gen3")
    refused = source_rule.board_refusal(gen3, inventory, {})
    assert refused == ("only for Raspberry Pi 5, Compute Module 5 "
                       "(this board: Raspberry Pi 500 Rev 1.0)")  # fmt: skip
    perf = catalog.tweak("boot-pcie-bus-perf")
    assert source_rule.board_refusal(perf, inventory, {}) is None


def test_tryboot_is_used_on_the_pi500_and_cm5() -> None:
    boards = [str(b) for b in catalog.tryboot_settings()["boards"]]
    config = ("/boot/firmware/config.txt", "[all]\n")
    for model in (PI500 + " Rev 1.0", _cm5_model(), PI5):
        assert tryboot.support(model, boards, config, None, None).usable, model


def test_a_board_name_is_a_whole_name_in_the_model() -> None:
    assert names_board("Raspberry Pi 5", PI5)
    assert not names_board("Raspberry Pi 5", PI500 + " Rev 1.0")
    assert not names_board("Raspberry Pi 4", "Raspberry Pi 400 Rev 1.0")
    assert names_board("Compute Module 4", "Raspberry Pi Compute Module 4 Rev 1.1")
    assert not names_board("Compute Module 4", "Raspberry Pi Compute Module 4S Rev 1.0")
    assert names_board("Raspberry Pi 500", PI500)
