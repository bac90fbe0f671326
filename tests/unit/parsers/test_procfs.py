"""/proc/interrupts, /proc/softirqs, /proc/stat on real captures."""

from __future__ import annotations

from sbctune.inventory.parsers import parse_interrupts, parse_proc_stat, parse_softirqs


def test_seed000_xhci_irq46(capture):
    res, warnings = parse_interrupts(capture("proc_interrupts/seed000_pi4_alpine.txt"))
    assert warnings == []
    assert res.cpus == 4
    irq = res.get(46)
    assert irq.counts == [668625, 0, 0, 0]
    assert (irq.controller, irq.hwirq, irq.trigger, irq.names) == (
        "BRCM STB PCIe MSI",
        "524288",
        "edge",
        ["xhci_hcd"],
    )
    assert [i.irq for i in res.find("eth0")] == ["38", "39"]
    assert res.get(38).counts[1] == 313196
    assert res.get(32).names == ["mmc1", "mmc0"]
    assert res.get("IPI1").description == "Function call interrupts"
    assert res.get("Err").counts == [0]
    assert res.get(22).names == ["bcm2708_fb DMA"]


def test_pi1_single_cpu_with_fiq(capture):
    res, warnings = parse_interrupts(capture("proc_interrupts/pi1_bosun_647.txt"))
    assert warnings == []
    assert res.cpus == 1
    assert res.get(32).names == ["dwc_otg", "dwc_otg_pcd", "dwc_otg_hcd:usb1"]
    assert res.get(75).names == [] and res.get(75).controller == "ARMCTRL"
    assert res.get("FIQ").counts == [] and res.get("FIQ").description == "usb_fiq"


def test_nanopi_r2s_usb_nic_on_cpu3(capture):
    res, warnings = parse_interrupts(
        capture("proc_interrupts/nanopi_r2s_openwrt_14205_excerpt.txt")
    )
    assert warnings == []
    xhci = res.find("xhci-hcd")[0]
    assert xhci.irq == "25" and xhci.counts == [334, 0, 0, 4422194]
    assert res.get(29).controller == "rockchip_gpio_irq"


def test_grepped_line_without_header(capture):
    res, warnings = parse_interrupts(capture("proc_interrupts/cm5_grep_ethernet_6963.txt"))
    assert warnings == []
    assert res.cpus is None
    irq = res.get(168)
    assert irq.counts == [2, 0, 0, 0] and irq.controller == "pinctrl-rp1" and irq.hwirq == "37"


def test_old_gic_format_indented(capture):
    res, warnings = parse_interrupts(capture("proc_interrupts/odroid_c1_armbian_351_excerpt.txt"))
    assert warnings == []
    eth = res.find("eth0")[0]
    assert eth.controller == "GIC" and eth.counts == [7, 1380, 0, 0] and eth.hwirq is None
    assert res.get(92).names == ["MESON TIMER-F"]


def test_x86_vm(capture):
    res, warnings = parse_interrupts(capture("dev_vm/proc_interrupts.txt"))
    assert warnings == []
    assert res.cpus == 2
    first = res.irqs[0]
    assert first.controller == "IO-APIC" and first.trigger == "edge"


def test_softirqs(capture):
    s, warnings = parse_softirqs(capture("proc_softirqs/netutils_157_x86_6cpu.txt"))
    assert warnings == []
    assert s.cpus == 6 and s.net_rx[0] == 2302171660 and s.net_tx[-1] == 2
    assert "BLOCK_IOPOLL" in s.counts
    s, warnings = parse_softirqs(capture("dev_vm/proc_softirqs.txt"))
    assert warnings == [] and len(s.net_rx) == 2


def test_proc_stat(capture):
    st, warnings = parse_proc_stat(capture("dev_vm/proc_stat.txt"))
    assert warnings == []
    assert sorted(st.cpus) == [0, 1]
    assert st.total is not None and st.total.idle > 0
    assert st.cpus[0].softirq >= 0 and st.total.total >= st.total.busy
