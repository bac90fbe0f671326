"""The Pi's kernel as a person reads it, from what ``uname`` printed.

``uname`` prints ``unknown`` for a field it does not know (GNU coreutils; the virtual Pi lab
for a profile whose kernel nobody published, ``sbctune.lab.uname``), so a bare ``uname -srm``
can read "Linux unknown unknown". The user reads plain words instead: "kernel version not
known", and the architecture only where it is known. The text is the Pi's (untrusted): it is
bounded and made visible (``sbctune.textsafe``) before anything is made of it.
"""

from __future__ import annotations

from sbctune.textsafe import visible

NOT_KNOWN = "kernel version not known"
# beside a "Kernel" label (the inventory card, `inspect`, the HTML report)
FIELD_NOT_KNOWN = "version not known"
# What uname prints for a field it cannot tell (GNU coreutils); a blank or a dash is no value either
_NO_VALUE = frozenset({"", "unknown", "-", "(none)"})
MAX_FIELD = 80


def _known(field: str | None) -> str | None:
    text = visible((field or "").strip())[:MAX_FIELD]
    return None if text.lower() in _NO_VALUE else text


def release_words(release: str | None, not_known: str = NOT_KNOWN) -> str:
    """A kernel release (``uname -r``) as shown: the release, else "kernel version not known"
    (`not_known`: FIELD_NOT_KNOWN beside a "Kernel" label)."""
    return _known(release) or not_known


def uname_words(srm: str) -> str:
    """``uname -srm`` output ("Linux 6.1.0-rpi7-rpi-v8 aarch64") as shown: unchanged when every
    field is known; an unknown release reads "kernel version not known", an unknown machine is
    left out, so never "Linux unknown unknown"."""
    words = (srm or "").strip().splitlines()[:1]
    fields = words[0].split() if words else []
    if len(fields) != 3:  # not the three fields asked for: its known words, bounded
        kept = [word for word in (_known(f) for f in fields[:8]) if word]
        return " ".join(kept)[: 3 * MAX_FIELD] if kept[1:] else NOT_KNOWN
    name, release, machine = (_known(f) for f in fields)
    arch = f" ({machine})" if machine else ""
    if release is None:
        return NOT_KNOWN + arch
    return " ".join(part for part in (name, release, machine) if part)


def beside_label(words: str) -> str:
    """Kernel words (`uname_words`) shown after a "kernel:" label: the label says what it is,
    so "kernel: kernel version not known" (walk 27, `sbctune connect`) reads "kernel: version
    not known"."""
    return FIELD_NOT_KNOWN + words[len(NOT_KNOWN) :] if words.startswith(NOT_KNOWN) else words


__all__ = ["FIELD_NOT_KNOWN", "NOT_KNOWN", "beside_label", "release_words", "uname_words"]
