"""Pure parsers of the command outputs and files the inventory collects.

Every ``parse_*`` function takes raw text and returns ``(result, warnings)``; none raises.
"""

from .common import ParseWarning
from .dispatch import ParsedOutput, parse_command, parse_file, resolve_command, resolve_file
from .dmesg import DmesgEvent, DmesgNic, DmesgResult, parse_dmesg
from .ethtool import (
    EthtoolChannels,
    EthtoolCoalesce,
    EthtoolDriverInfo,
    EthtoolFeatures,
    EthtoolRings,
    EthtoolSettings,
    parse_ethtool,
    parse_ethtool_channels,
    parse_ethtool_coalesce,
    parse_ethtool_driver,
    parse_ethtool_features,
    parse_ethtool_rings,
)
from .iperf import Iperf3Version, parse_iperf3_version
from .lspci import LspciResult, PciDevice, parse_lspci
from .lsusb import LsusbResult, UsbDevice, UsbTree, UsbTreeNode, parse_lsusb, parse_lsusb_tree
from .netif import (
    IpAddress,
    NetInterface,
    NetInterfaces,
    parse_ifconfig,
    parse_ip_json,
    parse_ip_text,
)
from .procfs import (
    CpuTimes,
    Interrupts,
    Irq,
    ProcStat,
    Softirqs,
    parse_interrupts,
    parse_proc_stat,
    parse_softirqs,
)
from .sysfs import SysfsValue, parse_sysfs_net, parse_usb_speed
from .system import (
    CpuInfo,
    DeviceTreeModel,
    OsRelease,
    Uname,
    parse_cpuinfo,
    parse_device_tree_model,
    parse_os_release,
    parse_uname,
)
from .vcgencmd import (
    Clock,
    Temperature,
    Throttled,
    decode_throttled,
    parse_get_throttled,
    parse_measure_clock,
    parse_measure_temp,
)

__all__ = [
    "Clock", "CpuInfo", "CpuTimes", "DeviceTreeModel", "DmesgEvent", "DmesgNic", "DmesgResult",
    "EthtoolChannels", "EthtoolCoalesce", "EthtoolDriverInfo", "EthtoolFeatures", "EthtoolRings",
    "EthtoolSettings", "Interrupts", "IpAddress", "Iperf3Version", "Irq", "LspciResult",
    "LsusbResult", "NetInterface", "NetInterfaces", "OsRelease", "ParseWarning", "ParsedOutput",
    "PciDevice", "ProcStat", "Softirqs", "SysfsValue", "Temperature", "Throttled", "Uname",
    "UsbDevice", "UsbTree", "UsbTreeNode", "decode_throttled", "parse_command", "parse_cpuinfo",
    "parse_device_tree_model", "parse_dmesg", "parse_ethtool", "parse_ethtool_channels",
    "parse_ethtool_coalesce", "parse_ethtool_driver", "parse_ethtool_features",
    "parse_ethtool_rings", "parse_file", "parse_get_throttled", "parse_ifconfig",
    "parse_interrupts", "parse_ip_json", "parse_ip_text", "parse_iperf3_version", "parse_lspci",
    "parse_lsusb", "parse_lsusb_tree", "parse_measure_clock", "parse_measure_temp",
    "parse_os_release", "parse_proc_stat", "parse_softirqs", "parse_sysfs_net", "parse_uname",
    "parse_usb_speed", "resolve_command", "resolve_file",
]  # fmt: skip
