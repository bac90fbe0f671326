"""The names ``fake_ethtool`` knows: ethtool's option aliases, ring and coalescing parameters,
and the legacy feature names with the kernel features each stands for (ethtool's
off_flag_def).

No imports: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

ALIASES = {
    "--driver": "-i",
    "--show-ring": "-g",
    "--set-ring": "-G",
    "--show-coalesce": "-c",
    "--coalesce": "-C",
    "--show-features": "-k",
    "--show-offload": "-k",
    "--features": "-K",
    "--offload": "-K",
    "--show-pause": "-a",
    "--pause": "-A",
    "--show-channels": "-l",
    "--set-channels": "-L",
    "--statistics": "-S",
    "--change": "-s",
    "--negotiate": "-r",
    "--show-rxfh-indir": "-x",
    "--show-rxfh": "-x",
    "--show-nfc": "-n",
    "--show-ntuple": "-n",
    "-u": "-n",
    "--show-time-stamping": "-T",
    "--show-permaddr": "-P",
    "--register-dump": "-d",
}
# ethtool 6.1's flags before the option -> how many values each takes (ethtool.c main)
FLAGS = {"--debug": 1, "--json": 0, "-I": 0, "--include-statistics": 0}
RING_PARAMS = ("rx", "rx-mini", "rx-jumbo", "tx")
COALESCE_LAYOUT: list[list[str]] = [
    ["stats-block-usecs", "sample-interval", "pkt-rate-low", "pkt-rate-high"],
    ["rx-usecs", "rx-frames", "rx-usecs-irq", "rx-frames-irq"],
    ["tx-usecs", "tx-frames", "tx-usecs-irq", "tx-frames-irq"],
    ["rx-usecs-low", "rx-frame-low", "tx-usecs-low", "tx-frame-low"],
    ["rx-usecs-high", "rx-frame-high", "tx-usecs-high", "tx-frame-high"],
]
COALESCE_PARAMS = {p for row in COALESCE_LAYOUT for p in row} | {"adaptive-rx", "adaptive-tx"}
# ethtool 6.1's -C also sends these; no driver of the table has ETHTOOL_COALESCE_USE_CQE_*
COALESCE_PARAMS |= {"cqe-mode-rx", "cqe-mode-tx"}
# ethtool 6.1's -G parameters that only the kernel's core answers (ethnl_set_rings)
RING_CORE_PARAMS = {"rx-buf-len": "num", "cqe-size": "num", "tx-push": "bool"}

# Legacy feature names (ethtool's off_flag_def) -> the kernel features they stand for.
LEGACY: dict[str, list[str]] = {
    "rx-checksumming": ["rx-checksum"],
    "tx-checksumming": [
        "tx-checksum-ipv4",
        "tx-checksum-ip-generic",
        "tx-checksum-ipv6",
        "tx-checksum-fcoe-crc",
        "tx-checksum-sctp",
    ],
    "scatter-gather": ["tx-scatter-gather", "tx-scatter-gather-fraglist"],
    "tcp-segmentation-offload": [
        "tx-tcp-segmentation",
        "tx-tcp-ecn-segmentation",
        "tx-tcp-mangleid-segmentation",
        "tx-tcp6-segmentation",
    ],
    "generic-segmentation-offload": ["tx-generic-segmentation"],
    "generic-receive-offload": ["rx-gro"],
    "large-receive-offload": ["rx-lro"],
    "rx-vlan-offload": ["rx-vlan-hw-parse"],
    "tx-vlan-offload": ["tx-vlan-hw-insert"],
    "ntuple-filters": ["rx-ntuple-filter"],
    "receive-hashing": ["rx-hashing"],
}
SHORT = {
    "rx": "rx-checksumming",
    "tx": "tx-checksumming",
    "sg": "scatter-gather",
    "tso": "tcp-segmentation-offload",
    "gso": "generic-segmentation-offload",
    "gro": "generic-receive-offload",
    "lro": "large-receive-offload",
    "rxvlan": "rx-vlan-offload",
    "txvlan": "tx-vlan-offload",
    "ntuple": "ntuple-filters",
    "rxhash": "receive-hashing",
}
