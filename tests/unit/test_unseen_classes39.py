"""Classes that the thirty-ninth unseen set (power, heat and bus resets: dead xHCI controllers,
hub EMI and power cycles, under-voltage forms, x86 thermal throttling; tests/captures/corpus/
power39_*) showed misread. Every output here is one of those bundles' (named beside it, with
its SOURCE.md), or one changed to show what must NOT be read; the corpus test checks whole
bundles."""

from __future__ import annotations

from tests.corpus_support import corpus_output, dmesg_inventory, findings_of, inventory_of

# --- a USB host controller the kernel declared dead ---

_PI4_VL805 = "power39_pi4_linux_3404_vl805_host_system_error_hc_died_uas_ssd"
_ARMADA = "power39_armada_omr_224_xhci_abort_110_hc_died_usb_air_cards"
_GL_A1300 = "power39_gla1300_openwrt_18099_cdc_ether_eth1_hc_died_logread"


def test_a_dead_xhci_controller_is_a_finding_naming_the_controller() -> None:
    """A Pi 4's VL805: "xHCI host controller not responding, assume dead" (xhci-ring.c
    xhci_hc_died()) then "HC died; cleaning up" (hcd.c usb_hc_died()), one finding for the one
    controller, named by its device, with a power recommendation; no NIC is made of it."""
    inv = inventory_of({"dmesg": corpus_output(_PI4_VL805)})
    assert inv.nics == []
    (summary,) = findings_of(inv, "usb-controller-died")
    assert "0000:01:00.0" in summary and "not the cause" in summary
    cited = [s for r in inv.recommendations if r.kind == "power" for s in r.sources]
    assert any("drivers/usb/core/hcd.c" in s for s in cited)


def test_a_dead_controller_in_lines_without_a_clock_or_in_logread() -> None:
    """The Armada 38x's bare lines (xhci-hcd f10f8000.usb3) and the GL-A1300's `logread`
    (facility.level prefixes): each one controller, once."""
    armada = inventory_of({"dmesg": corpus_output(_ARMADA)})
    assert len(findings_of(armada, "usb-controller-died")) == 1
    assert "f10f8000.usb3" in findings_of(armada, "usb-controller-died")[0]
    gl = inventory_of({"logread": corpus_output(_GL_A1300)})
    assert len(findings_of(gl, "usb-controller-died")) == 1
    assert [n.name for n in gl.nics] == ["eth1"]


def test_a_dead_controller_s_own_bus_names_its_usb_nic() -> None:
    """usb_add_hcd()'s "new USB bus registered, assigned bus number N" ties the controller to
    its bus; the USB NIC on that bus carries the finding, one on another controller does not."""
    inv = dmesg_inventory(
        "[    1.1] xhci_hcd 0000:01:00.0: new USB bus registered, assigned bus number 2",
        "[    1.2] xhci_hcd 0000:02:00.0: new USB bus registered, assigned bus number 3",
        "[    2.0] r8152 2-1:1.0 eth1: v1.12.13",
        "[    2.1] r8152 3-1:1.0 eth2: v1.12.13",
        "[  815.101521] xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead",
        "[  815.101661] xhci_hcd 0000:01:00.0: HC died; cleaning up",
    )
    died = [f for f in inv.findings if f.id == "usb-controller-died"]
    assert [f.nic for f in died] == ["eth1"]


def test_a_controller_that_answers_again_is_no_dead_controller() -> None:
    """xHCI's "host not responding to stop endpoint command" alone is a command timeout the
    driver recovers from, not a dead controller."""
    inv = dmesg_inventory(
        "[ 2565.913104] xhci-hcd xhci-hcd.0.auto: xHCI host not responding to stop endpoint command"
    )
    assert findings_of(inv, "usb-controller-died") == []


# --- the x86 thermal interrupt's throttling lines ---

_DS411 = "power39_ds411_bbqq_r8152_184_mce_core_temperature_throttled"


def test_the_4_4_era_thermal_throttle_line_is_a_thermal_finding() -> None:
    """A DS411+'s "CPU1: Core temperature above threshold, cpu clock throttled (total events =
    136516)" (therm_throt.c before 5.5) among machine-check records: power-or-thermal with a
    cooling recommendation, not under-voltage."""
    inv = inventory_of({"dmesg": corpus_output(_DS411)})
    (summary,) = findings_of(inv, "power-or-thermal")
    assert "thermal throttling" in summary
    assert findings_of(inv, "under-voltage") == []
    assert any(r.title == "Cool the CPU" for r in inv.recommendations)


def test_the_6_x_thermal_throttle_words_and_the_normal_line() -> None:
    """6.1/6.12 drivers/thermal/intel/therm_throt.c throttle_active_work(): "temperature is above
    threshold, cpu clock is throttled"; its "temperature/speed normal" alone says nothing."""
    hot = dmesg_inventory(
        "[ 7763.602572] CPU2: Package temperature is above threshold, cpu clock is throttled "
        "(total events = 15180)"
    )
    assert len(findings_of(hot, "power-or-thermal")) == 1
    normal = dmesg_inventory("[515033.725003] CPU0: Core temperature/speed normal")
    assert findings_of(normal, "power-or-thermal") == []
