"""parse_command / parse_file mapping."""

from __future__ import annotations

import pytest

from sbctune.inventory.parsers import parse_command, parse_file, resolve_command


@pytest.mark.parametrize(
    ("cmdline", "key", "iface"),
    [
        ("lspci -vv -nn", "lspci", None),
        ("lspci -nn -vv", "lspci", None),
        ("lspci -nnk", "lspci", None),
        ("sudo lspci -vvvv", "lspci", None),
        ("sudo ethtool eth0", "ethtool", "eth0"),
        ("ethtool -i eth1", "ethtool -i", "eth1"),
        ("ethtool eth1 -i", "ethtool -i", "eth1"),
        ("/usr/sbin/ethtool -k eth0", "ethtool -k", "eth0"),
        ("sudo -n ethtool -g eth1", "ethtool -g", "eth1"),
        ("ethtool --show-channels eth0", "ethtool -l", "eth0"),
        ("ethtool -c eth0", "ethtool -c", "eth0"),
        ("lsusb", "lsusb", None),
        ("lsusb -t", "lsusb -t", None),
        ("lsusb -tvv", "lsusb -t", None),
        ("ip -j addr", "ip -j", None),
        ("ip -json link show", "ip -j", None),
        ("ip -s link", "ip", None),
        ("ip link show", "ip", None),
        ("ip a", "ip", None),
        ("ifconfig eth0", "ifconfig", None),
        ("dmesg | grep eth", "dmesg", None),
        ("sudo dmesg --human -t", "dmesg", None),
        ("uname -a", "uname -a", None),
        ("vcgencmd get_throttled", "vcgencmd get_throttled", None),
        ("vcgencmd measure_temp", "vcgencmd measure_temp", None),
        ("vcgencmd measure_clock arm", "vcgencmd measure_clock", None),
        ("iperf3 --version", "iperf3 --version", None),
        ("cat /proc/interrupts", "/proc/interrupts", None),
        ("grep ethernet /proc/interrupts", "/proc/interrupts", None),
        ("pi@raspberrypi ~ $ lsusb -t", "lsusb -t", None),
        ("ethtool -S eth0", "ethtool -S", "eth0"),
        ("sudo ethtool --statistics end0", "ethtool -S", "end0"),
        ("ethtool -m eth0", None, None),
        ("ip route", None, None),
        ("lsusb -v", "lsusb", None),  # its device lines, bcdUSB and negotiated speed
        ("", None, None),
    ],
)
def test_resolve_command(cmdline, key, iface):
    assert resolve_command(cmdline) == (key, iface)


def test_parse_command_runs_the_parser(capture):
    out = parse_command("sudo ethtool eth0", capture("ethtool/seed001_pi1_smsc95xx.txt"))
    assert out.parser == "ethtool" and out.interface == "eth0" and out.warnings == []
    assert out.result.speed_mbps == 100
    out = parse_command("lspci -vv -nn", capture("lspci/seed004_cm4_i340.txt"))
    assert len(out.result.network()) == 4


def test_unknown_command_gives_warning():
    out = parse_command("ethtool -m eth0", "Identifier: 0x03 (SFP)\n")
    assert out.parser is None and out.result is None
    assert str(out.warnings[0]) == "“ethtool -m eth0”: no parser for this output"


def test_parse_file(capture):
    out = parse_file("/proc/interrupts", capture("proc_interrupts/seed000_pi4_alpine.txt"))
    assert out.result.get(46).counts[0] == 668625
    out = parse_file("/sys/class/net/eth0/speed", capture("dev_vm/sys_eth0_speed.txt"))
    assert out.interface == "eth0" and out.result.value is None
    out = parse_file("/sys/bus/usb/devices/2-2/speed", b"5000\n")
    assert out.result.value == 5000
    out = parse_file("/proc/device-tree/model", b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert out.result.model == "Raspberry Pi 4 Model B Rev 1.4"
    assert parse_file("/etc/nothing", "x").parser is None
